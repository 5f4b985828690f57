#!/bin/bash
# Every benchmark that docs/perf.md quotes, in one run, each with the command its section gives:
#   bench/run_all.sh [build-dir] [out-dir]
# Writes one log per benchmark to out-dir (default /tmp/tessel-bench-<date>) and prints each as
# it goes. Needs an idle machine for wall-clock figures (stop other work first); the callgrind
# figures (call overhead) do not depend on load. Skips what the build or the machine lacks
# (Vulkan, MPI, torch, Lua), saying so.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
out="${2:-/tmp/tessel-bench-$(date +%Y%m%d-%H%M)}"
mkdir -p "$out"
cd "$root"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
agg=(--benchmark_repetitions=3 --benchmark_report_aggregates_only=true)

run() {  # run NAME COMMAND...: the command's output to NAME.log and the terminal
  echo "== $1: ${*:2}"
  "${@:2}" 2>&1 | tee "$out/$1.log"
}
have() { [ -x "$build/bench/$1" ] || { echo "== $1: not built, skipped"; return 1; }; }

# shapes, tensor kernels and sgemm (single-threaded, against NumPy on OpenBLAS)
have bench_shapes && run shapes "$build/bench/bench_shapes" "${agg[@]}"
have bench_tensor && run tensor env OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
  "$build/bench/bench_tensor" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.3
run numpy env OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/numpy_baseline.py
have bench_sgemm && run sgemm env OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$build/bench/bench_sgemm"

# compile, graphs, eager dispatch, call overhead
have bench_compile && run compile "$build/bench/bench_compile" --benchmark_min_time=0.3
have bench_graph && run graph "$build/bench/bench_graph" "${agg[@]}" --benchmark_min_time=0.3
run dispatch bench/run_dispatch.sh
if command -v valgrind >/dev/null; then
  run call_overhead bench/call_overhead.sh "$build/repl/tessel"
else
  echo "== call_overhead: valgrind is not installed, skipped"
fi

# peers: the MLP against PyTorch, the interpreter against Lua and CPython
run mlp bench/mlp/run.sh "$build/repl/tessel" 3
run interp bench/run_interp_baselines.sh "$build/repl/tessel" 3
have bench_interp && run interp_inprocess "$build/bench/bench_interp" "${agg[@]}"

# vulkan (lavapipe unless a GPU is there)
if have bench_vulkan; then
  run vulkan "$build/bench/bench_vulkan" "${agg[@]}"
  run vulkan_graph "$build/bench/bench_vulkan_graph" \
    --benchmark_filter='Axpy|Eager|Chain20Fused/4194304' "${agg[@]}"
  run vulkan_workload env TESSEL_CACHE_DIR="$out/tc" "$build/repl/tessel" \
    bench/vulkan_ops_workload.dsl
fi

# tpu
run tpu_mlp_bounded "$build/repl/tessel" bench/tpu_mlp.dsl
run tpu_mlp_unbounded env TESSEL_MLP_BOUNDED=0 "$build/repl/tessel" bench/tpu_mlp.dsl
run tpu_mlp_cpu env TESSEL_MLP_DEVICE=cpu "$build/repl/tessel" bench/tpu_mlp.dsl
have bench_tpu && run tpu "$build/bench/bench_tpu" --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true

# dist (MPI)
if have bench_dist && command -v mpirun >/dev/null; then
  run dist mpirun --allow-run-as-root --oversubscribe -n 2 "$build/bench/bench_dist" 9
  run dist_step_1 env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$build/repl/tessel" \
    bench/data_parallel_step.dsl
  run dist_step_2 mpirun --allow-run-as-root --oversubscribe -n 2 -x OMP_NUM_THREADS=1 \
    -x OPENBLAS_NUM_THREADS=1 "$build/repl/tessel" bench/data_parallel_step.dsl
fi

# the Jupyter kernel, through jupyter_client
if [ -x "$build/kernel/tessel-kernel" ] && /usr/bin/python3 -c "import jupyter_client" 2>/dev/null; then
  run kernel /usr/bin/python3 bench/kernel_latency.py "$build/kernel/tessel-kernel"
else
  echo "== kernel: tessel-kernel or jupyter_client missing, skipped"
fi
echo "logs in $out"
