# PyTorch eager baseline of bench/models/gcn/train.dsl: the same graph (same integer formulas),
# features, two-layer GCN with index_add_ message passing, and Adam step, on Debian's
# python3-torch. Usage: train.py [threads] [epochs]
import os
import sys
import time

import torch
import torch.nn.functional as F

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
epochs = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("EPOCHS", "23"))
torch.set_num_threads(threads)
torch.manual_seed(0)

N = int(os.environ.get("GCN_NODES", "100000"))
E = int(os.environ.get("GCN_EDGES", "1000000"))
FEAT, HIDDEN, C = 32, 64, 8
block = N // C

i = torch.arange(E)
src0 = i % N
same = (i * 7) % 10 < 8
dst0 = torch.where(same, torch.div(src0, block, rounding_mode="floor") * block
                   + (i * 37 + torch.div(i, N, rounding_mode="floor") * 101) % block,
                   (i * 613 + 17) % N)
labels = torch.clamp(torch.div(torch.arange(N), block, rounding_mode="floor"), 0, C - 1)
x = torch.sin(torch.arange(N * FEAT, dtype=torch.float32).reshape(N, FEAT) * 0.37) * 0.5 \
    + F.pad(F.one_hot(labels, C).float(), (0, FEAT - C))

loops = torch.arange(N)
src = torch.cat([src0, dst0, loops])
dst = torch.cat([dst0, src0, loops])
deg = torch.bincount(dst, minlength=N).float()
norm = torch.rsqrt(deg[src] * deg[dst])


def propagate(h):
    out = torch.zeros(h.shape[0], h.shape[1])
    return out.index_add_(0, dst, h.index_select(0, src) * norm[:, None])


l1 = torch.nn.Linear(FEAT, HIDDEN)
l2 = torch.nn.Linear(HIDDEN, C)
params = list(l1.parameters()) + list(l2.parameters())
opt = torch.optim.Adam(params, lr=0.01)

t0 = time.perf_counter()
for epoch in range(epochs):
    if epoch == 3:
        t0 = time.perf_counter()
    opt.zero_grad()
    out = propagate(l2(torch.relu(propagate(l1(x)))))
    loss = F.cross_entropy(out, labels)
    loss.backward()
    opt.step()
ms = (time.perf_counter() - t0) * 1000 / (epochs - 3)
print("torch step_ms", round(ms, 3), "loss", round(loss.item(), 6))
