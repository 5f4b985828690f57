#!/usr/bin/env python3
"""PyTorch 1.13 eager baseline of bench/defined_ops.dsl (same sizes and ops, ms per call).

Run: /usr/bin/python3 bench/torch_defined_ops_baseline.py [threads]
"""
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else torch.get_num_threads())
torch.manual_seed(0)
x = torch.randn(2048, 2048)
xt = x.t()
u = torch.rand(2048, 2048) * 1.8 - 0.9


def timeit(name, f):
    f()
    t0 = time.perf_counter()
    for _ in range(10):
        f()
    print(name, round((time.perf_counter() - t0) * 100, 3))


timeit("erf", lambda: torch.erf(x))
timeit("gelu", lambda: F.gelu(x))
timeit("silu", lambda: F.silu(x))
timeit("softplus", lambda: F.softplus(x))
timeit("expm1", lambda: torch.expm1(x))
timeit("log1p", lambda: torch.log1p(u))
timeit("tan", lambda: torch.tan(u))
timeit("atanh", lambda: torch.atanh(u))
timeit("floor", lambda: torch.floor(x))
timeit("isnan", lambda: torch.isnan(x))
timeit("neg", lambda: torch.neg(x))
timeit("exp", lambda: torch.exp(x))
timeit("log", lambda: torch.log(u + 1.0))
timeit("abs", lambda: torch.abs(x))
timeit("tanh", lambda: torch.tanh(x))
timeit("sigmoid", lambda: torch.sigmoid(x))
timeit("relu", lambda: torch.relu(x))
timeit("logical_not", lambda: torch.logical_not(x))
timeit("erf_strided", lambda: torch.erf(xt))
timeit("silu_strided", lambda: F.silu(xt))
