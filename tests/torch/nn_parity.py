#!/usr/bin/env python3
"""PyTorch parity of the stdlib model library: stdlib/nn.dsl, data.dsl, graph.dsl.

Usage: nn_parity.py TESSEL [NAME_SUBSTRING]

Each case starts from the same weights and data on both sides: PyTorch 1.13 makes them, they
go to Tessel in an .npz file, and the Tessel script writes its results to another .npz.
- Layers: the output, the gradients of sum(out * gw) for fixed random gw with respect to every
  parameter and the input, and the parameters after one SGD step (lr 0.1) from them.
- Optimizers: the parameters (and the moment buffers) after three steps on fixed gradients.
- Schedules, clip_grad_norm, graph normalization, padding: their values.
Everything must agree to 1e-5 (absolute, relative above 1). Exits 77 (CTest's skip) when
PyTorch is missing.
"""
import math
import os
import subprocess
import sys
import tempfile
import warnings

try:
    import numpy as np
    import torch
    import torch.nn.functional as F
except ImportError:
    print("SKIP: PyTorch is not installed (apt-get install python3-torch)")
    sys.exit(77)

torch.manual_seed(29)
TOL = 1e-5
# SequentialLR steps its schedulers with an epoch, which torch 1.13 warns about.
warnings.filterwarnings("ignore", category=UserWarning)
LAYERS, VALUES = [], []


def layer(name, apply, make, extra_tessel="", extra=None, grad_x=True):
    """apply: a Tessel expression over the parameters `p` and the input `x` (and `inp`).
    make(): (params, x, forward, inputs): params maps a Tessel tree path ("q.w") to
    (leaf, index), the torch tensor and the part of it that is that parameter; forward(x) runs
    the torch layer; inputs are further tensors for the script (masks). extra_tessel: Tessel
    statements that put() more results, compared with extra() after the forward."""
    LAYERS.append((name, apply, make, extra_tessel, extra, grad_x))


def value(name, tessel, torch_fn, **inputs):
    """tessel: statements that put() results; torch_fn(inputs) returns the same names."""
    VALUES.append((name, tessel, torch_fn, inputs))


def leaves(module):
    """A torch module's parameters, randomized (so that zero-initialized biases are tested too)."""
    with torch.no_grad():
        for p in module.parameters():
            p.uniform_(-0.5, 0.5)
    return module


def whole(t):
    return (t, slice(None))


# ---- layers -------------------------------------------------------------------------------
def make_linear(bias=True):
    def make():
        m = leaves(torch.nn.Linear(5, 3, bias=bias))
        params = {"w": whole(m.weight)}
        if bias:
            params["b"] = whole(m.bias)
        return params, torch.randn(4, 2, 5), m, {}
    return make


layer("linear", "nn.linear_apply(p, x)", make_linear())
layer("linear_no_bias", "nn.linear_apply(p, x)", make_linear(False))
layer("mlp", "nn.mlp_apply([p[\"l0\"], p[\"l1\"]], x)", lambda: (
    lambda l0, l1: ({"l0.w": whole(l0.weight), "l0.b": whole(l0.bias), "l1.w": whole(l1.weight),
                     "l1.b": whole(l1.bias)}, torch.randn(6, 4),
                    lambda x: l1(torch.relu(l0(x))), {}))(
        leaves(torch.nn.Linear(4, 7)), leaves(torch.nn.Linear(7, 2))))


def make_embedding():
    m = torch.nn.Embedding(10, 4, padding_idx=2)
    return {"w": whole(m.weight)}, torch.tensor([[1, 2, 9], [2, 0, 1]], dtype=torch.int32), \
        lambda x: m(x.long()), {}


layer("embedding", "nn.embedding_apply(p, x)", lambda: (
    lambda m: ({"w": whole(m.weight)}, torch.randint(0, 10, (5,), dtype=torch.int32),
               lambda x: m(x.long()), {}))(torch.nn.Embedding(10, 3)), grad_x=False)
layer("embedding_padding_idx", "nn.embedding_apply(p, x, padding_idx = 2)", make_embedding,
      grad_x=False)


