#!/usr/bin/env python3
"""PyTorch parity of every op, alias and decomposition of ops/elementwise.ops, driven by the
definitions themselves.

Usage: elementwise_parity.py TESSEL [--devices cpu,vulkan,tpu] [NAME_SUBSTRING]

For each op (and alias) the definitions are read with tools/opgen.py's own parser, and one
Tessel script per op and device computes: values on inputs drawn from the definition's sample
ranges (the second and third arguments broadcast), on every pairing of special values (NaN,
+-inf, +-0, tiny, huge), on i32 inputs where the op keeps integers; the same op compiled
(@compile) on two sizes; and the gradient of sum(op(...) * w) with respect to each argument with
a gradient formula. Each must match PyTorch 1.13 (values, dtypes, shapes; NaN where PyTorch has
NaN, infinities exactly). A device that is not there (vulkan without a driver) is skipped with a
message. Exits 77 (CTest's skip) when PyTorch is missing.
"""
import itertools
import math
import os
import subprocess
import sys
import tempfile

try:
    import torch
except ImportError:
    print("SKIP: PyTorch is not installed (apt-get install python3-torch)")
    sys.exit(77)

from parity_common import DTYPE, close, literal  # noqa: E402 (needs torch)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import opgen  # noqa: E402

SPECIALS = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-6, 3e4, -1e30]
# GPU trigonometry and division lose the low digits of huge arguments (lavapipe's tan(-1e30),
# fmod(-1e30, 3e4)): docs/differences.md, "Huge arguments on vulkan".
HUGE = -1e30
# Values within 1e-5 of PyTorch's (relative, or absolute near 0); the vulkan shaders' built-in
# transcendental functions (lavapipe's) are looser.
TOL = {"cpu": 1e-5, "tpu": 1e-5, "vulkan": 2e-4}

PRELUDE = """fn tl(v) {
  if type(v) == "tuple" or type(v) == "list" {
    let r = []
    for e in v { r.append(tl(e)) }
    return r
  }
  return [v.tolist(), str(v.dtype), [int(d) for d in v.shape]]
}
"""


def sample(lo, hi, *shape, gen):
    return torch.rand(shape, generator=gen) * (hi - lo) + lo


def tensor_args(op):
    """The arguments a test passes: a decomposition's number arguments keep their defaults."""
    return op.tensors if isinstance(op, opgen.Decomp) else op.args


def grad_args(op):
    """Decompositions differentiate through their ops: every tensor argument has a gradient."""
    if isinstance(op, opgen.Decomp):
        return op.tensors
    return [a for a in op.args if a in op.grads]


def torch_call(op, args):
    names = tensor_args(op)
    env = dict(zip(names, args))
    if isinstance(op, opgen.Decomp):  # its numbers at their defaults, as the test passes them
        env.update({a: d for a, d in zip(op.args, op.defaults) if d is not None})
    env["torch"] = torch
    module = "torch.nn.functional" if isinstance(op, opgen.Decomp) else "torch"
    expr = op.torch or f"{module}.{op.name}({', '.join(names)})"
    return eval(expr, env)


def cases(op, gen, device):
    """(label, inputs, with_grad): inputs are tensors, one per argument."""
    names = tensor_args(op)
    n = len(names)
    shapes = [(6, 5), (5,), (6, 1)][:n]
    rng = [op.samples.get(a, (-3.0, 3.0)) for a in names]
    out = [("sampled", [sample(lo, hi, *s, gen=gen) for (lo, hi), s in zip(rng, shapes)], True)]
    specials = [v for v in SPECIALS if device != "vulkan" or v != HUGE]
    combos = list(itertools.product(specials, repeat=n))
    cols = list(zip(*combos))
    out.append(("special values", [torch.tensor(c, dtype=torch.float32) for c in cols], False))
    if op.result == "same" or getattr(op, "target", None):
        ints = [torch.randint(-5, 6, s, generator=gen, dtype=torch.int32) for s in shapes]
        if op.int_divisor or getattr(op, "target", None):
            ints[1][ints[1] == 0] = 3
        out.append(("i32", ints, False))
    return out


