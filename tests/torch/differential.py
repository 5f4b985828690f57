#!/usr/bin/env python3
"""Seeded differential tester: random tensor programs, Tessel against PyTorch 1.13.

Usage: differential.py TESSEL [--seeds A:B] [--devices cpu,tpu,vulkan] [--budget SECONDS]
                       [--verbose]

Each seed generates one program: a chain of 3-8 ops over random inputs (some of them views:
transposed, offset, stepped, expanded, a row), drawn from OPS, a table with one entry per op
holding both spellings (Tessel and PyTorch), like PyTorch's OpInfo. Every program runs
  eager   on the cpu,
  compile compiled (`compile(p)`) on two input sizes,
  grad    the gradient w.r.t. its f32 inputs (float programs), and
  eager/grad again on every extra device of --devices (TESSEL_DEVICE=tpu|vulkan),
and each result is compared with PyTorch's on the same inputs: values (rtol 1.3e-6, atol
1e-5, scaled for reductions; NaN equals NaN), shapes and dtypes (int64 is Tessel's i32).
Where PyTorch raises, Tessel must raise too (an IndexError where PyTorch's is one).

Programs run in batches, each in its own try/except printing a tagged line, so hundreds run
per second; a batch that crashes is rerun program by program to find the culprit. A
mismatch is reduced (ops dropped, sizes shrunk, values simplified) while it persists and
printed as a golden script with `# expect:` lines plus its PyTorch twin.

Documented differences from PyTorch (docs/differences.md) are avoided or accepted through
KNOWN; real bugs not yet fixed are excluded at `# KNOWN BUG:` comments. Exits 0 when no
unexplained mismatch was found, 1 otherwise, 77 (CTest's skip) without PyTorch.
"""
import argparse
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import warnings

try:
    import torch
except ImportError:
    print("SKIP: PyTorch is not installed (apt-get install python3-torch)")
    sys.exit(77)

from parity_common import DTYPE, close, flat, fmt_value, literal  # noqa: E402 (needs torch)

# ---- Known differences (keys and texts mirror docs/differences.md; keep the two in step) ----
# Each is either avoided by the generator (at the place that names its key) or accepted by
# the comparator (which counts how often it accepted one).
KNOWN = {
    "int64-is-i32": "PyTorch's int64 results (indices, integer sums, scans) are i32",
    "i32-wraps": "i32 arithmetic and sums wrap where PyTorch's int64 result would not",
    "f32-to-i32-saturates": "f32 -> i32 casts saturate and map NaN to 0 (PyTorch: undefined)",
    "clamp-number-nan-bound": "clamp with a NaN number bound gives NaN (PyTorch keeps x)",
    "amax-grad-nan": "amax/max gradient at a NaN maximum goes to the NaNs (PyTorch: NaN row)",
    "max-dim-grad-ties": "max/min(dim) share the gradient among ties (PyTorch: the index)",
    "norm-std-grad-zero": "norm/std gradient is NaN at an all-zero input (PyTorch: 0)",
    "bce-out-of-range": "binary_cross_entropy of an input outside [0, 1] is NaN (PyTorch raises)",
    "negative-index": "index_select/gather wrap negative indices (PyTorch raises)",
    "index-add-slices": "index_add's source slices must match the input's (PyTorch 1.13 "
                        "broadcasts them; later PyTorch raises too)",
    "conv2d-no-in-channels": "conv2d of 0 input channels gives zeros of the output channels "
                             "(PyTorch 1.13: 0 output channels; never generated)",
    "conv-weight-grad-padding": "conv2d weight gradient skips padded taps (PyTorch: NaN "
                                "for an infinite output gradient)",
    "tpu-unbacked-broadcast": "tpu: a data-dependent size of 1 does not broadcast",
    "random-streams": "random ops draw different numbers than PyTorch's (never generated)",
    "segment-reduce-axis": "segment_reduce takes any axis with 1-D lengths (never generated)",
    "scatter-reduce-prod-grad": "scatter_reduce 'prod' has no gradient (never generated)",
    "dropout-traced-grad": "dropout cannot be differentiated under compile (never generated)",
    "unspecialized-floats": "compile: floats are unspecialized f64 (programs take tensors only)",
    "nan-float-specialized": "compile: a NaN float argument is specialized (tensors only)",
    "named-dim-covers-0-1": "compile: named dims cover 0 and 1 (not used)",
    "size-division-total": "compile: division by a size that may be 0 is total (not used)",
    "tpu-bounded-sizes": "tpu: data-dependent sizes print as <=N (tl() prints int(n))",
}
ACCEPTED = {k: 0 for k in KNOWN}

# Real Tessel bugs, not yet fixed: each excludes exactly the results it describes (counted in
# EXCLUDED); remove an entry once its bug is fixed.
KNOWN_BUGS = {}  # (none now; the last three, gradients at NaN and inf, were fixed)
EXCLUDED = {k: 0 for k in KNOWN_BUGS}


def nan_where_finite(got, want):
    return any(isinstance(g, float) and math.isnan(g) and not math.isnan(w)
               for g, w in zip(flat(got), flat(want)))


def known_bug(prog, mode, got, want):
    """The KNOWN_BUGS key that explains this mismatch, or None. An entry names the ops whose
    programs it covers and is matched here, as narrowly as its bug (see git history for the
    shape of past entries)."""
    return None

warnings.filterwarnings("ignore")  # (PyTorch's broadcasting-loss warnings)
TORCH_DTYPE = {"f32": torch.float32, "i32": torch.int32, "bool": torch.bool}
KINDS = ("SyntaxError NameError TypeError ShapeError ValueError IndexError ConstraintViolation "
         "DataDependentError DeviceError AssertionError ZeroDivisionError OverflowError "
         "KeyError HostError IOError").split()
PRELUDE = """fn tl(v) {
  if type(v) == "tuple" or type(v) == "list" {
    let r = []
    for e in v { r.append(tl(e)) }
    return r
  }
  let shape = []
  for d in v.shape { shape.append(int(d)) }
  return [v.tolist(), str(v.dtype), shape]
}
"""
BATCH = 40          # programs per tessel process
RTOL, ATOL = 1.3e-6, 1e-5


# ---- Tessel literals (as tests/torch/torch_parity.py's literal()) -------------------------
# ---- Inputs ---------------------------------------------------------------------------------
# An input is a dict: name, dtype, shape (of the view the program sees), view, values, seed.
# Views are made in both languages from a contiguous base, so programs see strided memory.
VIEWS = {
    # name: (base shape from view shape, Tessel suffix, PyTorch suffix)
    "plain": (lambda s: s, "{b}", "{b}"),
    "transposed": (lambda s: (s[1], s[0]) + s[2:], "transpose({b}, 0, 1)",
                   "torch.transpose({b}, 0, 1)"),
    "offset": (lambda s: (s[0] + 1,) + s[1:], "{b}[1:]", "{b}[1:]"),
    "stepped": (lambda s: (max(2 * s[0] - 1, 0),) + s[1:], "{b}[::2]", "{b}[::2]"),
    "expanded": (lambda s: (1,) + s[1:], "expand({b}, {shape})", "{b}.expand({shape})"),
    "row": (lambda s: (2,) + s, "{b}[1]", "{b}[1]"),
}


