#!/usr/bin/env bash
# Runs a libFuzzer target of tests/fuzz for a number of seconds:
#   tools/fuzz.sh fuzz_parser 60        (CI runs each target briefly; by hand, for hours)
# Builds build-fuzz with clang (TESSEL_FUZZ=ON: ASan + UBSan + fuzzer instrumentation). Targets
# that read their input as Tessel text get the golden scripts as seeds and
# tests/fuzz/tessel.dict; fuzz_load (file readers) gets a file of each format from
# tests/fuzz/load_seeds; the generator targets (fuzz_shapes, fuzz_compile_diff decode their
# bytes into choices, not text) start from an empty corpus. A crash, a mismatch (the target
# aborts), a hang past FUZZ_TIMEOUT seconds per input (default 30), a memory blow-up or a leak
# (LeakSanitizer) leaves its input in build-fuzz/artifacts/TARGET/ and exits non-zero.
# FUZZ_SEED fixes libFuzzer's seed (CI sets it, so a submission is not failed by a new random
# find; by hand it is random).
# FUZZ_BUILD names a build folder already configured with -DTESSEL_FUZZ=ON (CI's build-asan,
# which also holds the sanitized test suite); it is used as it is configured.
# Needs clang and libfuzzer-14-dev.
set -euo pipefail
target=${1:?usage: tools/fuzz.sh TARGET SECONDS}
seconds=${2:-60}
cd "$(dirname "$0")/.."
build=${FUZZ_BUILD:-build-fuzz}
if [ -z "${FUZZ_BUILD:-}" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DTESSEL_FUZZ=ON -DTESSEL_BUILD_TESTS=OFF -DTESSEL_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" --target "$target" -j "$(nproc)"
corpus=$build/corpus/$target
artifacts=$build/artifacts/$target
mkdir -p "$corpus" "$artifacts"
case "$target" in
  fuzz_shapes | fuzz_compile_diff)
    # Generator targets: golden scripts mean nothing to them, and a longer input is a larger
    # program or more checks from the start (no slow growth of the length limit).
    # Z3 allocates a lot: ASan's quarantine of freed memory is kept small, or the process
    # grows past 1 GB in minutes.
    options=(-max_len=512 -len_control=0)
    asan=quarantine_size_mb=64: ;;
  fuzz_load)
    # File bytes behind a format byte (tests/fuzz/fuzz_load.cpp); seeds of every format.
    cp tests/fuzz/load_seeds/* "$corpus"/
    options=(-max_len=8192)
    asan= ;;
  *)
    find tests/scripts examples -name '*.dsl' -exec cp {} "$corpus"/ \; 2>/dev/null || true
    options=(-dict=tests/fuzz/tessel.dict -max_len=4096)
    asan= ;;
esac
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
# Leaks are checked: libFuzzer runs LeakSanitizer after an input that freed less than
# it allocated, and a leak fails the run like a crash (a leak-* artifact).
ASAN_OPTIONS=${asan}detect_leaks=1:allocator_may_return_null=1 \
  LSAN_OPTIONS=suppressions="$PWD/tools/lsan.supp":print_suppressions=0 \
  "$build/tests/fuzz/$target" -max_total_time="$seconds" "${options[@]}" \
  -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb=4096 -artifact_prefix="$artifacts/" \
  -print_final_stats=1 -seed="${FUZZ_SEED:-0}" "$corpus" 2>&1 |
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ERROR|SUMMARY|Done)|^fuzz_" || true
# A crash makes libFuzzer exit non-zero, which pipefail would hide behind grep: check for the
# artifacts this run wrote (older ones, already reported, do not count).
found=$(find "$artifacts" -newer "$stamp" -type f \( -name 'crash-*' -o -name 'leak-*' -o \
  -name 'timeout-*' -o -name 'oom-*' \) | sort)
if [ -n "$found" ]; then
  echo "fuzz: $target found a failing input:" $found >&2
  exit 1
fi
