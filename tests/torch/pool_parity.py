#!/usr/bin/env python3
"""PyTorch parity of pooling and resizing: max_pool2d, avg_pool2d,
adaptive_avg_pool2d, interpolate, forward and gradients for each option.

Usage: pool_parity.py TESSEL [NAME_SUBSTRING]

The cases run through torch_parity.py's machinery (one `tessel` script per case; values,
dtypes, shapes, error kinds and the gradient of sum(out * w) against torch.autograd).
Exits 77 (CTest's skip) when PyTorch is missing.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_parity as tp  # noqa: E402  (exits 77 without PyTorch)

import torch  # noqa: E402

tp.CASES.clear()
case, rnd = tp.case, tp.rnd
torch.manual_seed(26)


def distinct(*shape):
    """Values 0.1 apart in random order: no ties, so every window has one maximum."""
    n = 1
    for d in shape:
        n *= d
    return (torch.randperm(n).to(torch.float32) * 0.1 - 1.0).reshape(shape)


def tl(v):
    """A Python argument in Tessel syntax."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return "(" + ", ".join(tl(e) for e in v) + ")"
    if isinstance(v, list):
        return "[" + ", ".join(tl(e) for e in v) + "]"
    if isinstance(v, str):
        return f'"{v}"'
    return repr(v)


def call(fn, shape, grad=True, make=rnd, **kw):
    args = ", ".join(f"{k} = {tl(v)}" for k, v in kw.items())
    targs = ", ".join(f"{k}={v!r}" for k, v in kw.items())
    name = f"{fn}_{list(shape)}_" + "_".join(f"{k}{v}" for k, v in kw.items())
    case(name, f"{fn}(a{', ' + args if args else ''})",
         f"F.{fn}(a{', ' + targs if targs else ''})", grad=("a",) if grad else (), a=make(*shape))


# ---- max_pool2d -------------------------------------------------------------------------------
for shape in ((2, 3, 7, 9), (1, 2, 8, 8), (3, 11, 6)):
    for k, s, p, d in ((2, None, 0, 1), (3, 2, 1, 1), (3, 1, 1, 1), ((3, 2), (2, 1), (1, 0), 1),
                       (2, 1, 1, 2), ((2, 3), 2, (1, 1), (2, 1))):
        kw = {"kernel_size": k}
        if s is not None:
            kw["stride"] = s
        if p:
            kw["padding"] = p
        if d != 1:
            kw["dilation"] = d
        call("max_pool2d", shape, make=distinct, **kw)
call("max_pool2d", (1, 1, 1, 1), make=distinct, kernel_size=1)
call("max_pool2d", (0, 2, 5, 5), grad=False, kernel_size=2)
call("max_pool2d", (1, 1, 5, 1), make=distinct, kernel_size=(3, 1), stride=1, padding=(1, 0))
case("max_pool2d_nan", "max_pool2d(a, 2)", "F.max_pool2d(a, 2)",
     a=torch.tensor([[[[1.0, float("nan"), 2.0, 3.0], [0.0, 1.0, -1.0, 5.0]]]]))
case("max_pool2d_ties_grad", "max_pool2d(a, 2, 1)", "F.max_pool2d(a, 2, 1)", grad=("a",),
     a=torch.tensor([[[[1.0, 1.0, 0.0], [1.0, 1.0, 2.0], [2.0, 0.0, 2.0]]]]))
# Second derivatives (a gradient penalty): the expression is d/da of sum(pool(a)^3 * w), so its
# gradient runs max_pool2d_backward's gradient (max_pool2d_double_backward) and PyTorch's
# max_pool_double_backward; ties take the first maximum on both sides.
for tag, targs, pyargs, shape in (("plain", "2", "2", (2, 3, 6, 7)),
                                  ("padded", "3, 2, 1", "3, 2, 1", (1, 2, 7, 5)),
                                  ("dilated", "(3, 2), 1, (1, 0), dilation = (2, 1)",
                                   "(3, 2), 1, (1, 0), dilation=(2, 1)", (1, 2, 8, 6))):
    py = f"F.max_pool2d(x, {pyargs})"
    w = rnd(*[int(v) for v in tp.torch_eval(py + ".shape", {"x": torch.zeros(shape)})])
    case(f"max_pool2d_second_derivative_{tag}",
         f"grad(fn (x) {{ return (max_pool2d(x, {targs}) ** 3 * w).sum() }})(a)",
         f"first_grad(lambda x: {py} ** 3 * w, a)", grad=("a",), a=distinct(*shape), w=w)
