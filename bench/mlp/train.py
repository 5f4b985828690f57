# The PyTorch eager side of bench/mlp/train.dsl: the same model, loss, optimizer, step count and
# batch-size sequence. Prints the mean step time over steps 20..199.
#   /usr/bin/python3 bench/mlp/train.py [threads]
# TESSEL_MLP_OPT=adam trains with Adam (lr 0.001) instead of SGD, as train.dsl does.
import os
import sys
import time

try:
    import torch
except ImportError:
    print("torch step_ms skipped: torch is not installed (Debian: python3-torch)")
    sys.exit(0)

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
torch.set_num_threads(threads)
torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(784, 256), torch.nn.ReLU(),
    torch.nn.Linear(256, 256), torch.nn.ReLU(),
    torch.nn.Linear(256, 10))
if os.environ.get("TESSEL_MLP_OPT", "sgd") == "adam":
    opt = torch.optim.Adam(model.parameters(), lr=0.001)
else:
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
steps = 200


def batch_size(i):
    return 32 + (i * 97) % 481


t0 = time.perf_counter()
for i in range(steps):
    if i == 20:
        t0 = time.perf_counter()
    b = batch_size(i)
    x = torch.randn(b, 784)
    y = torch.randint(0, 10, (b,))
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
ms = (time.perf_counter() - t0) * 1000 / (steps - 20)
print("torch step_ms", round(ms, 3), "threads", threads, "loss", round(loss.item(), 4))
