#!/usr/bin/env python3
"""PyTorch 1.13 on bench/bench_attention.cpp's workloads: the unfused
softmax(q @ k.transpose(-2, -1) * scale) @ v (1.13 has no fused cpu attention), T = S = 512,
D = 64, 8 heads, batch 1 and 4, forward and forward + backward, wall time (median of 5 runs of
a loop of at least 0.3 s; wall and CPU time); threads from OMP_NUM_THREADS. `--peak-memory` prints the resident-set
growth of one call for growing T, each in a fresh process, as bench_attention does. Run with
/usr/bin/python3 (Debian's python3-torch)."""
import os
import resource
import subprocess
import sys
import time

import torch

torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
H, T, D = 8, 512, 64


def attention(q, k, v):
    return torch.softmax(q @ k.transpose(-2, -1) * (1.0 / D ** 0.5), -1) @ v


def forward_backward(q, k, v, w):
    (attention(q, k, v) * w).sum().backward()


def bench(name, fn, flops):
    """Median of 5 loops of >= 0.3 s: wall time, and process CPU time (the fairer figure for 1
    thread on a loaded machine; bench_attention's CPU column is the same)."""
    fn()
    runs = []
    for _ in range(5):
        n, t0, c0 = 0, time.perf_counter(), time.process_time()
        while True:
            fn()
            n += 1
            el = time.perf_counter() - t0
            if el >= 0.3:
                break
        runs.append((el / n, (time.process_time() - c0) / n))
    runs.sort()
    wall, cpu = runs[2]
    print(f"{name:36s} {wall * 1e3:9.3f} ms wall {cpu * 1e3:9.3f} ms cpu "
          f"{flops / wall / 1e9:7.1f} GFLOP/s")


def peak_one(t):
    small = torch.rand(1, 1, 8, D, requires_grad=True)
    forward_backward(small, small, small, torch.rand(1, 1, 8, D))
    q, k, v = (torch.rand(1, H, t, D, requires_grad=True) for _ in range(3))
    w = torch.rand(1, H, t, D)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with torch.no_grad():
        out = attention(q, k, v)
    fwd = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    del out
    forward_backward(q, k, v, w)
    both = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"{t:6d} {H * t * D * 4 / 2**20:12.1f} {(fwd - before) / 1024:14.1f} "
          f"{(both - before) / 1024:16.1f} {H * t * t * 4 / 2**20:14.1f}", flush=True)


if len(sys.argv) >= 3 and sys.argv[1] == "--peak-one":
    peak_one(int(sys.argv[2]))
elif len(sys.argv) >= 2 and sys.argv[1] == "--peak-memory":
    print("# 8 heads, D = 64, batch 1; MiB. resident-set growth of one call, fresh process")
    print(f"{'T':>6s} {'one [T,D]x8':>12s} {'forward':>14s} {'fwd+backward':>16s} "
          f"{'[T,T]x8 would':>14s}", flush=True)
    for t in (256, 512, 1024, 2048, 4096, 8192):
        subprocess.run([sys.executable, __file__, "--peak-one", str(t)], check=True)
else:
    for B in (1, 4):
        q, k, v, w = (torch.rand(B, H, T, D) for _ in range(4))
        bench(f"attention forward B={B}", lambda: attention(q, k, v), 4.0 * B * H * T * T * D)
        qg, kg, vg = (x.clone().requires_grad_() for x in (q, k, v))
        bench(f"attention forward+backward B={B}", lambda: forward_backward(qg, kg, vg, w),
              12.0 * B * H * T * T * D)
