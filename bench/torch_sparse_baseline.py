#!/usr/bin/env python3
"""PyTorch 1.13 on bench/bench_sparse.cpp's workloads, 1 thread, CPU time (the harness of
bench/torch_bench_util.py), so the two can be compared in docs/perf.md. Run with
/usr/bin/python3 (Debian's python3-torch)."""
import torch

from torch_bench_util import bench

N16 = 1 << 24
x = torch.rand(N16)
bench("cumsum 16M", lambda: torch.cumsum(x, 0), 8 * N16)
m = torch.rand(4096, 4096)
bench("cumsum [4096,4096] dim0", lambda: torch.cumsum(m, 0), 8 * N16)

R, T, C = 1 << 20, 100000, 64
xt = torch.rand(T, C)
src = torch.rand(R, C)
rows = torch.randint(0, T, (R,))
bench("index_add 1M x 64", lambda: torch.index_add(xt, 0, rows, src))
idx = rows.unsqueeze(1).expand(R, C).contiguous()
bench("scatter_add 1M x 64", lambda: torch.scatter_add(xt, 0, idx, src))

# The jagged batch of bench_sparse.cpp: 16K sequences of lengths (37 i + 11) mod 64, 64 floats.
lengths = (torch.arange(16384) * 37 + 11) % 64
T = int(lengths.sum())
values = torch.rand(T, C)
pooled = torch.rand(16384, C)
seg_bytes = 4 * T * C + 4 * 16384 * C
bench("segment_reduce sum", lambda: torch.segment_reduce(values, "sum", lengths=lengths), seg_bytes)
bench("segment_reduce max", lambda: torch.segment_reduce(values, "max", lengths=lengths), seg_bytes)
bench("repeat_interleave", lambda: torch.repeat_interleave(pooled, lengths, dim=0, output_size=T),
      seg_bytes)
ids = torch.randint(0, 1000, (N16,))
bench("bincount 16M", lambda: torch.bincount(ids), 8 * N16)

# The sampling ops of bench_sparse.cpp.
bench("randperm 1M", lambda: torch.randperm(1 << 20))
p64 = torch.rand(64, 1000)
bench("multinomial 64x1000 n100", lambda: torch.multinomial(p64, 100))
bench("multinomial 64x1000 r1000", lambda: torch.multinomial(p64, 1000, replacement=True))
p1m = torch.rand(1 << 20)
bench("multinomial 1M n1", lambda: torch.multinomial(p1m, 1))
bench("bernoulli 1M", lambda: torch.bernoulli(p1m))