def pick_view(rng, shape):
    opts = ["plain", "plain", "row"]
    if len(shape) >= 1:
        opts += ["offset", "stepped", "expanded"]
    if len(shape) >= 2:
        opts += ["transposed"]
    return rng.choice(opts)


def base_tensor(inp):
    """The contiguous base of an input, deterministic in its seed."""
    g = torch.Generator().manual_seed(inp["seed"])
    shape = VIEWS[inp["view"]][0](tuple(inp["shape"]))
    if inp["dtype"] == "bool":
        return torch.rand(shape, generator=g) < 0.5
    if inp["dtype"] == "i32" and inp.get("unique"):  # distinct indices (index_copy)
        n = math.prod(shape)
        hi = inp["range"][1]
        return (torch.randperm(max(hi, n), generator=g)[:n] % max(hi, 1)).to(torch.int32)
    if inp["dtype"] == "i32":
        lo, hi = inp.get("range", (-5, 6))
        return torch.randint(lo, hi, shape, generator=g, dtype=torch.int32)
    vals = inp["values"]
    if vals == "ties":        # small integers as floats: ties for max/sort/argmax
        return torch.randint(-3, 4, shape, generator=g).float()
    if vals == "ones":
        return torch.ones(shape)
    if vals == "prob":
        return torch.rand(shape, generator=g) * 0.9 + 0.05
    t = (torch.rand(shape, generator=g) * 4 - 2)
    t = torch.round(t * 1000) / 1000  # short literals, exactly the same float on both sides
    if vals == "special" and t.numel():
        specials = torch.tensor([math.nan, math.inf, -math.inf, 0.0, -0.0])
        mask = torch.rand(shape, generator=g) < 0.25
        pick = torch.randint(0, 5, shape, generator=g)
        t = torch.where(mask, specials[pick], t)
    return t


def view_exprs(inp, base_name):
    _, tv, pv = VIEWS[inp["view"]]
    shape = list(inp["shape"])
    return tv.format(b=base_name, shape=shape), pv.format(b=base_name, shape=shape)


def torch_input(inp):
    b = base_tensor(inp)
    return eval(view_exprs(inp, "b")[1], {"torch": torch, "b": b})


def rand_shape(rng, rank=None):
    if rank is None:
        rank = rng.choice([0, 1, 1, 2, 2, 2, 3, 3])
    return tuple(rng.choice([0, 1, 2, 3, 3, 4, 5, 5] if rng.random() < 0.1 else [1, 2, 3, 4, 5])
                 for _ in range(rank))


def new_input(rng, prog, dtype, shape, view=None, values=None, **extra):
    name = "abcdefghijklmnopqrstuvwxyz"[len(prog["inputs"])]
    if values is None:
        values = rng.choice(["normal", "normal", "normal", "ties", "special"])
    inp = dict(name=name, dtype=dtype, shape=tuple(shape),
               view=view or pick_view(rng, tuple(shape)), values=values,
               seed=rng.randrange(1 << 30), **extra)
    prog["inputs"].append(inp)
    return name


# ---- Ops: one table entry per op, both spellings -----------------------------------------
# An op is a function (rng, prog, x) -> (tessel, torch, tags) or None where it does not
# apply; x is the current value's meta dict {"dtype", "shape"}; "{x}" in both templates is the
# value, input names are used as they are. tags: names the comparator uses (reductions widen
# the tolerance; "known:*" tags point at KNOWN).
OPS = {}


def op(name, dtypes=("f32", "i32", "bool"), min_rank=0):
    def deco(f):
        OPS[name] = (f, dtypes, min_rank)
        return f
    return deco


def pick_dim(rng, rank, allow_bad=True):
    """A dim, sometimes negative, now and then out of range (both sides must raise)."""
    if allow_bad and rng.random() < 0.05:
        return rng.choice([rank, -rank - 1])
    if rank == 0:
        return rng.choice([0, -1])
    d = rng.randrange(rank)
    return d - rank if rng.random() < 0.3 else d


def pyb(v):
    return "True" if v else "False"


def tsb(v):
    return "true" if v else "false"


UNARY_F = {  # Tessel name: PyTorch spelling
    "exp": "torch.exp", "log": "torch.log", "sqrt": "torch.sqrt", "tanh": "torch.tanh",
    "sigmoid": "torch.sigmoid", "gelu": "F.gelu", "sin": "torch.sin", "erf": "torch.erf",
    "log1p": "torch.log1p", "softplus": "F.softplus", "silu": "F.silu", "floor": "torch.floor",
    "round": "torch.round", "rsqrt": "torch.rsqrt",
}
for _n, _t in UNARY_F.items():
    op(_n, ("f32",))(lambda rng, prog, x, n=_n, t=_t: (f"{n}({{x}})", f"{t}({{x}})", ()))

UNARY_ANY = {"abs": "torch.abs", "neg": "torch.neg", "sign": "torch.sign", "relu": "torch.relu"}
for _n, _t in UNARY_ANY.items():
    op(_n, ("f32", "i32"))(lambda rng, prog, x, n=_n, t=_t: (f"{n}({{x}})", f"{t}({{x}})", ()))


def broadcast_shape(rng, shape):
    """A shape that broadcasts with `shape`: a suffix, some dims 1, dim 0 mostly 1 (so the
    compiled run's second size, which grows dim 0, keeps broadcasting)."""
    k = rng.randrange(len(shape) + 1)
    out = [1 if rng.random() < 0.3 else d for d in shape[len(shape) - k:]]
    if len(out) == len(shape) and out and rng.random() < 0.7:
        out[0] = 1
    if rng.random() < 0.03 and out:  # a shape that does not broadcast: both must raise
        out[-1] += 1
    return tuple(out)


def operand(rng, prog, x, dtypes=("f32", "i32", "bool")):
    """The other operand of a binary op: a tensor input or a number."""
    dt = rng.choice(dtypes) if rng.random() < 0.3 else (
        x["dtype"] if x["dtype"] in dtypes else dtypes[0])
    if rng.random() < 0.25:
        v = {"f32": rng.choice(["0.5", "-1.5", "2.0"]), "i32": rng.choice(["2", "-3"]),
             "bool": "true"}[dt]
        return v, v.replace("true", "True")
    n = new_input(rng, prog, dt, broadcast_shape(rng, x["shape"]))
    return n, n


