#!/usr/bin/env bash
# One command from a fresh Debian machine to a built Tessel:
#   tools/setup.sh demo   installs what is missing, builds, runs examples/demo.dsl
#   tools/setup.sh test   installs what is missing, builds, runs the whole test suite
# Idempotent and quiet when everything is already there.
set -euo pipefail
mode=${1:-demo}
cd "$(dirname "$0")/.."

# Debian packages, and why each is here (README.md says the same).
packages=(
  cmake ninja-build ccache g++ pkg-config   # build (pkg-config: the embed test's second build)
  antlr4 default-jre-headless libantlr4-runtime-dev   # the grammar (tool runs on the JDK)
  libz3-dev                                 # the shape solver
  libdnnl-dev libopenblas-dev               # f32 matmul on cpu: oneDNN (OpenBLAS: TESSEL_SGEMM=openblas)
  libgtest-dev libgmock-dev libbenchmark-dev   # tests and benchmarks
  libedit-dev                               # REPL line editing
  libvulkan-dev glslc libshaderc-dev mesa-vulkan-drivers vulkan-validationlayers   # vulkan
  python3                                   # the build: tools/opgen.py generates the defined ops
  python3-numpy lua5.4                      # baselines for the benchmarks
  python3-torch python3-torchvision         # oracles of tests/torch (PyTorch parity) and bench_sparse
  clang libfuzzer-14-dev                    # the libFuzzer targets of tests/fuzz
  nlohmann-json3-dev                        # PGO profiles, the compile trace, tessel report
  libdlpack-dev                             # DLPack tensors in the embedding API (tessel.h)
  chromium                                  # renders tessel report's page in its tests
  openmpi-bin libopenmpi-dev                # dist: collectives across ranks (mpirun), its tests
  libzip-dev zlib1g-dev                     # load/save: .npz archives (libzip), .gz text (zlib)
  python3-sklearn                           # the digits CSV that examples/digits.dsl trains on
  wamerican                                 # /usr/share/dict/words: the text bench/transformer trains on
  xeus-dev                                  # tessel-kernel: the Jupyter protocol and its transport
  python3-jupyter-client python3-nbconvert  # the client and the notebook run of the kernel's tests
  librsvg2-dev                              # plot.save(fig, "x.png"): SVG drawn to PNG (with cairo)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$jobs"

export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
export LP_NUM_THREADS=${LP_NUM_THREADS:-0}
# ctest -j runs several tests per core; OpenMP's workers (oneDNN's) would spin-wait for the
# core another test holds (a transformer step 10x slower): they sleep instead (docs/perf.md).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
case "$mode" in
  demo) ./build/repl/tessel examples/demo.dsl ;;
  test)
    (cd build && ctest --output-on-failure -j "$jobs" --timeout 600)
    # Every suite but the vulkan, dist and torch labels again under ASan + UBSan
    # (docs/reliability.md): any report aborts its test, a leak at exit included (LeakSanitizer;
    # tools/lsan.supp names the third-party libraries whose leaks are not ours).
    # dist runs ranks under mpirun with deadlines; Open MPI is not instrumented. torch drives
    # the tessel command from PyTorch's Python (the golden scripts cover those ops here).
    # One clang build serves the sanitized suite and the libFuzzer targets (TESSEL_FUZZ:
    # ASan + UBSan + fuzzer coverage), so CI compiles the project twice, not three times.
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER=clang++ -DTESSEL_FUZZ=ON -DTESSEL_BUILD_BENCH=OFF >/dev/null
    cmake --build build-asan -j "$jobs"
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
      LSAN_OPTIONS=suppressions="$PWD/../tools/lsan.supp":print_suppressions=0 \
      UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j "$jobs" --timeout 900 \
      -LE 'vulkan|dist|torch')
    # Each libFuzzer target briefly (by hand: tools/fuzz.sh TARGET SECONDS, for hours).
    for target in tests/fuzz/fuzz_*.cpp; do
      FUZZ_SEED=1 FUZZ_BUILD=build-asan tools/fuzz.sh "$(basename "$target" .cpp)" 60
    done
    ;;
  *) echo "usage: tools/setup.sh [demo|test]" >&2; exit 2 ;;
esac