def make_layer_norm():
    m = leaves(torch.nn.LayerNorm(6))
    return {"w": whole(m.weight), "b": whole(m.bias)}, torch.randn(3, 2, 6), m, {}


layer("layer_norm", "nn.layer_norm_apply(p, x)", make_layer_norm)


def make_rms_norm():
    w = torch.empty(6).uniform_(0.5, 1.5).requires_grad_()
    eps = torch.finfo(torch.float32).eps
    # torch 1.13 has no RMSNorm: its definition (torch 2.4's F.rms_norm).
    return {"w": whole(w)}, torch.randn(3, 6), \
        lambda x: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w, {}


layer("rms_norm", "nn.rms_norm_apply(p, x)", make_rms_norm)


def make_conv(stride, padding, groups):
    def make():
        m = leaves(torch.nn.Conv2d(4, 6, (3, 2), stride=stride, padding=padding, groups=groups))
        return {"w": whole(m.weight), "b": whole(m.bias)}, torch.randn(2, 4, 7, 6), m, {}
    return make


layer("conv2d", "nn.conv2d_apply(p, x)", make_conv(1, 0, 1))
layer("conv2d_same_dilated", "nn.conv2d_apply(p, x, padding = \"same\", dilation = 2)",
      lambda: (lambda m: ({"w": whole(m.weight), "b": whole(m.bias)}, torch.randn(1, 4, 9, 8), m,
                          {}))(leaves(torch.nn.Conv2d(4, 3, 3, padding="same", dilation=2))))
layer("conv2d_strided_padded_grouped",
      "nn.conv2d_apply(p, x, stride = 2, padding = 1, groups = 2)", make_conv(2, 1, 2))


def make_batch_norm(training):
    def make():
        m = leaves(torch.nn.BatchNorm2d(3, momentum=0.2))
        with torch.no_grad():
            m.running_mean.uniform_(-1, 1)
            m.running_var.uniform_(0.5, 2)
        m.train(training)
        make.module = m
        return {"w": whole(m.weight), "b": whole(m.bias)}, torch.randn(4, 3, 2, 5) * 2 + 1, m, \
            {"s.running_mean": m.running_mean.clone(), "s.running_var": m.running_var.clone()}
    return make


for training in (True, False):
    mk = make_batch_norm(training)
    t = "true" if training else "false"
    layer(f"batch_norm_training_{t}",
          f"nn.batch_norm_apply(p, sub(\"s\"), x, training = {t}, momentum = 0.2)[0]", mk,
          extra_tessel=f"put(\"state\", nn.batch_norm_apply(P, sub(\"s\"), X, training = {t}, "
                       f"momentum = 0.2)[1])",
          extra=lambda mk=mk: {"state.running_mean": mk.module.running_mean,
                               "state.running_var": mk.module.running_var})


def make_batch_norm_1d():
    m = leaves(torch.nn.BatchNorm1d(5))
    return {"w": whole(m.weight), "b": whole(m.bias)}, torch.randn(6, 5), m, \
        {"s.running_mean": m.running_mean.clone(), "s.running_var": m.running_var.clone()}


layer("batch_norm_1d_training", "nn.batch_norm_apply(p, sub(\"s\"), x, training = true)[0]",
      make_batch_norm_1d)


def attention_leaves(e):
    return {n: torch.empty(e, e).uniform_(-0.5, 0.5).requires_grad_() for n in "qkvo"}, \
        {n: torch.empty(e).uniform_(-0.5, 0.5).requires_grad_() for n in "qkvo"}


def torch_attention(ws, bs, h, q, k, v, kpm=None, mask=None):
    """nn.MultiheadAttention(batch_first=True)'s forward on our leaves."""
    e = q.shape[-1]
    out, _ = F.multi_head_attention_forward(
        q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), e, h,
        torch.cat([ws["q"], ws["k"], ws["v"]]), torch.cat([bs["q"], bs["k"], bs["v"]]),
        None, None, False, 0.0, ws["o"], bs["o"], training=False, key_padding_mask=kpm,
        need_weights=False, attn_mask=mask)
    return out.transpose(0, 1)