BINARY = {  # Tessel infix/function: PyTorch
    "add": ("({x} + {y})", "({x} + {y})"), "sub": ("({x} - {y})", "({x} - {y})"),
    "mul": ("({x} * {y})", "({x} * {y})"), "div": ("({x} / {y})", "({x} / {y})"),
    "maximum": ("maximum({x}, {y})", "torch.maximum({x}, torch.as_tensor({y}))"),
    "minimum": ("minimum({x}, {y})", "torch.minimum({x}, torch.as_tensor({y}))"),
    "gt": ("({x} > {y})", "({x} > {y})"), "eq": ("({x} == {y})", "({x} == {y})"),
    "le": ("({x} <= {y})", "({x} <= {y})"),
}
for _n, (_t, _p) in BINARY.items():
    def _bin(rng, prog, x, t=_t, p=_p, n=_n):
        dts = ("f32", "i32") if n in ("maximum", "minimum", "sub") else ("f32", "i32", "bool")
        if n == "sub" and x["dtype"] == "bool":
            return None
        yt, yp = operand(rng, prog, x, dts)
        if n in ("maximum", "minimum") and not yt.isalpha():
            return None  # (maximum takes two tensors in PyTorch)
        return t.format(x="{x}", y=yt), p.format(x="{x}", y=yp), ()
    op(_n, ("f32", "i32", "bool"))(_bin)


@op("floordiv", ("f32", "i32"))
def _floordiv(rng, prog, x):
    # Divisors keep away from 0: integer division by zero raises in Tessel and PyTorch alike,
    # but PyTorch 1.13's `//` of floats by 0 differs per kernel.
    y = rng.choice(["2", "-3"]) if x["dtype"] == "i32" else rng.choice(["0.5", "-1.5"])
    return f"({{x}} // {y})", f"torch.floor_divide({{x}}, {y})", ()


@op("remainder", ("f32", "i32"))
def _remainder(rng, prog, x):
    y = rng.choice(["2", "-3"]) if x["dtype"] == "i32" else rng.choice(["0.5", "-1.5"])
    return f"({{x}} % {y})", f"torch.remainder({{x}}, {y})", ()


@op("pow", ("f32",))
def _pow(rng, prog, x):
    e = rng.choice(["2", "0.5", "3.0", "0"])
    return f"({{x}} ** {e})", f"torch.pow({{x}}, {e})", ()


@op("clamp", ("f32", "i32"))
def _clamp(rng, prog, x):
    # known: clamp-number-nan-bound (the bounds are never NaN).
    lo, hi = (("-1.0", "1.5") if x["dtype"] == "f32" else ("-2", "3"))
    if rng.random() < 0.3:
        return f"clamp({{x}}, {lo})", f"torch.clamp({{x}}, {lo})", ()
    return f"clamp({{x}}, {lo}, {hi})", f"torch.clamp({{x}}, {lo}, {hi})", ()


@op("where", ("f32", "i32"))
def _where(rng, prog, x):
    c = new_input(rng, prog, "bool", broadcast_shape(rng, x["shape"]))
    yt, yp = operand(rng, prog, x, (x["dtype"],))
    if not yt.isalpha():
        yp = f"torch.tensor({yp}, dtype=torch.{'float32' if x['dtype'] == 'f32' else 'int32'})"
    return f"where({c}, {{x}}, {yt})", f"torch.where({c}, {{x}}, {yp})", ()


@op("logical_and", ("bool",))
def _logical_and(rng, prog, x):
    y = new_input(rng, prog, "bool", broadcast_shape(rng, x["shape"]))
    return f"logical_and({{x}}, {y})", f"torch.logical_and({{x}}, {y})", ()


@op("cast", ("f32", "i32", "bool"))
def _cast(rng, prog, x):
    to = rng.choice([d for d in ("f32", "i32", "bool") if d != x["dtype"]])
    if x["dtype"] == "f32" and to == "i32":
        # known: f32-to-i32-saturates (avoided: only in-range, non-NaN values are cast).
        return ("nan_to_num(clamp({x}, -1e6, 1e6)).to(i32)",
                "torch.nan_to_num(torch.clamp({x}, -1e6, 1e6)).to(torch.int32)", ())
    return f"{{x}}.to({to})", f"{{x}}.to({'torch.' + {'f32': 'float32', 'i32': 'int32', 'bool': 'bool'}[to]})", ()


# Reductions over a dim (and on 0-d tensors with dim 0/-1), with keepdim.
REDUCE = {  # Tessel: (PyTorch, dtypes)
    "sum": ("torch.sum", ("f32", "i32", "bool")), "mean": ("torch.mean", ("f32",)),
    "amax": ("torch.amax", ("f32", "i32")), "amin": ("torch.amin", ("f32", "i32")),
    "prod": ("torch.prod", ("f32", "i32")), "logsumexp": ("torch.logsumexp", ("f32",)),
    "var": ("torch.var", ("f32",)), "std": ("torch.std", ("f32",)),
    "norm": ("torch.linalg.vector_norm", ("f32",)),
}
for _n, (_p, _dts) in REDUCE.items():
    def _red(rng, prog, x, n=_n, p=_p):
        r = len(x["shape"])
        keep = rng.random() < 0.4
        if n in ("amax", "amin", "prod") and x["dtype"] == "bool":
            return None
        if n != "logsumexp" and rng.random() < 0.2:
            return f"{n}({{x}})", f"{p}({{x}})", ("reduce",)
        d = pick_dim(rng, r)
        pk = "dim" if n != "norm" else "dim"
        return (f"{n}({{x}}, dim = {d}, keepdim = {tsb(keep)})",
                f"{p}({{x}}, {pk}={d}, keepdim={pyb(keep)})", ("reduce",))
    op(_n, _dts)(_red)


@op("max_dim", ("f32", "i32"))
def _max_dim(rng, prog, x):
    f = rng.choice(["max", "min"])
    d = pick_dim(rng, len(x["shape"]))
    k = rng.choice([0, 1])
    return (f"{f}({{x}}, dim = {d})[{k}]", f"torch.{f}({{x}}, dim={d})[{k}]",
            ("reduce", "max_dim"))


@op("argmax", ("f32", "i32"))
def _argmax(rng, prog, x):
    f = rng.choice(["argmax", "argmin"])
    if rng.random() < 0.25:
        return f"{f}({{x}})", f"torch.{f}({{x}})", ()
    d = pick_dim(rng, len(x["shape"]))
    keep = rng.random() < 0.3
    return (f"{f}({{x}}, dim = {d}, keepdim = {tsb(keep)})",
            f"torch.{f}({{x}}, dim={d}, keepdim={pyb(keep)})", ())


@op("all_any", ("bool",))
def _all_any(rng, prog, x):
    f = rng.choice(["all", "any"])
    d = pick_dim(rng, len(x["shape"]))
    return f"{{x}}.{f}(dim = {d})", f"{{x}}.{f}(dim={d})", ()


@op("cumsum", ("f32", "i32", "bool"))
def _cumsum(rng, prog, x):
    f = rng.choice(["cumsum", "cumprod"])
    d = pick_dim(rng, len(x["shape"]))
    return f"{f}({{x}}, {d})", f"torch.{f}({{x}}, {d})", ("reduce",)


@op("softmax", ("f32",))
def _softmax(rng, prog, x):
    f = rng.choice(["softmax", "log_softmax"])
    d = pick_dim(rng, len(x["shape"]))
    return f"{f}({{x}}, {d})", f"F.{f}({{x}}, {d})", ("reduce",)


