#!/usr/bin/env bash
# Runs a libFuzzer target of tests/fuzz for a number of seconds (issue 15):
#   tools/fuzz.sh fuzz_parser 60        (CI runs each target briefly; by hand, for hours)
# Builds build-fuzz with clang (TESSEL_FUZZ=ON: ASan + UBSan + fuzzer instrumentation), seeds
# the corpus with the golden scripts and uses tests/fuzz/tessel.dict. A crash leaves its input
# in build-fuzz/artifacts/ and exits non-zero. FUZZ_SEED fixes libFuzzer's seed (CI sets it,
# so a submission is not failed by a new random find; by hand it is random). Needs clang and
# libfuzzer-14-dev.
set -euo pipefail
target=${1:?usage: tools/fuzz.sh TARGET SECONDS}
seconds=${2:-60}
cd "$(dirname "$0")/.."
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DTESSEL_FUZZ=ON -DTESSEL_BUILD_TESTS=OFF -DTESSEL_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz --target "$target" -j "$(nproc)"
corpus=build-fuzz/corpus/$target
mkdir -p "$corpus" build-fuzz/artifacts
find tests/scripts examples -name '*.dsl' -exec cp {} "$corpus"/ \; 2>/dev/null || true
ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
  "build-fuzz/tests/fuzz/$target" -max_total_time="$seconds" -dict=tests/fuzz/tessel.dict \
  -max_len=4096 -artifact_prefix=build-fuzz/artifacts/ -print_final_stats=1 \
  -seed="${FUZZ_SEED:-0}" "$corpus" 2>&1 |
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ERROR|SUMMARY|Done)" || true
# A crash makes libFuzzer exit non-zero, which pipefail would hide behind grep: check artifacts.
if compgen -G "build-fuzz/artifacts/crash-*" >/dev/null || compgen -G "build-fuzz/artifacts/leak-*" >/dev/null ||
   compgen -G "build-fuzz/artifacts/timeout-*" >/dev/null; then
  echo "fuzz: $target found a failing input:" build-fuzz/artifacts/* >&2
  exit 1
fi