def program_for(op, label, inputs, with_grad):
    names = tensor_args(op)
    lets = "".join(f"let {a} = {literal(t)}\n" for a, t in zip(names, inputs))
    call = f"{op.name}({', '.join(names)})"
    prog = lets + f"print(tl({call}))\n"
    grads = grad_args(op) if with_grad else []
    if grads:
        w = literal(torch.sin(torch.arange(30, dtype=torch.float32) * 0.7 + 0.3).reshape(6, 5))
        params = ", ".join(names)
        prog += (f"let w = {w}\n"
                 f"print(tl(grad(fn ({params}) {{ return ({call} * w).sum() }}, argnums = "
                 f"{[names.index(a) for a in grads]})({params})))\n")
    if label == "sampled":
        # Compiled on two sizes: the second call reuses or re-specializes the graph; both
        # must equal eager PyTorch.
        params = ", ".join(names)
        sliced = ", ".join(f"{a}[0:4]" if t.dim() == 2 else a for a, t in zip(names, inputs))
        prog += (f"@compile\nfn f({params}) {{ return {call} }}\n"
                 f"print(tl(f({params})))\nprint(tl(f({sliced})))\n")
    return prog, grads


def run(tessel, device, program):
    with tempfile.NamedTemporaryFile("w", suffix=".dsl", delete=False) as f:
        f.write(PRELUDE + program)
        path = f.name
    env = dict(os.environ, TESSEL_DEVICE=device, TESSEL_PGO="0")
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    try:
        return subprocess.run([tessel, path], capture_output=True, text=True, timeout=120, env=env)
    finally:
        os.unlink(path)


def compare(got, want, tol):
    vals, dtype, shape = got
    if shape != list(want.shape):
        return f"shape {shape}, PyTorch {list(want.shape)}"
    if dtype != DTYPE[want.dtype]:
        return f"dtype {dtype}, PyTorch {want.dtype}"
    if not close(vals, want.tolist(), tol, tol):
        bad = [(i, g, w) for i, (g, w) in enumerate(zip(torch.tensor(vals).flatten().tolist(),
                                                        want.flatten().tolist()))
               if not close([g], [w], tol, tol)]
        return f"{len(bad)} values differ, first (index, Tessel, PyTorch): {bad[:3]}"
    return None


def check(tessel, device, op, label, inputs, with_grad):
    prog, grads = program_for(op, label, inputs, with_grad)
    p = run(tessel, device, prog)
    if p.returncode != 0:
        return f"Tessel failed: {p.stderr.strip()}"
    env = {"nan": math.nan, "inf": math.inf, "true": True, "false": False}
    lines = [eval(line, {}, env) for line in p.stdout.strip().splitlines()]
    tol = TOL[device]
    want = torch_call(op, inputs)
    if msg := compare(lines.pop(0), want, tol):
        return "values: " + msg
    if grads:
        names = tensor_args(op)
        leaves = [t.clone().requires_grad_(a in grads) for a, t in zip(names, inputs)]
        w = torch.sin(torch.arange(30, dtype=torch.float32) * 0.7 + 0.3).reshape(6, 5)
        loss = (torch_call(op, leaves) * w).sum()
        tg = torch.autograd.grad(loss, [leaves[names.index(a)] for a in grads])
        for a, g, t in zip(grads, lines.pop(0), tg):
            if msg := compare(g, t, 1e-4):
                return f"gradient of {a}: " + msg
    if label == "sampled":
        if msg := compare(lines.pop(0), want, tol):
            return "compiled: " + msg
        small = [t[0:4] if t.dim() == 2 else t for t in inputs]
        if msg := compare(lines.pop(0), torch_call(op, small), tol):
            return "compiled, second size: " + msg
    return None


def device_available(tessel, device):
    p = run(tessel, device, "print(zeros([1]).sum())\n")
    return p.returncode == 0


def main():
    args = sys.argv[1:]
    tessel = args.pop(0)
    devices = ["cpu", "vulkan", "tpu"]
    if "--devices" in args:
        i = args.index("--devices")
        devices = args[i + 1].split(",")
        del args[i:i + 2]
    only = args[0] if args else ""
    ops, aliases, decomps = opgen.parse(os.path.join(ROOT, "ops", "elementwise.ops"),
                                        with_decomps=True)
    gen = torch.Generator().manual_seed(0)
    failures = ran = 0
    for device in devices:
        if not device_available(tessel, device):
            print(f"SKIP {device}: no such device here")
            continue
        for op in ops + aliases + decomps:
            if only not in op.name:
                continue
            for label, inputs, with_grad in cases(op, gen, device):
                ran += 1
                msg = check(tessel, device, op, label, inputs, with_grad)
                if msg:
                    failures += 1
                    print(f"FAIL {op.name} on {device}, {label}: {msg}")
    print(f"{ran - failures}/{ran} cases match PyTorch {torch.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