# ---- shape ops
@op("transpose")
def _transpose(rng, prog, x):
    r = len(x["shape"])
    a, b = pick_dim(rng, r), pick_dim(rng, r)
    return f"transpose({{x}}, {a}, {b})", f"torch.transpose({{x}}, {a}, {b})", ()


@op("permute", min_rank=2)
def _permute(rng, prog, x):
    p = list(range(len(x["shape"])))
    rng.shuffle(p)
    return f"permute({{x}}, {p})", f"{{x}}.permute({p})", ()


@op("reshape")
def _reshape(rng, prog, x):
    n = math.prod(x["shape"])
    divs = [d for d in range(1, n + 1) if n % d == 0] or [1]
    d = rng.choice(divs)
    shape = rng.choice([[-1], [d, -1], [-1, d, 1], [n]])
    return f"reshape({{x}}, {shape})", f"torch.reshape({{x}}, {shape})", ()


@op("flatten")
def _flatten(rng, prog, x):
    return "flatten({x})", "torch.flatten({x})", ()


@op("squeeze")
def _squeeze(rng, prog, x):
    if rng.random() < 0.4:
        return "squeeze({x})", "torch.squeeze({x})", ()
    d = pick_dim(rng, len(x["shape"]))
    return f"squeeze({{x}}, {d})", f"torch.squeeze({{x}}, {d})", ()


@op("unsqueeze")
def _unsqueeze(rng, prog, x):
    d = rng.randrange(-len(x["shape"]) - 1, len(x["shape"]) + 1)
    return f"unsqueeze({{x}}, {d})", f"torch.unsqueeze({{x}}, {d})", ()


@op("flip", min_rank=1)
def _flip(rng, prog, x):
    d = pick_dim(rng, len(x["shape"]), allow_bad=False)
    return f"flip({{x}}, [{d}])", f"torch.flip({{x}}, [{d}])", ()


@op("roll", min_rank=1)
def _roll(rng, prog, x):
    s = rng.choice([1, -2, 3])
    if rng.random() < 0.3:
        return f"roll({{x}}, {s})", f"torch.roll({{x}}, {s})", ()
    d = pick_dim(rng, len(x["shape"]), allow_bad=False)
    return f"roll({{x}}, {s}, {d})", f"torch.roll({{x}}, {s}, {d})", ()


@op("cat", min_rank=1)
def _cat(rng, prog, x):
    if rng.random() < 0.5:
        return "cat([{x}, {x}[1:]], 0)", "torch.cat([{x}, {x}[1:]], 0)", ()
    d = pick_dim(rng, len(x["shape"]), allow_bad=False)
    return f"stack([{{x}}, {{x}}], {d})", f"torch.stack([{{x}}, {{x}}], {d})", ()


@op("slice", min_rank=1)
def _slice(rng, prog, x):
    s = rng.choice(["[1:]", "[::2]", "[:-1]", "[1:3]", "[0]", "[-1]", "[..., 1:]", "[:, ::2]"])
    if s.startswith("[:,") and len(x["shape"]) < 2:
        s = "[1:]"
    return "{x}" + s, "{x}" + s, ()


@op("chunk", min_rank=1)
def _chunk(rng, prog, x):
    c, k = rng.choice([(2, 0), (2, 1), (3, 1), (3, -1)])
    # KNOWN BUG? (none yet) chunk of an empty dim: see the findings' B17.
    return f"chunk({{x}}, {c})[{k}]", f"torch.chunk({{x}}, {c})[{k}]", ()


@op("split", min_rank=1)
def _split(rng, prog, x):
    return "split({x}, 2)[0]", "torch.split({x}, 2)[0]", ()


@op("pad", min_rank=1)
def _pad(rng, prog, x):
    p = rng.choice([[1, 2], [0, 1], [2, 0], [1, -1]])
    v = "1.5" if x["dtype"] == "f32" else "0"
    if x["dtype"] == "bool":
        return None
    return f"pad({{x}}, {p}, {v})", f"F.pad({{x}}, {p}, value={v})", ()


@op("repeat")
def _repeat(rng, prog, x):
    reps = [rng.choice([1, 2]) for _ in range(len(x["shape"]) + rng.choice([0, 1]))] or [2]
    return f"{{x}}.repeat({reps})", f"{{x}}.repeat({reps})", ()


@op("expand", min_rank=1)
def _expand(rng, prog, x):
    return "expand(unsqueeze({x}, 0), [2] + list({x}.shape))", \
        "{x}.unsqueeze(0).expand(*([2] + list({x}.shape)))", ()


@op("tril", min_rank=2)
def _tril(rng, prog, x):
    f, k = rng.choice(["tril", "triu"]), rng.choice([0, 1, -1])
    return f"{f}({{x}}, {k})", f"torch.{f}({{x}}, {k})", ()


# ---- indexing
def index_input(rng, prog, size, shape):
    """An i32 index input with values in [0, size) (known: negative-index: never negative),
    now and then one equal to size (out of range: both must raise IndexError)."""
    hi = max(size, 1) + (1 if rng.random() < 0.05 else 0)
    return new_input(rng, prog, "i32", shape, view="plain", range=(0, hi))


@op("index_select", min_rank=1)
def _index_select(rng, prog, x):
    r = len(x["shape"])
    d = rng.randrange(r)
    i = index_input(rng, prog, x["shape"][d], (rng.choice([0, 1, 2, 4]),))
    if rng.random() < 0.3 and d == 0:
        return f"{{x}}[{i}]", f"{{x}}[{i}.long()]", ()
    return f"index_select({{x}}, {d}, {i})", f"torch.index_select({{x}}, {d}, {i}.long())", ()


@op("gather", min_rank=1)
def _gather(rng, prog, x):
    r = len(x["shape"])
    d = rng.randrange(r)
    shape = tuple(rng.choice([1, s]) if k != d else rng.choice([1, 2, 3])
                  for k, s in enumerate(x["shape"]))
    i = index_input(rng, prog, x["shape"][d], shape)
    return f"gather({{x}}, {d}, {i})", f"torch.gather({{x}}, {d}, {i}.long())", ()


@op("scatter_add", ("f32", "i32"), min_rank=1)
def _scatter_add(rng, prog, x):
    r = len(x["shape"])
    d = rng.randrange(r)
    shape = tuple(rng.choice([1, s]) if k != d else rng.choice([1, 2, 3])
                  for k, s in enumerate(x["shape"]))
    i = index_input(rng, prog, x["shape"][d], shape)
    s = new_input(rng, prog, x["dtype"], shape, view="plain")
    f = rng.choice(["scatter_add", "scatter"])
    # (src as x's dtype in PyTorch: known: int64-is-i32 makes x int64 there)
    return (f"{f}({{x}}, {d}, {i}, {s})",
            f"torch.{f}({{x}}, {d}, {i}.long(), {s}.to({{x}}.dtype))", ())


