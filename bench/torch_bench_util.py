"""The timing harness of the PyTorch baselines (bench/torch_*_baseline.py): 1 thread, CPU time,
the median of 5 runs of a loop of at least 0.3 s, printed as one line per workload so it can be
set beside the C++ benchmarks in docs/perf.md."""
import time

import torch

torch.set_num_threads(1)


def bench(name, fn, nbytes=None, width=24):
    """Times fn() and prints its median per call (and GB/s when nbytes is given)."""
    fn()
    runs = []
    for _ in range(5):
        n, t0 = 0, time.process_time()
        while True:
            fn()
            n += 1
            el = time.process_time() - t0
            if el >= 0.3:
                break
        runs.append(el / n)
    runs.sort()
    extra = f"  {nbytes / runs[2] / 1e9:.1f} GB/s" if nbytes else ""
    print(f"{name:{width}s} {runs[2] * 1e3:9.3f} ms{extra}")
