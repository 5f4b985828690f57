#!/bin/sh
# Fused attention against PyTorch 1.13's unfused formula, in one run (docs/perf.md, "fused
# attention"): both on 1 and on 2 threads, then the peak-memory growth for growing T.
# Usage: bench/run_attention.sh [BUILD_DIR]
set -e
build=${1:-build}
here=$(dirname "$0")
for t in 1 2; do
  echo "== $t thread(s)"
  OMP_NUM_THREADS=$t "$build/bench/bench_attention" --benchmark_repetitions=5 \
      --benchmark_report_aggregates_only=true --benchmark_min_time=0.3
  OMP_NUM_THREADS=$t /usr/bin/python3 "$here/torch_attention_baseline.py"
done
echo "== peak memory, Tessel"
OMP_NUM_THREADS=1 "$build/bench/bench_attention" --peak-memory
echo "== peak memory, PyTorch 1.13 (unfused)"
OMP_NUM_THREADS=1 /usr/bin/python3 "$here/torch_attention_baseline.py" --peak-memory