case("max_pool2d_second_derivative_ties",
     "grad(fn (x) { return (max_pool2d(x, 2, 1) ** 2).sum() })(a)",
     "first_grad(lambda x: F.max_pool2d(x, 2, 1) ** 2, a)", grad=("a",),
     a=torch.tensor([[[[1.0, 1.0, 0.0], [1.0, 1.0, 2.0], [2.0, 0.0, 2.0]]]]))
# Errors: a kernel larger than the padded input, padding over half the kernel, a 2-D input.
call("max_pool2d", (1, 1, 2, 2), grad=False, kernel_size=3)
call("max_pool2d", (1, 1, 6, 6), grad=False, kernel_size=2, padding=2)
call("max_pool2d", (4, 4), grad=False, kernel_size=2)
call("max_pool2d", (1, 0, 4, 4), grad=False, kernel_size=2)

# ---- avg_pool2d -------------------------------------------------------------------------------
for shape in ((2, 3, 7, 9), (3, 10, 5)):
    for k, s, p in ((2, None, 0), (3, 2, 1), (3, 1, 1), ((3, 2), (2, 1), (1, 1)), ((5, 3), 3, (2, 1))):
        for inc in (True, False):
            kw = {"kernel_size": k}
            if s is not None:
                kw["stride"] = s
            if p:
                kw["padding"] = p
            kw["count_include_pad"] = inc
            call("avg_pool2d", shape, **kw)
call("avg_pool2d", (2, 2, 7, 7), kernel_size=3, stride=2, padding=1, divisor_override=4)
call("avg_pool2d", (1, 1, 1, 1), kernel_size=1)
call("avg_pool2d", (0, 3, 4, 4), grad=False, kernel_size=2)
call("avg_pool2d", (1, 1, 3, 3), grad=False, kernel_size=4)
call("avg_pool2d", (1, 1, 6, 6), grad=False, kernel_size=3, padding=2)

# ---- adaptive_avg_pool2d ----------------------------------------------------------------------
for shape, out in (((2, 3, 7, 9), (3, 4)), ((1, 2, 5, 5), 1), ((3, 10, 6), (4, 6)),
                   ((2, 1, 4, 4), (7, 5)), ((1, 2, 9, 6), (None, 2)), ((1, 2, 9, 6), (4, None)),
                   ((1, 1, 1, 9), (1, 2)), ((2, 2, 6, 6), 6)):
    call("adaptive_avg_pool2d", shape, output_size=out)
call("adaptive_avg_pool2d", (0, 2, 4, 4), grad=False, output_size=2)
call("adaptive_avg_pool2d", (2, 0, 4), grad=False, output_size=2)

# ---- interpolate ------------------------------------------------------------------------------
for shape in ((2, 3, 5, 7), (1, 2, 6, 4)):
    for kw in ({"size": (10, 14)}, {"size": (3, 11)}, {"size": 9}, {"scale_factor": 2.0},
               {"scale_factor": 1.5}, {"scale_factor": (0.5, 2.5)}, {"scale_factor": 0.7},
               {"scale_factor": 3.0, "recompute_scale_factor": True}):
        call("interpolate", shape, **kw)
        for align in (False, True):
            call("interpolate", shape, mode="bilinear", align_corners=align, **kw)
call("interpolate", (1, 1, 1, 5), mode="bilinear", align_corners=True, size=(1, 1))
call("interpolate", (1, 1, 1, 1), mode="bilinear", size=(3, 2))
call("interpolate", (0, 2, 3, 3), grad=False, mode="bilinear", size=(6, 6))
# 3-D inputs are [N, C, L]: nearest and linear along L.
call("interpolate", (2, 3, 5), size=8)
call("interpolate", (2, 3, 5), scale_factor=2.0)
call("interpolate", (2, 3, 5), mode="linear", size=9)
call("interpolate", (2, 3, 5), mode="linear", align_corners=True, scale_factor=1.5)
# Errors.
call("interpolate", (1, 1, 3, 3), grad=False, size=4, scale_factor=2.0)
call("interpolate", (1, 1, 3, 3), grad=False)
call("interpolate", (1, 1, 3, 3), grad=False, size=4, align_corners=True)
call("interpolate", (1, 1, 3), grad=False, size=4, mode="bilinear")
call("interpolate", (1, 1, 3, 3), grad=False, size=4, mode="bicubicx")
call("interpolate", (1, 1, 3, 3), grad=False, size=(0, 4))
call("interpolate", (1, 1, 3, 3), grad=False, size=(2, 3, 4))

if __name__ == "__main__":
    sys.exit(tp.main())