def make_attention(use_kpm, causal, cross=False):
    def make():
        e, h, t, s = 8, 2, 5, (7 if cross else 5)
        ws, bs = attention_leaves(e)
        params = {f"{n}.w": whole(ws[n]) for n in "qkvo"}
        params.update({f"{n}.b": whole(bs[n]) for n in "qkvo"})
        kv = torch.randn(3, s, e)
        # Padding at the end of two sequences; every query keeps key 0.
        kpm = torch.zeros(3, s, dtype=torch.bool)
        kpm[0, 3:] = True
        kpm[2, 4:] = True
        mask = torch.triu(torch.ones(t, s, dtype=torch.bool), 1) if causal else None
        inputs = {"kv": kv, "kpm": kpm}
        return params, torch.randn(3, t, e), \
            lambda x: torch_attention(ws, bs, h, x, kv if cross else x, kv if cross else x,
                                      kpm if use_kpm else None, mask), inputs
    return make


for use_kpm in (False, True):
    for causal in (False, True):
        kw = (", key_padding_mask = inp[\"kpm\"]" if use_kpm else "") + \
            (", is_causal = true" if causal else "")
        layer(f"attention_kpm_{use_kpm}_causal_{causal}",
              f"nn.attention_apply(p, x, x, x, 2{kw})", make_attention(use_kpm, causal))
layer("attention_cross_padded", "nn.attention_apply(p, x, inp[\"kv\"], inp[\"kv\"], 2, "
      "key_padding_mask = inp[\"kpm\"])", make_attention(True, False, cross=True))
layer("attention_additive_mask", "nn.attention_apply(p, x, x, x, 2, attn_mask = inp[\"am\"], "
      "key_padding_mask = inp[\"kpm\"])", lambda: (lambda r, am: (
          r[0], r[1], lambda x: torch_attention(*attention_leaves_of(r[0]), 2, x, x, x,
                                                r[3]["kpm"], am),
          dict(r[3], am=am)))(make_attention(True, False)(), torch.randn(5, 5)))


def attention_leaves_of(params):
    return ({n: params[f"{n}.w"][0] for n in "qkvo"}, {n: params[f"{n}.b"][0] for n in "qkvo"})


def make_block(activation, causal, dropout=0.0):
    """dropout > 0: the block evaluating (torch's .eval()), where dropout is the identity."""
    def make():
        e, h, ff = 8, 2, 12
        m = leaves(torch.nn.TransformerEncoderLayer(e, h, ff, dropout=dropout,
                                                    activation=activation, batch_first=True,
                                                    norm_first=True))
        m.train(dropout == 0.0)
        ipw, ipb = m.self_attn.in_proj_weight, m.self_attn.in_proj_bias
        params = {"ln1.w": whole(m.norm1.weight), "ln1.b": whole(m.norm1.bias),
                  "ln2.w": whole(m.norm2.weight), "ln2.b": whole(m.norm2.bias),
                  "ff1.w": whole(m.linear1.weight), "ff1.b": whole(m.linear1.bias),
                  "ff2.w": whole(m.linear2.weight), "ff2.b": whole(m.linear2.bias),
                  "attn.o.w": whole(m.self_attn.out_proj.weight),
                  "attn.o.b": whole(m.self_attn.out_proj.bias)}
        for i, n in enumerate("qkv"):
            params[f"attn.{n}.w"] = (ipw, slice(i * e, (i + 1) * e))
            params[f"attn.{n}.b"] = (ipb, slice(i * e, (i + 1) * e))
        kpm = torch.zeros(2, 6, dtype=torch.bool)
        kpm[1, 4:] = True
        mask = torch.triu(torch.ones(6, 6, dtype=torch.bool), 1) if causal else None
        return params, torch.randn(2, 6, e), \
            lambda x: m(x, src_mask=mask, src_key_padding_mask=kpm), {"kpm": kpm}
    return make


for activation in ("relu", "gelu"):
    for causal in (False, True):
        c = ", is_causal = true" if causal else ""
        layer(f"transformer_block_{activation}_causal_{causal}",
              f"nn.transformer_block_apply(p, x, 2, key_padding_mask = inp[\"kpm\"]{c}, "
              f"activation = \"{activation}\")", make_block(activation, causal))
