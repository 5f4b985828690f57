#!/usr/bin/env python3
"""conv2d against PyTorch 1.13 eager in one run (docs/perf.md, "conv2d"): bench_conv and
bench/torch_conv_baseline.py on 1 and 2 threads (OMP_NUM_THREADS for oneDNN, which Tessel's
conv kernels run on; torch.set_num_threads for PyTorch), interleaved, and the ratio
torch / tessel (above 1: Tessel is faster).
Usage: /usr/bin/python3 bench/conv_compare.py [build/bench/bench_conv]"""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "build", "bench", "bench_conv")


def tessel(threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run([binary, "--benchmark_min_time=0.5", "--benchmark_repetitions=5"],
                         env=env, capture_output=True, text=True, check=True).stdout
    times = {}  # the best of the 5 repetitions, as the torch baseline takes its best of 5
    for line in out.splitlines():
        m = re.match(r"(BM_\w+)/real_time\s+([\d.]+) ms", line)
        if m:
            times[m.group(1)] = min(times.get(m.group(1), float("inf")), float(m.group(2)))
    return times


def torch(threads):
    out = subprocess.run(["/usr/bin/python3", os.path.join(here, "torch_conv_baseline.py"),
                          str(threads)], capture_output=True, text=True, check=True).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines())}


print(f"{'threads':8s} {'benchmark':24s} {'tessel ms':>10s} {'torch ms':>10s} {'torch/tessel':>13s}")
for threads in (1, 2):
    t, p = tessel(threads), torch(threads)
    for name in t:
        print(f"{threads:<8d} {name:24s} {t[name]:10.2f} {p[name]:10.2f} {p[name] / t[name]:13.2f}")
