#!/usr/bin/env python3
"""NumPy figures for the same workloads as bench_tensor.cpp (docs/perf.md, "tensor (cpu)").

Run with the system Python that has NumPy on OpenBLAS:  /usr/bin/python3 bench/numpy_baseline.py
Each figure is the median of several timed runs; sizes match bench_tensor.cpp. As in
bench_tensor, single-threaded ops are timed in process CPU time (robust against other load on a
shared machine) and matmul, which runs on every core through OpenBLAS, in wall-clock time.
"""
import statistics
import time

import numpy as np

LARGE = 1 << 24  # 16M floats, 64 MiB per array


def median_seconds(fn, min_time=0.5, repeats=7, clock=time.process_time):
    """Median time of one call, from `repeats` batches that each run at least min_time/repeats."""
    fn()  # warm up (page faults, BLAS threads)
    n = 1
    while True:
        t0 = clock()
        for _ in range(n):
            fn()
        dt = clock() - t0
        if dt >= min_time / repeats:
            break
        n *= 2
    samples = []
    for _ in range(repeats):
        t0 = clock()
        for _ in range(n):
            fn()
        samples.append((clock() - t0) / n)
    return statistics.median(samples)


def report(name, seconds, value, unit):
    print(f"{name:<22} {seconds * 1e3:10.4f} ms  {value:10.2f} {unit}")


def main():
    rng = np.random.default_rng(0)
    x = rng.random(LARGE, dtype=np.float32)
    y = rng.random(LARGE, dtype=np.float32)
    print(f"numpy {np.__version__}")
    for name, fn in (("add", lambda: np.add(x, y)), ("mul", lambda: np.multiply(x, y))):
        t = median_seconds(fn)
        report(name, t, 3 * 4 * LARGE / t / 1e9, "GB/s")
    t = median_seconds(lambda: np.exp(x))
    report("exp", t, 2 * 4 * LARGE / t / 1e9, "GB/s")
    t = median_seconds(lambda: x.sum())
    report("sum", t, 4 * LARGE / t / 1e9, "GB/s")
    m = x.reshape(4096, 4096)
    t = median_seconds(lambda: m.sum(axis=0))
    report("sum dim0", t, 4 * LARGE / t / 1e9, "GB/s")
    for n in (512, 1024):
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        t = median_seconds(lambda: a @ b, min_time=1.0, clock=time.perf_counter)
        report(f"matmul {n}", t, 2 * n**3 / t / 1e9, "GFLOP/s")
        # CPU time of the process: equal to wall time with OPENBLAS_NUM_THREADS=1, and then the
        # figure to compare on a machine shared with other work.
        t = median_seconds(lambda: a @ b, min_time=1.0)
        report(f"matmul {n} (cpu time)", t, 2 * n**3 / t / 1e9, "GFLOP/s")
    s = rng.random(4, dtype=np.float32)
    r = rng.random(4, dtype=np.float32)
    t = median_seconds(lambda: s + r)
    report("add 4 elements", t, t * 1e9, "ns/op")


if __name__ == "__main__":
    main()
