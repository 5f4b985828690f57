# PyTorch eager baseline of bench/models/char_lm/train.dsl: the same words, batches, model
# (nn.TransformerEncoderLayer, pre-norm, gelu, no dropout) and AdamW step with clipping, on
# Debian's python3-torch. Usage: train.py [threads] [steps] [pad]
#   pad = batch: each batch padded to its own longest word (as Tessel);
#   pad = max: every batch padded to the longest word overall (a static-shape compiler's view).
import os
import sys
import time

import torch
import torch.nn.functional as F

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
steps = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("STEPS", "220"))
pad_mode = sys.argv[3] if len(sys.argv) > 3 else os.environ.get("LM_PAD", "batch")
torch.set_num_threads(threads)
torch.manual_seed(0)

BATCH, DIM, HEADS, VOCAB = 64, 64, 4, 28
words = [w for w in open("/usr/share/dict/words", encoding="utf-8").read().split("\n")
         if len(w) >= 2 and all("a" <= c <= "z" for c in w)]
words.sort(key=lambda w: (len(w), w))
nb = len(words) // BATCH
longest = max(len(w) for w in words) + 2


def batch_tokens(k):
    ws = words[k * BATCH:(k + 1) * BATCH]
    T = longest if pad_mode == "max" else len(ws[-1]) + 2
    rows = [[1] + [ord(c) - 95 for c in w] + [1] + [0] * (T - len(w) - 2) for w in ws]
    return torch.tensor(rows), torch.tensor([len(w) + 2 for w in ws])


class LM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.pos = torch.nn.Parameter(torch.randn(32, DIM) * 0.02)
        self.blocks = torch.nn.ModuleList([
            torch.nn.TransformerEncoderLayer(DIM, HEADS, 4 * DIM, dropout=0.0, activation="gelu",
                                             batch_first=True, norm_first=True)
            for _ in range(2)])
        self.ln = torch.nn.LayerNorm(DIM)
        self.out = torch.nn.Linear(DIM, VOCAB)

    def forward(self, x, pad):
        T = x.shape[1]
        h = self.emb(x) + self.pos[:T]
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        for b in self.blocks:
            h = b(h, src_mask=causal, src_key_padding_mask=pad)
        return self.out(self.ln(h))


model = LM()
opt = torch.optim.AdamW(model.parameters(), lr=0.002, weight_decay=0.01)
tokens = 0
t0 = time.perf_counter()
for s in range(steps):
    if s == 20:
        t0 = time.perf_counter()
        tokens = 0
    tok, lengths = batch_tokens((s * 7919) % nb)
    x = tok[:, :-1]
    pad = torch.arange(x.shape[1])[None, :] >= (lengths - 1)[:, None]
    target = tok[:, 1:].masked_fill(pad, -100)
    opt.zero_grad()
    loss = F.cross_entropy(model(x, pad).reshape(-1, VOCAB), target.reshape(-1), ignore_index=-100)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    tokens += int(lengths.sum()) - BATCH
ms = (time.perf_counter() - t0) * 1000 / (steps - 20)
print(f"torch-{pad_mode}", "step_ms", round(ms, 3), "tokens_per_s", round(tokens / (ms * (steps - 20)) * 1000.0),
      "loss", round(loss.item(), 6))