@op("index_add", ("f32", "i32"), min_rank=1)
def _index_add(rng, prog, x):
    k = rng.choice([1, 2, 3])
    i = index_input(rng, prog, x["shape"][0], (k,))
    s = new_input(rng, prog, x["dtype"], (k,) + tuple(x["shape"][1:]), view="plain")
    f = rng.choice(["index_add", "index_copy"])
    if f == "index_copy":
        prog["inputs"][-2]["unique"] = True  # duplicates: PyTorch's index_copy is undefined
        return (f"index_copy({{x}}, 0, {i}, {s})", f"torch.index_copy({{x}}, 0, {i}.long(), {s}.to({{x}}.dtype))",
                ())
    return (f"index_add({{x}}, 0, {i}, {s})",
            f"torch.index_add({{x}}, 0, {i}.long(), {s}.to({{x}}.dtype))", ())


@op("masked_fill", ("f32", "i32"))
def _masked_fill(rng, prog, x):
    m = new_input(rng, prog, "bool", broadcast_shape(rng, x["shape"]))
    v = "-1.0" if x["dtype"] == "f32" else "7"
    return f"masked_fill({{x}}, {m}, {v})", f"torch.masked_fill({{x}}, {m}, {v})", ()


@op("mask_select", ("f32", "i32"), min_rank=1)
def _mask_select(rng, prog, x):
    # A data-dependent size (tpu: bounded).
    if rng.random() < 0.5:
        return "{x}[{x} > 0]", "{x}[{x} > 0]", ("datadep",)
    return "masked_select({x}, {x} > 0)", "torch.masked_select({x}, {x} > 0)", ("datadep",)


@op("sort", ("f32", "i32"))
def _sort(rng, prog, x):
    d = pick_dim(rng, len(x["shape"]))
    desc = rng.random() < 0.5
    k = rng.choice([0, 1])
    # Equal keys make sort's indices ambiguous; stable = true pins them (as PyTorch's stable).
    if k == 1:
        return (f"sort({{x}}, {d}, {tsb(desc)}, stable = true)[1]",
                f"torch.sort({{x}}, dim={d}, descending={pyb(desc)}, stable=True)[1]", ())
    return (f"sort({{x}}, {d}, {tsb(desc)})[0]",
            f"torch.sort({{x}}, dim={d}, descending={pyb(desc)})[0]", ())


@op("topk", ("f32", "i32"))
def _topk(rng, prog, x):
    d = pick_dim(rng, len(x["shape"]))
    k = rng.choice([0, 1, 2])
    # (values only: which of tied elements topk picks is unspecified in PyTorch)
    return f"topk({{x}}, {k}, {d})[0]", f"torch.topk({{x}}, {k}, {d})[0]", ()


@op("matmul", ("f32",), min_rank=1)
def _matmul(rng, prog, x):
    k = x["shape"][-1]
    y = new_input(rng, prog, "f32", (k, rng.choice([1, 2, 3])) if rng.random() < 0.8 else (k,))
    return f"matmul({{x}}, {y})", f"torch.matmul({{x}}, {y})", ("reduce",)


# ---- nn ops
@op("layer_norm", ("f32",), min_rank=1)
def _layer_norm(rng, prog, x):
    n = x["shape"][-1]
    return f"layer_norm({{x}}, [{n}])", f"F.layer_norm({{x}}, [{n}])", ("reduce",)


@op("conv2d", ("f32",), min_rank=3)
def _conv2d(rng, prog, x):
    c = x["shape"][-3]
    if c == 0:  # known: conv2d-no-in-channels (PyTorch 1.13 returns 0 output channels)
        return None
    o, k = rng.choice([1, 2]), rng.choice([1, 2, 3])
    w = new_input(rng, prog, "f32", (o, c, k, k), view="plain", values="normal")
    pad = rng.choice([0, 1])
    # known: conv-weight-grad-padding (conv programs get inputs without infinities).
    prog["no_specials"] = True
    return (f"conv2d({{x}}, {w}, padding = {pad})", f"F.conv2d({{x}}, {w}, padding={pad})",
            ("reduce",))


@op("pool", ("f32",), min_rank=3)
def _pool(rng, prog, x):
    f = rng.choice(["max_pool2d", "avg_pool2d"])
    k = rng.choice([1, 2])
    return f"{f}({{x}}, {k})", f"F.{f}({{x}}, {k})", ("reduce",)


@op("loss", ("f32",), min_rank=1)
def _loss(rng, prog, x):
    f = rng.choice(["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
                    "binary_cross_entropy_with_logits", "binary_cross_entropy"])
    red = rng.choice(["mean", "sum", "none"])
    t = new_input(rng, prog, "f32", x["shape"], view="plain",
                  values="prob" if "binary" in f else None)
    xt = xp = "{x}"
    if f == "binary_cross_entropy":  # known: bce-out-of-range (its input is a sigmoid)
        xt, xp = "sigmoid({x})", "torch.sigmoid({x})"
    return (f"{f}({xt}, {t}, reduction = \"{red}\")", f"F.{f}({xp}, {t}, reduction='{red}')",
            ("reduce",))


@op("cross_entropy", ("f32",), min_rank=2)
def _cross_entropy(rng, prog, x):
    if len(x["shape"]) != 2:
        return None
    n, c = x["shape"]
    t = index_input(rng, prog, c, (n,))
    red = rng.choice(["mean", "sum", "none"])
    f = rng.choice(["cross_entropy", "nll_loss"])
    return (f"{f}({{x}}, {t}, reduction = \"{red}\")",
            f"F.{f}({{x}}, {t}.long(), reduction='{red}')", ("reduce",))


# ---- Programs -------------------------------------------------------------------------------
def meta(t):
    return {"dtype": DTYPE[t.dtype], "shape": tuple(t.shape)}


def torch_env(prog, inputs=None):
    env = {"torch": torch, "F": torch.nn.functional}
    for inp in prog["inputs"]:
        env[inp["name"]] = torch_input(inp) if inputs is None else inputs[inp["name"]]
    return env


def run_torch(prog, env):
    """The program's value under PyTorch, or the exception it raises."""
    x = env[prog["inputs"][0]["name"]]
    for _, p, _ in prog["steps"]:
        x = eval(p.replace("{x}", "_x"), {**env, "_x": x})
    return x


def generate(seed):
    """Program for `seed`: its inputs and a chain of ops, checked op by op with PyTorch."""
    rng = random.Random(seed)
    prog = {"seed": seed, "inputs": [], "steps": [], "ops": []}
    image = rng.random() < 0.12
    shape = ((rng.choice([1, 2]), rng.choice([1, 2, 3]), rng.choice([3, 4, 5]),
              rng.choice([3, 4, 6])) if image else rand_shape(rng))
    dtype = rng.choice(["f32"] * 6 + ["i32"] * 2 + ["bool"])
    new_input(rng, prog, dtype, shape)
    x = meta(torch_input(prog["inputs"][0]))
    n_ops = rng.randint(3, 8)
    tries = 0
    while len(prog["steps"]) < n_ops and tries < 60:
        tries += 1
        name = rng.choice(sorted(OPS))
        f, dtypes, min_rank = OPS[name]
        if x["dtype"] not in dtypes or len(x["shape"]) < min_rank:
            continue
        n_inputs = len(prog["inputs"])
        made = f(rng, prog, x)
        if made is None:
            del prog["inputs"][n_inputs:]
            continue
        prog["steps"].append(made)
        prog["ops"].append(name)
        fix_inputs(prog)
        try:
            out = run_torch(prog, torch_env(prog))
        except Exception:
            if rng.random() < 0.3:   # keep some programs PyTorch rejects: Tessel must too
                break
            prog["steps"].pop()
            prog["ops"].pop()
            del prog["inputs"][n_inputs:]
            continue
        if isinstance(out, (tuple, list)) or out.dtype not in DTYPE:
            prog["steps"].pop()
            prog["ops"].pop()
            del prog["inputs"][n_inputs:]
            continue
        x = meta(out)
    return prog