layer("transformer_block_eval_with_dropout",
      "nn.transformer_block_apply(p, x, 2, key_padding_mask = inp[\"kpm\"], dropout_p = 0.3)",
      make_block("relu", False, dropout=0.3))


# ---- graph convolutions (PyG's formulas, written with index_add) ---------------------------
EDGES = torch.tensor([[0, 1, 1, 2, 3, 4, 4, 2, 5],
                      [1, 0, 2, 1, 3, 0, 2, 4, 1]], dtype=torch.int32)  # (3, 3): a self-loop


def torch_gcn_norm(ei, w, n, self_loops=True):
    ei = ei.long()
    w = torch.ones(ei.shape[1]) if w is None else w
    if self_loops:  # PyG's add_remaining_self_loops
        not_loop = ei[0] != ei[1]
        loop_w = torch.ones(n)
        loop_w = loop_w.index_copy(0, ei[0][~not_loop], w[~not_loop])
        loops = torch.arange(n)
        ei = torch.cat([ei[:, not_loop], torch.stack([loops, loops])], 1)
        w = torch.cat([w[not_loop], loop_w])
    deg = torch.zeros(n).index_add(0, ei[1], w)
    inv = deg.pow(-0.5)
    inv = inv.masked_fill(inv == float("inf"), 0.0)
    return ei, inv[ei[0]] * w * inv[ei[1]]


def make_gcn():
    w = torch.empty(3, 4).uniform_(-0.5, 0.5).requires_grad_()
    b = torch.empty(3).uniform_(-0.5, 0.5).requires_grad_()
    ew = torch.rand(EDGES.shape[1]) + 0.5

    def fwd(x):
        ei, norm = torch_gcn_norm(EDGES, ew, 7)
        h = x @ w.T
        return torch.zeros(7, 3).index_add(0, ei[1], h[ei[0]] * norm[:, None]) + b
    return {"w": whole(w), "b": whole(b)}, torch.randn(7, 4), fwd, {"ei": EDGES, "ew": ew}


layer("gcn_conv", "nn.gcn_conv_apply(p, x, inp[\"ei\"], inp[\"ew\"])", make_gcn)


def make_sage():
    lin_l, lin_r = leaves(torch.nn.Linear(4, 3)), leaves(torch.nn.Linear(4, 3, bias=False))

    def fwd(x):
        ei = EDGES.long()
        total = torch.zeros(7, 4).index_add(0, ei[1], x[ei[0]])
        count = torch.zeros(7).index_add(0, ei[1], torch.ones(ei.shape[1])).clamp(min=1)
        return lin_l(total / count[:, None]) + lin_r(x)
    return {"neigh.w": whole(lin_l.weight), "neigh.b": whole(lin_l.bias),
            "root.w": whole(lin_r.weight)}, torch.randn(7, 4), fwd, {"ei": EDGES}


layer("sage_conv", "nn.sage_conv_apply(p, x, inp[\"ei\"])", make_sage)


def gcn_norm_values(inp):
    ei, norm = torch_gcn_norm(inp["ei"], inp["ew"], 7)
    ei0, norm0 = torch_gcn_norm(inp["ei"], None, 7, self_loops=False)
    return {"ei": ei.int(), "norm": norm, "ei0": ei0.int(), "norm0": norm0}


value("gcn_norm", "let r = graph.gcn_norm(inp[\"ei\"], inp[\"ew\"], 7)\n"
      "put(\"ei\", r[0]); put(\"norm\", r[1])\n"
      "let r0 = graph.gcn_norm(inp[\"ei\"], none, 7, add_self_loops = false)\n"
      "put(\"ei0\", r0[0]); put(\"norm0\", r0[1])",
      gcn_norm_values, ei=EDGES, ew=torch.rand(EDGES.shape[1]) + 0.5)


