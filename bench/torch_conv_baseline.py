#!/usr/bin/env python3
"""PyTorch 1.13 eager on bench/bench_conv.cpp's workloads: conv2d forward, and backward (the
input, weight and bias gradients of one step, through torch.ops.aten.convolution_backward as
autograd calls it), on [32, 64, 56, 56] 3x3 padding 1 (64 -> 64) and on [n, 3, 28, 28] -> 16
channels with n changing at every call. Wall time, best of 5 runs of a loop of at least 0.5 s.
Usage: torch_conv_baseline.py THREADS. Run with /usr/bin/python3 (Debian's python3-torch)."""
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)


def bench(name, fn):
    fn()
    runs = []
    for _ in range(5):
        n, t0 = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            el = time.perf_counter() - t0
            if el >= 0.5:
                break
        runs.append(el / n)
    print(f"{name} {min(runs) * 1e3:.3f}")


def backward(gy, x, w):
    # The op autograd runs for conv2d's backward: grad_input, grad_weight, grad_bias.
    torch.ops.aten.convolution_backward(gy, x, w, [w.shape[0]], [1, 1], [1, 1], [1, 1], False,
                                        [0, 0], 1, [True, True, True])


x, w, b = torch.rand(32, 64, 56, 56), torch.rand(64, 64, 3, 3), torch.rand(64)
gy = torch.rand(32, 64, 56, 56)
with torch.no_grad():
    bench("BM_Conv2dForward", lambda: F.conv2d(x, w, b, padding=1))
    bench("BM_Conv2dBackward", lambda: backward(gy, x, w))
    batches = [16, 7, 32, 1, 24, 13, 64, 40]
    xs = [torch.rand(n, 3, 28, 28) for n in batches]
    gys = [torch.rand(n, 16, 28, 28) for n in batches]
    ws, bs = torch.rand(16, 3, 3, 3), torch.rand(16)
    bench("BM_Conv2dSmallForward", lambda: [F.conv2d(xi, ws, bs, padding=1) for xi in xs])
    bench("BM_Conv2dSmallBackward", lambda: [backward(g, xi, ws) for g, xi in zip(gys, xs)])
