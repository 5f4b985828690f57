# PyTorch eager baseline of bench/transformer/train.dsl: the same causal transformer, data,
# batch schedule and Adam step, on Debian's python3-torch. Usage: train.py [threads] [steps]
import math
import sys
import time

import torch
import torch.nn.functional as F

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 200
torch.set_num_threads(threads)
torch.manual_seed(0)

V, D, H, LAYERS, B = 96, 64, 4, 2, 16

def load_tokens(limit=200000):
    text = " ".join(open("/usr/share/dict/words", encoding="utf-8", errors="replace").read().split("\n"))
    return torch.tensor([ord(c) % V for c in text[:limit]], dtype=torch.int64)

tokens = load_tokens()

def seq_len(i):
    return 16 + (i * 37) % 113

def batch(i, T):
    n = tokens.shape[0] - T - 1
    offs = torch.tensor([(i * 7919 + b * 104729) % n for b in range(B)])
    idx = offs.unsqueeze(1) + torch.arange(T + 1)
    chunk = tokens[idx]
    return chunk[:, :T], chunk[:, 1:]

def linear_init(fan_in, fan_out):
    bound = math.sqrt(6.0 / fan_in)
    return [(torch.rand(fan_out, fan_in) * 2 * bound - bound).requires_grad_(),
            torch.zeros(fan_out, requires_grad=True)]

def init():
    p = {"emb": (torch.randn(V, D) * 0.02).requires_grad_(),
         "pos": (torch.randn(256, D) * 0.02).requires_grad_(), "layers": []}
    for _ in range(LAYERS):
        p["layers"].append({
            "ln1": [torch.ones(D, requires_grad=True), torch.zeros(D, requires_grad=True)],
            "qkv": linear_init(D, 3 * D), "proj": linear_init(D, D),
            "ln2": [torch.ones(D, requires_grad=True), torch.zeros(D, requires_grad=True)],
            "fc1": linear_init(D, 4 * D), "fc2": linear_init(4 * D, D)})
    p["lnf"] = [torch.ones(D, requires_grad=True), torch.zeros(D, requires_grad=True)]
    p["head"] = linear_init(D, V)
    return p

def leaves(p):
    out = [p["emb"], p["pos"]]
    for l in p["layers"]:
        for k in ("ln1", "qkv", "proj", "ln2", "fc1", "fc2"):
            out += l[k]
    return out + p["lnf"] + p["head"]

def forward(p, x):
    Bn, T = x.shape
    h = p["emb"][x] + p["pos"][:T]
    for l in p["layers"]:
        a = F.layer_norm(h, (D,), l["ln1"][0], l["ln1"][1])
        qkv = F.linear(a, *l["qkv"]).reshape(Bn, T, 3, H, D // H).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        # PyTorch 1.13 has no fused attention on the cpu: the usual unfused form.
        s = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(D // H))
        s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        o = (torch.softmax(s, -1) @ v).transpose(1, 2).reshape(Bn, T, D)
        h = h + F.linear(o, *l["proj"])
        m = F.layer_norm(h, (D,), l["ln2"][0], l["ln2"][1])
        h = h + F.linear(F.gelu(F.linear(m, *l["fc1"])), *l["fc2"])
    h = F.layer_norm(h, (D,), p["lnf"][0], p["lnf"][1])
    return F.linear(h, *p["head"])

params = init()
opt = torch.optim.Adam(leaves(params), lr=1e-3)
loss = None
t0 = time.perf_counter()
for i in range(steps):
    if i == 20:
        t0 = time.perf_counter()
    T = seq_len(i)
    x, y = batch(i, T)
    logits = forward(params, x)
    loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
ms = (time.perf_counter() - t0) * 1000 / (steps - 20)
print("torch step_ms", round(ms, 3), "loss", round(loss.item(), 6))