def fix_inputs(prog):
    # known: conv-weight-grad-padding: no infinities where a conv follows.
    if prog.get("no_specials"):
        for inp in prog["inputs"]:
            if inp["values"] == "special":
                inp["values"] = "normal"


# ---- Scripts ---------------------------------------------------------------------------------
def except_chain(tag):
    return " ".join(f'except {k} as e {{ print("E|{tag}", e.kind) }}' for k in KINDS)


def tessel_fn(prog, pid):
    args = ", ".join(i["name"] for i in prog["inputs"])
    lines = [f"fn p{pid}({args}) {{", f"  let v0 = {prog['inputs'][0]['name']}"]
    for k, (t, _, _) in enumerate(prog["steps"]):
        lines.append(f"  let v{k + 1} = " + t.replace("{x}", f"v{k}"))
    lines.append(f"  return v{len(prog['steps'])}")
    lines.append("}")
    return "\n".join(lines)


def tessel_inputs(prog, pid, suffix=""):
    """`let` lines making the inputs as views of literal bases (names pP_a...)."""
    out = []
    for inp in prog["inputs"]:
        b = f"p{pid}{suffix}_{inp['name']}_base"
        out.append(f"let {b} = {literal(base_tensor(inp))}")
        out.append(f"let p{pid}{suffix}_{inp['name']} = {view_exprs(inp, b)[0]}")
    return out


def grow(prog):
    """The program's inputs for the compiled run's second size: dim 0 of the first input
    grows by 2 (a different size, so the compiled function must serve a new shape)."""
    p2 = {**prog, "inputs": [dict(i) for i in prog["inputs"]]}
    first = p2["inputs"][0]
    if first["shape"]:
        first["shape"] = (first["shape"][0] + 2,) + tuple(first["shape"][1:])
        first["seed"] += 1
    return p2


def weights(shape):
    n = math.prod(shape)
    return torch.sin(torch.arange(n, dtype=torch.float32) * 0.7 + 0.3).reshape(shape)


def grad_args(prog):
    return [k for k, i in enumerate(prog["inputs"]) if i["dtype"] == "f32"]


def program_block(prog, pid, modes):
    """Tessel code running `prog` in `modes`, each printing `R|pid|mode <value>` or
    `E|pid|mode <kind>`."""
    out = [tessel_fn(prog, pid)] + tessel_inputs(prog, pid)
    names = ", ".join(f"p{pid}_{i['name']}" for i in prog["inputs"])

    def guarded(mode, expr):
        tag = f"{pid}|{mode}"
        out.append(f'try {{ print("R|{tag}", tl({expr})) }} {except_chain(tag)}')
    if "eager" in modes:
        guarded("eager", f"p{pid}({names})")
    if "compile" in modes:
        big = grow(prog)
        out += tessel_inputs(big, pid, "g")
        names2 = ", ".join(f"p{pid}g_{i['name']}" for i in big["inputs"])
        out.append(f"let c{pid} = compile(p{pid})")
        guarded("compile1", f"c{pid}({names})")
        guarded("compile2", f"c{pid}({names2})")
    if "grad" in modes and prog.get("want_shape") is not None:
        w = literal(weights(prog["want_shape"]))
        args = ", ".join(i["name"] for i in prog["inputs"])
        guarded("grad", f"grad(fn({args}) {{ return sum(p{pid}({args}) * {w}) }}, "
                        f"argnums = {grad_args(prog)})({names})")
    return "\n".join(out)


def run_tessel(tessel, text, device="cpu", timeout=120):
    with tempfile.NamedTemporaryFile("w", suffix=".dsl", delete=False) as f:
        f.write(text)
        path = f.name
    env = dict(os.environ, XDG_RUNTIME_DIR=os.environ.get("XDG_RUNTIME_DIR", "/tmp"),
               LP_NUM_THREADS="0")
    if device != "cpu":
        env["TESSEL_DEVICE"] = device
    try:
        p = subprocess.run([tessel, path], capture_output=True, text=True, timeout=timeout,
                           env=env)
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(path)
    return p


def parse(stdout):
    res = {}
    ev = {"nan": math.nan, "inf": math.inf, "true": True, "false": False}
    for line in stdout.splitlines():
        if not (line.startswith("R|") or line.startswith("E|")):
            continue
        head, _, body = line.partition(" ")
        kind, pid, mode = head.split("|")
        if kind == "R":
            try:
                res[(int(pid), mode)] = ("value", eval(body, {}, ev))
            except Exception:
                res[(int(pid), mode)] = ("unparsed", body)
        else:
            res[(int(pid), mode)] = ("error", body.strip())
    return res


def crashed(p):
    """A batch that did not end normally: a signal, a timeout, or an uncaught error."""
    return p is None or p.returncode != 0


# ---- PyTorch's side ------------------------------------------------------------------------
def expected(prog, modes):
    """{mode: ("value", tensor) | ("error", exc)} from PyTorch, and the grads."""
    want = {}
    env = torch_env(prog)
    try:
        out = run_torch(prog, env)
        want["eager"] = ("value", out)
    except Exception as e:
        want["eager"] = ("error", e)
    if "compile" in modes:
        want["compile1"] = want["eager"]
        try:
            want["compile2"] = ("value", run_torch(prog, torch_env(grow(prog))))
        except Exception as e:
            want["compile2"] = ("error", e)
    prog["want_shape"] = None
    if ("grad" in modes and want["eager"][0] == "value" and want["eager"][1].dtype ==
            torch.float32 and grad_args(prog)):
        genv = {k: (v.detach().requires_grad_() if isinstance(v, torch.Tensor) and
                    v.dtype == torch.float32 else v) for k, v in env.items()}
        try:
            out = run_torch(prog, genv)
            loss = (out * weights(out.shape)).sum()
            leaves = [genv[prog["inputs"][k]["name"]] for k in grad_args(prog)]
            gs = torch.autograd.grad(loss, leaves, allow_unused=True)
            want["grad"] = ("value", [torch.zeros_like(l) if g is None else g
                                      for g, l in zip(gs, leaves)])
            prog["want_shape"] = tuple(out.shape)
        except Exception:
            pass  # PyTorch has no gradient here: no grad check
    return want


# ---- Comparison ----------------------------------------------------------------------------
def tolerance(prog, mode):
    k = 1 + 4 * sum("reduce" in tags for _, _, tags in prog["steps"])
    if mode == "grad":
        k *= 10
    return RTOL * k * 10, ATOL * k


