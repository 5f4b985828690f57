#!/usr/bin/env python3
"""PyTorch 1.13 eager baseline of bench/norm.dsl (same sizes, forward + backward, ms per call).

rms_norm is written out (PyTorch 1.13 has no F.rms_norm): the form a 1.13 model uses.
Run: /usr/bin/python3 bench/torch_norm_baseline.py [threads]
"""
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else torch.get_num_threads())
torch.manual_seed(0)
img = torch.randn(32, 64, 28, 28)
cw, cb = torch.randn(64), torch.randn(64)
tok, hw = torch.randn(64, 128, 512), torch.randn(512)
q, k = torch.randn(8, 8, 256, 64), torch.randn(8, 8, 256, 64)
a, b, c = torch.randn(64, 1024), torch.randn(1024, 1024), torch.randn(1024, 16)


def timeit(name, f, x):
    def step():
        z = x.clone().requires_grad_(True)
        f(z).backward()
        return z.grad
    step()
    t0 = time.perf_counter()
    for _ in range(10):
        step()
    print(name, round((time.perf_counter() - t0) / 10 * 1000, 3))


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + torch.finfo(x.dtype).eps) * w


timeit("group_norm_32x64x28x28_g8", lambda z: (F.group_norm(z, 8, cw, cb) * z).sum(), img)
timeit("batch_norm_train_32x64x28x28", lambda z: (F.batch_norm(z, None, None, cw, cb, True) * z).sum(), img)
timeit("batch_norm_eval_32x64x28x28",
       lambda z: (F.batch_norm(z, cb, cw.abs() + 0.5, cw, cb, False) * z).sum(), img)
timeit("rms_norm_64x128x512", lambda z: (rms_norm(z, hw) * z).sum(), tok)
timeit("einsum_bhqd_bhkd_8x8x256x64", lambda z: torch.einsum("bhqd,bhkd->bhqk", z, k).sum(), q)
timeit("einsum_chain_ab_bc_cd", lambda z: torch.einsum("ab,bc,cd->ad", a, z, c).sum(), b)