# ---- optimizers: three steps on fixed gradients ---------------------------------------------
def optimizer(name, tessel_step, make_opt, state=""):
    """tessel_step: an expression of (P, G, S) giving (params, state) (or params if no state)."""
    def tessel():
        init = f"let S = {state}\n" if state else ""
        step = f"let r = {tessel_step}\n    P = r[0]\n    S = r[1]" if state else \
            f"P = {tessel_step}"
        return (f"let P = sub(\"p\")\n{init}"
                f"for k in range(3) {{\n    let G = sub(f\"g{{k}}\")\n    {step}\n"
                f"    put(f\"p{{k}}\", P)\n}}")

    def torch_fn(inp):
        ps = {n: inp[f"p.{n}"].clone().requires_grad_() for n in ("a", "b")}
        opt = make_opt(list(ps.values()))
        out = {}
        for k in range(3):
            for n, p in ps.items():
                p.grad = inp[f"g{k}.{n}"].clone()
            opt.step()
            out.update({f"p{k}.{n}": p.detach().clone() for n, p in ps.items()})
        return out
    inputs = {"p.a": torch.randn(3, 4), "p.b": torch.randn(5)}
    for k in range(3):
        inputs.update({f"g{k}.a": torch.randn(3, 4), f"g{k}.b": torch.randn(5)})
    value(f"optim_{name}", tessel(), torch_fn, **inputs)


optimizer("sgd", "nn.sgd_step(P, G, lr = 0.1)", lambda ps: torch.optim.SGD(ps, lr=0.1))
optimizer("sgd_weight_decay", "nn.sgd_step(P, G, lr = 0.1, weight_decay = 0.05)",
          lambda ps: torch.optim.SGD(ps, lr=0.1, weight_decay=0.05))
optimizer("sgd_momentum_dampening",
          "nn.sgd_step(P, G, 0.1, S, momentum = 0.9, dampening = 0.3, weight_decay = 0.01)",
          lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.3, weight_decay=0.01),
          state="nn.sgd_init(P)")
optimizer("sgd_nesterov", "nn.sgd_step(P, G, 0.1, S, momentum = 0.8, nesterov = true)",
          lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.8, nesterov=True),
          state="nn.sgd_init(P)")
optimizer("adam", "nn.adam_step(P, G, S, lr = 0.01)", lambda ps: torch.optim.Adam(ps, lr=0.01),
          state="nn.adam_init(P)")
optimizer("adam_betas_weight_decay",
          "nn.adam_step(P, G, S, 0.02, 0.8, 0.99, 1e-6, weight_decay = 0.1)",
          lambda ps: torch.optim.Adam(ps, lr=0.02, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1),
          state="nn.adam_init(P)")
optimizer("adamw", "nn.adamw_step(P, G, S, lr = 0.01)", lambda ps: torch.optim.AdamW(ps, lr=0.01),
          state="nn.adam_init(P)")
optimizer("adamw_weight_decay", "nn.adamw_step(P, G, S, lr = 0.05, weight_decay = 0.3)",
          lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.3), state="nn.adam_init(P)")


# ---- schedules, clipping, metrics ----------------------------------------------------------
def torch_lrs(make_sched, steps, base=0.5):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base)
    sched = make_sched(opt)
    lrs = []
    for _ in range(steps):
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return torch.tensor(lrs)


def schedule(name, tessel_fn, make_sched, steps=12):
    value(f"schedule_{name}", f"let f = {tessel_fn}\nput(\"lr\", tensor([f(s) for s in "
          f"range({steps})]))", lambda inp: {"lr": torch_lrs(make_sched, steps)})


S = torch.optim.lr_scheduler
schedule("step", "nn.lr_schedule(\"step\", 0.5, step_size = 3, gamma = 0.3)",
         lambda o: S.StepLR(o, 3, 0.3))
schedule("step_lr", "fn (s) { return nn.step_lr(s, 0.5, 4) }", lambda o: S.StepLR(o, 4))
schedule("cosine", "nn.lr_schedule(\"cosine\", 0.5, total_steps = 11, min_lr = 0.01)",
         lambda o: S.CosineAnnealingLR(o, 11, 0.01))
schedule("warmup", "fn (s) { return nn.warmup_lr(s, 0.5, 4) }",
         lambda o: S.LinearLR(o, start_factor=1 / 4, total_iters=3))
schedule("linear", "nn.lr_schedule(\"linear\", 0.5, total_steps = 10, min_lr = 0.1)",
         lambda o: S.LinearLR(o, 1.0, 0.2, total_iters=10))