def accept(key):
    ACCEPTED[key] += 1
    return None


def compare_value(prog, mode, got, want):
    """None when Tessel's [values, dtype, shape] agrees with PyTorch's tensor."""
    vals, dtype, shape = got
    if shape != list(want.shape):
        return f"shape {shape}, PyTorch {list(want.shape)}"
    if dtype != DTYPE[want.dtype]:
        return f"dtype {dtype}, PyTorch {want.dtype}"
    wl = want.tolist()
    if want.dtype == torch.int64 and any(abs(v) >= 2**31 for v in flat(wl) if True):
        return accept("i32-wraps")
    if want.dtype == torch.int32 and any(abs(v) >= 2**30 for v in flat(wl)):
        return accept("i32-wraps")  # (PyTorch's int32 may wrap differently once promoted)
    rtol, atol = tolerance(prog, mode)
    if not close(vals, wl, rtol, atol):
        if rounding_after_approximation(prog):
            NOISE[0] += 1
            return None
        return f"values {vals}, PyTorch {wl}"
    return None


NOISE = [0]
# Ops whose result jumps: last-bit differences before them (a mean, a norm) become 0 vs 1.
DISCONTINUOUS = ("floordiv", "remainder", "floor", "round", "sign", "gt", "eq", "le", "cast",
                 "argmax", "sort", "mask_select")


def rounding_after_approximation(prog):
    """True when a discontinuous op follows an inexact one (a reduction or a transcendental):
    a value mismatch there is rounding noise, not a Tessel bug (a limit of the tester)."""
    inexact = False
    for name, (_, _, tags) in zip(prog["ops"], prog["steps"]):
        if name in DISCONTINUOUS and inexact:
            return True
        inexact = inexact or "reduce" in tags or name in UNARY_F or name in ("div", "pow")
    return False


def has_nan_or_ties(prog):
    return any(i["values"] in ("special", "ties") for i in prog["inputs"])


def compare(prog, mode, got, want, device):
    """None, or (category, message) for one mode of one program."""
    r = compare1(prog, mode, got, want, device)
    bug = r and known_bug(prog, mode, got, want)
    if bug:
        EXCLUDED[bug] += 1
        return None
    return r


def compare1(prog, mode, got, want, device):
    if want[0] == "error":
        if got[0] == "value" and "between 0 and 1" in str(want[1]):
            return accept("bce-out-of-range")  # (a NaN input: sigmoid(nan))
        if got[0] == "value":
            return ("missing_error", f"PyTorch raises {type(want[1]).__name__}: "
                    f"{str(want[1]).splitlines()[0][:200]}; Tessel gives {str(got[1])[:300]}")
        if got[0] == "error" and isinstance(want[1], IndexError) and got[1] != "IndexError":
            return ("error_kind", f"PyTorch raises IndexError, Tessel {got[1]}")
        return None
    if got[0] == "error":
        if device == "tpu" and got[1] == "ShapeError" and "datadep" in str(prog["steps"]):
            return accept("tpu-unbacked-broadcast")
        if got[1] == "ShapeError" and "index_add" in prog["ops"]:
            return accept("index-add-slices")  # (a squeeze that kept a dim on other sizes)
        return ("unexpected_error", f"Tessel raises {got[1]}; PyTorch gives "
                f"{str(want[1].tolist() if mode != 'grad' else [g.tolist() for g in want[1]])[:300]}")
    if got[0] != "value":
        return ("unparsed", str(got[1])[:300])
    if mode == "grad":
        rtol, atol = tolerance(prog, mode)
        for k, (g, w) in enumerate(zip(got[1], want[1])):
            if not close(g[0], w.tolist(), rtol, atol):
                ops = set(prog["ops"])
                # A NaN extreme may also come from an op (log1p of x < -1): PyTorch's NaN row.
                nan_row = nan_where_finite(w.tolist(), g[0])
                if ops & {"amax", "amin", "max_dim"} and (has_nan_or_ties(prog) or nan_row):
                    return accept("amax-grad-nan" if nan_row or any(
                        i["values"] == "special" for i in prog["inputs"]) else "max-dim-grad-ties")
                if ops & {"norm", "std", "var"} and any(
                        isinstance(v, float) and math.isnan(v) for v in flat(g[0])):
                    return accept("norm-std-grad-zero")
                return ("grad", f"gradient {k}: {g[0]}, PyTorch {w.tolist()}")
        return None
    msg = compare_value(prog, mode, got[1], want[1])
    return ("values", msg) if msg else None


# ---- Running, reducing, reporting ---------------------------------------------------------
def modes_for(device):
    return ("eager", "compile", "grad") if device == "cpu" else ("eager", "grad")


def check_programs(tessel, progs, device, modes=None):
    """[(prog, mode, category, message)] for the programs of one batch on one device."""
    modes = modes or modes_for(device)
    # (only the modes asked for: a reduction reruns one mode)
    wants = [{m: w for m, w in expected(p, modes).items() if m.rstrip("12") in modes}
             for p in progs]
    text = PRELUDE + "\n".join(program_block(p, k, modes) for k, p in enumerate(progs))
    proc = run_tessel(tessel, text, device)
    found = []
    if crashed(proc):
        if len(progs) == 1:
            err = "timeout" if proc is None else f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"
            return [(progs[0], "batch", "crash", err)]
        for p in progs:  # find the culprit(s) one by one
            found += check_programs(tessel, [p], device, modes)
        return found
    got = parse(proc.stdout)
    for k, (p, want) in enumerate(zip(progs, wants)):
        for mode, w in want.items():
            g = got.get((k, mode))
            if g is None:
                found.append((p, mode, "missing_output", "no line printed"))
                continue
            r = compare(p, mode, g, w, device)
            if r:
                found.append((p, mode) + r)
    return found


def still_fails(tessel, prog, mode, category, device):
    try:
        modes = ("compile",) if mode.startswith("compile") else (mode,)
        found = check_programs(tessel, [prog], device, modes if mode != "batch" else None)
    except Exception:
        return False
    return any(f[1] == mode and f[2] == category for f in found) or (
        category == "crash" and any(f[2] == "crash" for f in found))


def candidates(prog):
    """Smaller versions of prog: one op dropped, an input shrunk or simplified."""
    steps, ops = prog["steps"], prog["ops"]
    for k in range(len(steps)):
        yield {**prog, "steps": steps[:k] + steps[k + 1:], "ops": ops[:k] + ops[k + 1:]}
    yield from shrink_everywhere(prog)
    for k, inp in enumerate(prog["inputs"]):
        for simpler in (dict(inp, view="plain"), dict(inp, values="normal"),
                        dict(inp, values="ones")):
            if simpler != inp and (simpler["values"] != "ones" or inp["dtype"] == "f32"):
                yield {**prog, "inputs": prog["inputs"][:k] + [simpler] + prog["inputs"][k + 1:]}
        for d, s in enumerate(inp["shape"]):
            if s > 1:
                shape = tuple(inp["shape"][:d]) + (s - 1,) + tuple(inp["shape"][d + 1:])
                yield {**prog, "inputs": prog["inputs"][:k] + [dict(inp, shape=shape)] +
                       prog["inputs"][k + 1:]}


