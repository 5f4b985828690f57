#!/usr/bin/env python3
"""PyTorch 1.13 eager baseline of bench/losses.dsl (same sizes, forward + backward, ms per call).

Run: /usr/bin/python3 bench/torch_losses_baseline.py [threads]
"""
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else torch.get_num_threads())
torch.manual_seed(0)
logits = torch.randn(4096, 1024)
labels = torch.randint(0, 1024, (4096,))
masked = torch.where(torch.rand(4096) < 0.2, torch.tensor(-100), labels)
a, b = torch.randn(1048576), torch.randn(1048576)
p = torch.sigmoid(torch.randn(1048576))
x2 = torch.randn(1024, 1024)


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


timeit("cross_entropy_4096x1024", lambda z: F.cross_entropy(z, masked), logits)
timeit("cross_entropy_smooth_4096x1024", lambda z: F.cross_entropy(z, masked, label_smoothing=0.1), logits)
timeit("nll_loss_4096x1024", lambda z: F.nll_loss(z, masked), logits)
timeit("mse_loss_1M", lambda z: F.mse_loss(z, b), a)
timeit("l1_loss_1M", lambda z: F.l1_loss(z, b), a)
timeit("smooth_l1_loss_1M", lambda z: F.smooth_l1_loss(z, b), a)
timeit("huber_loss_1M", lambda z: F.huber_loss(z, b), a)
timeit("binary_cross_entropy_1M", lambda z: F.binary_cross_entropy(z, p), p)
timeit("bce_with_logits_1M", lambda z: F.binary_cross_entropy_with_logits(z, p), a)
timeit("logsumexp_1024x1024", lambda z: torch.logsumexp(z, 1).sum(), x2)
timeit("var_1024x1024", lambda z: torch.var(z, 1).sum(), x2)
timeit("norm_1024x1024", lambda z: torch.linalg.vector_norm(z, 2, 1).sum(), x2)