schedule("warmup_then_cosine",
         "nn.lr_schedule(\"cosine\", 0.5, total_steps = 12, warmup_steps = 3)",
         lambda o: S.SequentialLR(o, [S.LinearLR(o, 1 / 3, total_iters=2),
                                      S.CosineAnnealingLR(o, 9)], milestones=[3]))


def clip_values(max_norm, norm_type):
    def fn(inp):
        gs = [inp["g.a"].clone(), inp["g.b"].clone()]
        ps = [torch.zeros_like(g, requires_grad=True) for g in gs]
        for p, g in zip(ps, gs):
            p.grad = g
        total = torch.nn.utils.clip_grad_norm_(ps, max_norm, norm_type)
        return {"total": total, "c.a": ps[0].grad, "c.b": ps[1].grad}
    return fn


for max_norm, norm_type, tl in ((1.0, 2.0, "2.0"), (100.0, 2.0, "2.0"), (0.5, math.inf, "math.inf"),
                                (2.0, 1.0, "1.0")):
    value(f"clip_grad_norm_{max_norm}_{tl}",
          f"let r = nn.clip_grad_norm(sub(\"g\"), {max_norm}, {tl})\n"
          f"put(\"c\", r[0]); put(\"total\", r[1])",
          clip_values(max_norm, norm_type), **{"g.a": torch.randn(3, 4), "g.b": torch.randn(5)})

value("accuracy", "put(\"acc\", nn.accuracy(inp[\"logits\"], inp[\"y\"]))",
      lambda inp: {"acc": (inp["logits"].argmax(-1) == inp["y"]).float().mean()},
      logits=torch.randn(50, 4), y=torch.randint(0, 4, (50,), dtype=torch.int32))


# ---- data ----------------------------------------------------------------------------------
SEQS = {f"s{i}": torch.randn(n, 3) for i, n in enumerate((4, 1, 6, 3))}


def pad_values(inp):
    seqs = [inp[f"s{i}"] for i in range(4)]
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-2.0)
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int32)
    return {"padded": padded, "lengths": lengths, "jagged": padded,
            "time_first": torch.nn.utils.rnn.pad_sequence(seqs),
            "values": torch.cat(seqs), "back": torch.cat(seqs)}


value("pad_and_jagged",
      "let seqs = [inp[f\"s{i}\"] for i in range(4)]\n"
      "let r = data.pad_sequence(seqs, -2.0)\nput(\"padded\", r[0]); put(\"lengths\", r[1])\n"
      "put(\"time_first\", data.pad_sequence(seqs, batch_first = false)[0])\n"
      "let (v, l) = data.pack_sequences(seqs)\nput(\"values\", v)\n"
      "put(\"jagged\", data.jagged_to_padded(v, l, -2.0))\n"
      "put(\"back\", data.padded_to_jagged(r[0], r[1])[0])",
      pad_values, **SEQS)


# ---- the runner ----------------------------------------------------------------------------
PRELUDE = """import nn
import data
import graph
let inp = load(IN)
let out = {}
# A tree from the inputs named prefix.a.b... (dicts by name).
fn sub(prefix) {
  let tree = {}
  for (name, t) in inp.items() {
    if name.find(prefix + ".") != 0 { continue }
    let parts = name[len(prefix) + 1:].split(".")
    let node = tree
    for part in parts[:-1] {
      if not (part in node) { node[part] = {} }
      node = node[part]
    }
    node[parts[-1]] = t
  }
  return tree
}
# Puts a tree's leaves into out, named by their paths.
fn put(prefix, tree) {
  let kind = type(tree)
  if kind == "dict" {
    for (k, v) in tree.items() { put(prefix + "." + k, v) }
  } elif kind == "list" or kind == "tuple" {
    for i in range(len(tree)) { put(prefix + "." + str(i), tree[i]) }
  } else {
    out[prefix] = tree
  }
}
"""


