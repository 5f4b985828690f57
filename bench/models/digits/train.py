# PyTorch eager baseline of bench/models/digits/train.dsl: the same digits, CNN, batch order and
# Adam step, on Debian's python3-torch. Usage: train.py [threads] [steps]
import gzip
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
steps = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("STEPS", "260"))
torch.set_num_threads(threads)
torch.manual_seed(0)

path = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
table = torch.from_numpy(np.loadtxt(gzip.open(path), delimiter=",", dtype=np.float32))
images = (table[:1497, :64] / 16.0).reshape(-1, 1, 8, 8)
labels = table[:1497, 64].long()
n, batch = images.shape[0], 64


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(1, 16, 3, padding=1)
        self.c2 = torch.nn.Conv2d(16, 32, 3, padding=1)
        self.f1 = torch.nn.Linear(32 * 4 * 4, 64)
        self.f2 = torch.nn.Linear(64, 10)

    def forward(self, x):
        h = F.relu(self.c1(x))
        h = F.max_pool2d(F.relu(self.c2(h)), 2)
        return self.f2(F.relu(self.f1(h.flatten(1))))


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.002)
order = torch.tensor([(k * 7) % n for k in range(n)])
batches = [order[s:min(s + batch, n)] for s in range(0, n, batch)]
seen = 0
t0 = time.perf_counter()
for s in range(steps):
    if s == 20:
        t0 = time.perf_counter()
        seen = 0
    rows = batches[s % len(batches)]
    opt.zero_grad()
    loss = F.cross_entropy(net(images[rows]), labels[rows])
    loss.backward()
    opt.step()
    seen += rows.shape[0]
ms = (time.perf_counter() - t0) * 1000 / (steps - 20)
print("torch step_ms", round(ms, 3), "images_per_s", round(seen / (ms * (steps - 20)) * 1000.0),
      "loss", round(loss.item(), 6))
