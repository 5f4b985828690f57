#!/usr/bin/env python3
"""PyTorch 1.13 on bench/bench_pool.cpp's workloads: max_pool2d and avg_pool2d on
[32, 64, 56, 56], forward and forward + backward, on 1 thread, CPU time
(median of 5 runs of a loop of at least 0.3 s), for docs/perf.md. Run with /usr/bin/python3
(Debian's python3-torch)."""
import torch
import torch.nn.functional as F

import torch_bench_util as bench_util  # the shared harness (1 thread, CPU time)


def bench(name, fn):
    bench_util.bench(name, fn, width=44)


torch.manual_seed(0)
x = torch.rand(32, 64, 56, 56)
xg = x.clone().requires_grad_()
for threads in (1,):
    torch.set_num_threads(threads)
    for k, s, p in ((3, 2, 1), (2, 2, 0), (3, 1, 1)):
        for name, fn in (("max_pool2d", F.max_pool2d), ("avg_pool2d", F.avg_pool2d)):
            tag = f"{name} k{k} s{s} p{p} {threads}t"
            bench(tag, lambda: fn(x, k, s, p))
            g = torch.ones_like(fn(x, k, s, p))
            bench(tag + " fwd+bwd", lambda: torch.autograd.grad(fn(xg, k, s, p), xg, g))