def layer_program(apply, extra_tessel, grad_x):
    args = "(0, 1)" if grad_x else "0"
    grads = "let (gp, gx) = g\nput(\"grad_x\", gx)" if grad_x else "let gp = g"
    return f"""let P = sub("p")
let X = inp["x"]
fn f(p, x) {{ return {apply} }}
put("y", f(P, X))
let g = grad(fn (p, x) {{ return (f(p, x) * inp["gw"]).sum() }}, argnums = {args})(P, X)
{grads}
put("grad_p", gp)
put("step", nn.sgd_step(P, gp, lr = 0.1))
{extra_tessel}
"""


def torch_layer(make, extra, grad_x):
    params, x, forward, extra_inputs = make()
    inputs = {f"p.{n}": leaf.detach()[ix].clone() for n, (leaf, ix) in params.items()}
    inputs.update(extra_inputs)
    if grad_x:
        x = x.clone().requires_grad_()
    inputs["x"] = x.detach()
    y = forward(x)
    gw = torch.randn(y.shape)
    inputs["gw"] = gw
    (y * gw).sum().backward()
    want = {"y": y.detach()}
    if grad_x:
        want["grad_x"] = x.grad
    leafs = {id(leaf): leaf for leaf, _ in params.values()}
    opt = torch.optim.SGD(list(leafs.values()), lr=0.1)
    for n, (leaf, ix) in params.items():
        g = leaf.grad if leaf.grad is not None else torch.zeros_like(leaf)
        want[f"grad_p.{n}"] = g[ix].clone()
    opt.step()
    for n, (leaf, ix) in params.items():
        want[f"step.{n}"] = leaf.detach()[ix].clone()
    if extra:
        want.update({k: v.detach().clone() for k, v in extra().items()})
    return inputs, want


def to_numpy(t):
    t = t.detach()
    if t.dtype == torch.int64:
        t = t.int()
    return t.numpy()


def run(tessel_bin, name, program, inputs, want):
    with tempfile.TemporaryDirectory() as tmp:
        inp_path, out_path = os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz")
        np.savez(inp_path, **{k: to_numpy(v) for k, v in inputs.items()})
        script = os.path.join(tmp, f"{name}.dsl")
        with open(script, "w") as f:
            f.write(f"let IN = {inp_path!r}\n".replace("'", '"') + PRELUDE + program +
                    f"\nsave(\"{out_path}\", out)\n")
        p = subprocess.run([tessel_bin, script], capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, TESSEL_PGO="0"))
        if p.returncode != 0:
            return [f"tessel failed ({p.returncode}):\n{p.stdout}{p.stderr}"]
        got = dict(np.load(out_path))
    errors = []
    if sorted(got) != sorted(want):
        errors.append(f"results differ in names: tessel {sorted(got)}, torch {sorted(want)}")
    for k in sorted(set(got) & set(want)):
        g, w = got[k], to_numpy(want[k])
        if g.shape != w.shape:
            errors.append(f"{k}: shape {g.shape} != torch's {w.shape}")
            continue
        if g.dtype != w.dtype:
            errors.append(f"{k}: dtype {g.dtype} != torch's {w.dtype}")
            continue
        err = np.abs(g.astype(np.float64) - w) / np.maximum(1.0, np.abs(w))
        if err.size and not np.all(err <= TOL):
            i = np.unravel_index(np.nanargmax(np.where(np.isnan(err), np.inf, err)), err.shape)
            errors.append(f"{k}: {g[i]} != torch's {w[i]} at {i} (relative error {err[i]:.3g})")
    return errors


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tessel_bin, pattern = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    jobs = []
    for name, apply, make, extra_tessel, extra, grad_x in LAYERS:
        inputs, want = torch_layer(make, extra, grad_x)
        jobs.append((name, layer_program(apply, extra_tessel, grad_x), inputs, want))
    for name, tessel, torch_fn, inputs in VALUES:
        jobs.append((name, tessel, inputs, torch_fn(inputs)))
    failed = 0
    ran = 0
    for name, program, inputs, want in jobs:
        if pattern not in name:
            continue
        ran += 1
        errors = run(tessel_bin, name, program, inputs, want)
        if errors:
            failed += 1
            print(f"FAIL {name}")
            for e in errors:
                print(f"  {e}")
        else:
            print(f"ok   {name}")
    print(f"{ran - failed}/{ran} cases agree with PyTorch {torch.__version__}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
