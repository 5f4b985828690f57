# PyTorch eager baseline of bench/models/detect/train.dsl: the same boxes and scores, threshold,
# topk and torchvision.ops.nms (Debian's python3-torchvision). Usage: train.py [threads] [steps]
import os
import sys
import time

import torch

try:
    from torchvision.ops import nms
except ImportError:
    print("torchvision is not installed (Debian python3-torchvision): no baseline")
    sys.exit(0)

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
steps = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("STEPS", "220"))
torch.set_num_threads(threads)

N = 10000
i = torch.arange(N)
cx = ((i * 7919) % 1009).float() / 1009.0 * 800.0
cy = ((i * 104729) % 997).float() / 997.0 * 600.0
w = 20.0 + ((i * 31) % 61).float()
h = 20.0 + ((i * 17) % 53).float()
boxes = torch.stack([cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0], dim=1)
scores = ((i * 7001) % 10007).float() / 10007.0


def postprocess(boxes, scores):
    keep = torch.nonzero(scores > 0.05).squeeze(1)
    top, order = torch.topk(scores[keep], min(1000, keep.shape[0]))
    idx = keep[order]
    kept = nms(boxes[idx], top, 0.5)
    return idx[kept[:100]]


t0 = time.perf_counter()
for s in range(steps):
    if s == 20:
        t0 = time.perf_counter()
    out = postprocess(boxes, scores)
ms = (time.perf_counter() - t0) * 1000 / (steps - 20)
print("torch step_ms", round(ms, 4), "kept", out.shape[0], "first", out[:3].tolist())