def shrink_everywhere(prog):
    """Each size s > 1 replaced by 1, then by s - 1, in every input at once (so inputs
    that broadcast together keep doing so)."""
    sizes = sorted({d for i in prog["inputs"] for d in i["shape"] if d > 1}, reverse=True)
    for s in sizes:
        for new in (1, s - 1):
            yield {**prog, "inputs": [dict(i, shape=tuple(new if d == s else d for d in i["shape"]))
                                      for i in prog["inputs"]]}


def drop_unused(prog):
    """prog without the inputs its remaining steps do not name."""
    text = " ".join(t + p for t, p, _ in prog["steps"])
    keep = [i for k, i in enumerate(prog["inputs"])
            if k == 0 or re.search(rf"\b{i['name']}\b", text)]
    return {**prog, "inputs": keep}


def reduce(tessel, prog, mode, category, device, seconds=60):
    """Greedy reduction: take the first smaller candidate that still fails, until none does
    (or `seconds` pass: each candidate costs a tessel run)."""
    prog = drop_unused(prog)
    end = time.time() + seconds
    while time.time() < end:
        for c in candidates(prog):
            c = drop_unused(c)
            if still_fails(tessel, c, mode, category, device):
                prog = c
                break
        else:
            break
    return prog


def fmt_expect(v):
    """A value as Tessel prints it (nan, inf, true)."""
    return fmt_value(v).replace('float("nan")', "nan").replace('float("inf")', "inf").replace(
        'float("-inf")', "-inf")


def golden(prog, device, mode):
    """The reduced program as a golden script (Tessel) and its PyTorch twin."""
    lines = [f"# differential.py seed {prog['seed']}, {mode} on {device}"]
    env = torch_env(prog)
    for inp in prog["inputs"]:
        b = literal(base_tensor(inp))
        lines.append(f"let {inp['name']} = {view_exprs(inp, '(' + b + ')')[0]}")
    lines.append(tessel_fn(prog, 0))
    args = ", ".join(i["name"] for i in prog["inputs"])
    call = f"p0({args})"
    if mode.startswith("compile"):
        lines.append(f"let cp = compile(p0)")
        call = f"cp({args})"
        if mode == "compile2":  # first the original size, then the grown one
            lines.append(f"print(cp({args}).tolist())")
            big = grow(prog)
            for inp in big["inputs"][:1]:
                lines.append(f"let {inp['name']}2 = "
                             f"{view_exprs(inp, '(' + literal(base_tensor(inp)) + ')')[0]}")
            env = torch_env(big)
            call = f"cp({args.replace(big['inputs'][0]['name'], big['inputs'][0]['name'] + '2', 1)})"
    try:
        want = run_torch(prog, env)
        lines.append(f"let r = {call}")
        if mode == "grad":
            w = literal(weights(tuple(want.shape)))
            lines[-1] = (f"let r = grad(fn({args}) {{ return sum(p0({args}) * {w}) }}, "
                         f"argnums = {grad_args(prog)})({args})")
            for k, g in enumerate(expected(prog, ("grad",)).get("grad", ("", []))[1]):
                lines.append(f"print(r[{k}].tolist())  # expect: {fmt_expect(g.tolist())}")
        else:
            lines.append(f"print(r.tolist(), r.dtype, r.shape)  # expect: "
                         f"{fmt_expect(want.tolist())} {DTYPE[want.dtype]} {list(want.shape)}")
    except Exception as e:
        lines.append(f"print({call})  # expect error: {type(e).__name__}: "
                     f"{str(e).splitlines()[0]}")
    tw = ["import torch, torch.nn.functional as F"]
    for inp in prog["inputs"]:
        b = f"torch.tensor({base_tensor(inp).tolist()}, dtype=torch.{TORCH_DTYPE[inp['dtype']]})"
        b = b.replace("torch.torch.", "torch.").replace("nan", "float('nan')").replace(
            "inf", "float('inf')")
        tw.append(f"{inp['name']} = {view_exprs(inp, '(' + b + ')')[1]}")
    x = prog["inputs"][0]["name"]
    for k, (_, p, _) in enumerate(prog["steps"]):
        tw.append(f"v{k + 1} = " + p.replace("{x}", x))
        x = f"v{k + 1}"
    tw.append(f"print({x})")
    return "\n".join(lines), "\n".join(tw)


def tessel_output(tessel, script, device):
    p = run_tessel(tessel, script, device)
    if p is None:
        return "timeout"
    return (p.stdout + p.stderr).strip()[-800:] + ("" if p.returncode == 0 else
                                                  f"  [exit {p.returncode}]")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tessel")
    ap.add_argument("--seeds", default="0:200")
    ap.add_argument("--devices", default="cpu")
    ap.add_argument("--budget", type=float, default=0, help="stop after this many seconds")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--no-reduce", action="store_true")
    a = ap.parse_args()
    lo, hi = (int(s) for s in a.seeds.split(":"))
    devices = a.devices.split(",")
    start = time.time()
    ran, findings = 0, []
    for s in range(lo, hi, BATCH):
        if a.budget and time.time() - start > a.budget:
            print(f"budget reached after seed {s}")
            break
        progs = [generate(seed) for seed in range(s, min(s + BATCH, hi))]
        for dev in devices:
            found = check_programs(a.tessel, progs, dev)
            findings += [(dev,) + f for f in found]
            ran += len(progs)
        if a.verbose:
            print(f"seeds {s}..{min(s + BATCH, hi) - 1}: {len(findings)} mismatches so far "
                  f"({time.time() - start:.0f}s)", flush=True)
    seen = set()
    reduced = 0
    for dev, prog, mode, cat, msg in findings:
        key = (dev, mode, cat, tuple(prog["ops"]))
        if key in seen:
            continue
        seen.add(key)
        # (the first 20 distinct mismatches are reduced; the others print as generated)
        small = prog if a.no_reduce or reduced >= 20 else reduce(a.tessel, prog, mode, cat, dev)
        reduced += 1
        script, twin = golden(small, dev, mode)
        got = tessel_output(a.tessel, PRELUDE + script, dev)
        print(f"MISMATCH seed {prog['seed']} device {dev} mode {mode} ({cat}): {msg}\n"
              f"  ops: {' '.join(small['ops'])}\n--- Tessel ---\n{script}\n"
              f"--- Tessel output ---\n{got}\n--- PyTorch ---\n{twin}\n", flush=True)
    acc = ", ".join(f"{k} {v}" for k, v in ACCEPTED.items() if v)
    exc = ", ".join(f"{k} {v}" for k, v in EXCLUDED.items() if v)
    print(f"known bugs excluded: {exc or 'none'}; rounding noise after inexact ops: {NOISE[0]}")
    print(f"{ran} program runs ({hi - lo} seeds x {len(devices)} devices), "
          f"{len(findings)} mismatches ({len(seen)} distinct), "
          f"{time.time() - start:.0f}s; known differences accepted: {acc or 'none'}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
