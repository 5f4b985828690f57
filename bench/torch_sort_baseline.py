#!/usr/bin/env python3
"""PyTorch 1.13 and torchvision on bench/bench_sort.cpp's workloads, 1 thread, CPU time (the
harness of bench/torch_bench_util.py), so the two can be compared in docs/perf.md. Run with
/usr/bin/python3 (Debian's python3-torch and python3-torchvision)."""
import torch
import torchvision

from torch_bench_util import bench

x = torch.rand(1 << 20)
bench("sort 1M", lambda: torch.sort(x))
bench("topk 100 of 1M", lambda: torch.topk(x, 100))

n = 5000
i = torch.arange(n, dtype=torch.int64)
bx = (i * 7919 % 1000).float()
by = (i * 104729 % 1000).float()
boxes = torch.stack([bx, by, bx + (20 + i * 31 % 80).float(), by + (20 + i * 17 % 80).float()], 1)
scores = (i * 2654435761 % 10007).float() / 10007.0
print("nms kept", torchvision.ops.nms(boxes, scores, 0.5).numel())
bench("nms 5000 boxes", lambda: torchvision.ops.nms(boxes, scores, 0.5))
