#!/usr/bin/env python3
"""PyTorch parity of Tessel's index, scan, segment, sort and detection ops.

Usage: torch_parity.py TESSEL [NAME_SUBSTRING]

Every case is an expression over named inputs, written once in Tessel and once in PyTorch
1.13. Each case runs as its own `tessel` script (so an error in one does not stop the rest):
the values, dtypes and shapes must match PyTorch's (int64 results are i32 in Tessel), a case
where PyTorch raises must raise in Tessel too (at the user's line, with the same error kind
where PyTorch's names one), and for cases with `grad`, the gradient of sum(out * w) for fixed
weights w must match torch.autograd's. Exits 77 (CTest's skip) when PyTorch is missing.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

try:
    import torch
except ImportError:
    print("SKIP: PyTorch is not installed (apt-get install python3-torch)")
    sys.exit(77)

from parity_common import DTYPE, close, literal  # noqa: E402 (needs torch)

torch.manual_seed(0)
CASES = []


def case(name, tessel, torch_expr, grad=(), **inputs):
    """tessel/torch_expr: expressions over the inputs' names (torch_expr may use `torch`)."""
    CASES.append((name, tessel, torch_expr, tuple(grad), inputs))


def rnd(*shape, lo=-2.0, hi=2.0):
    return torch.empty(shape).uniform_(lo, hi)


def ints(*shape, lo=-5, hi=6):
    return torch.randint(lo, hi, shape, dtype=torch.int32)


def bools(*shape):
    return torch.rand(shape) < 0.5


# ---- cumsum, cumprod, diff -----------------------------------------------------------------
for fn in ("cumsum", "cumprod"):
    for shape, dim in (((5,), 0), ((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -1), ((2, 3, 4), 1),
                       ((0, 3), 1), ((3, 0), 0), ((1,), 0), ((4, 1), -1), ((), 0), ((), -1)):
        case(f"{fn}_f32_{shape}_{dim}", f"{fn}(a, {dim})", f"torch.{fn}(a, {dim})",
             grad=("a",), a=rnd(*shape))
        case(f"{fn}_i32_{shape}_{dim}", f"{fn}(a, {dim})", f"torch.{fn}(a, {dim})",
             a=ints(*shape))
        case(f"{fn}_bool_{shape}_{dim}", f"a.{fn}(dim = {dim})", f"a.{fn}(dim = {dim})",
             a=bools(*shape))
    case(f"{fn}_strided", f"{fn}(a.T, 0)", f"torch.{fn}(a.T, 0)", grad=("a",), a=rnd(3, 5))
    case(f"{fn}_nan_inf", f"{fn}(a, 0)", f"torch.{fn}(a, 0)",
         a=torch.tensor([1.0, float("nan"), 2.0, float("inf"), -1.0]))
    case(f"{fn}_dim_out_of_range", f"{fn}(a, 2)", f"torch.{fn}(a, 2)", a=rnd(2, 3))
    case(f"{fn}_dim_negative_out_of_range", f"{fn}(a, -3)", f"torch.{fn}(a, -3)", a=rnd(2, 3))
case("cumsum_long", "cumsum(a, 0)", "torch.cumsum(a, 0)", a=rnd(100000))
# Rows of 16 and more take the vector scan (Note [Blocked scan]): groups of 16 and a serial tail.
for n in (16, 17, 37, 1003):
    case(f"cumsum_rows_{n}", "cumsum(a, 1)", "torch.cumsum(a, 1)", grad=("a",), a=rnd(3, n))
    case(f"cumprod_rows_{n}", "cumprod(a, -1)", "torch.cumprod(a, -1)",
         a=torch.rand(3, n) * 0.2 + 0.9)
case("cumsum_nan_inf_vector", "cumsum(a, 0)", "torch.cumsum(a, 0)",
     a=torch.tensor([1.0] * 9 + [float("nan")] + [2.0] * 10 + [float("inf")] + [1.0] * 12))
case("cumprod_zero_vector", "cumprod(a, 0)", "torch.cumprod(a, 0)",
     a=torch.tensor([1.5] * 11 + [0.0] + [2.0] * 30))
case("cumsum_wide_dim0", "cumsum(a, 0)", "torch.cumsum(a, 0)", a=rnd(40, 300))
case("cumprod_zeros_grad", "cumprod(a, 1)", "torch.cumprod(a, 1)", grad=("a",),
     a=torch.tensor([[0.5, 0.0, 2.0, 1.5], [0.0, 1.2, 0.0, 0.7], [0.9, 1.1, 1.3, 0.0]]))
case("cumprod_zeros_grad_dim0", "cumprod(a, 0)", "torch.cumprod(a, 0)", grad=("a",),
     a=torch.tensor([[0.0, 1.0], [2.0, 0.0], [0.5, 3.0]]))
case("cumsum_i32_wraps_within_range", "cumsum(a, 0)", "torch.cumsum(a, 0)",
     a=torch.tensor([2**30, 2**29, -2**30], dtype=torch.int32))

for shape, n, dim in (((6,), 1, -1), ((6,), 2, -1), ((6,), 0, -1), ((3, 4), 1, 0), ((3, 4), 3, 1),
                      ((3, 4), 5, 1), ((1,), 1, 0), ((0,), 1, 0), ((2, 0), 1, 1)):
    case(f"diff_f32_{shape}_{n}_{dim}", f"diff(a, n = {n}, dim = {dim})",
         f"torch.diff(a, n={n}, dim={dim})", grad=("a",), a=rnd(*shape))
    case(f"diff_i32_{shape}_{n}_{dim}", f"diff(a, {n}, {dim})", f"torch.diff(a, {n}, {dim})",
         a=ints(*shape))
case("diff_bool", "diff(a)", "torch.diff(a)", a=bools(7))
case("diff_prepend_append", "diff(a, dim = 0, prepend = p, append = q)",
     "torch.diff(a, dim=0, prepend=p, append=q)", grad=("a", "p", "q"),
     a=rnd(3, 2), p=rnd(1, 2), q=rnd(2, 2))
case("diff_scalar", "diff(a)", "torch.diff(a)", a=torch.tensor(2.0))
case("diff_dim_out_of_range", "diff(a, dim = 1)", "torch.diff(a, dim=1)", a=rnd(3))
case("diff_prepend_rank", "diff(a, prepend = p)", "torch.diff(a, prepend=p)", a=rnd(2, 3),
     p=rnd(3))


# gelu and its gradient (one op, gelu_backward) across both erf branches and the tails.
case("gelu_grad", "gelu(a)", "torch.nn.functional.gelu(a)", grad=("a",), a=rnd(64, lo=-7.0, hi=7.0))


# ---- index_add, index_copy, scatter, scatter_add, scatter_reduce -------------------------------
# (PyTorch wants int64 indices: its expressions say i.long().)
def idx(*vals, shape=None):
    t = torch.tensor(vals, dtype=torch.int32)
    return t.reshape(shape) if shape is not None else t


for dt, mk in (("f32", rnd), ("i32", ints)):
    g = ("a", "s") if dt == "f32" else ()
    case(f"index_add_{dt}_dup", "index_add(a, 0, i, s)", "torch.index_add(a, 0, i.long(), s)",
         grad=g, a=mk(4, 3), i=idx(3, 0, 3, 1, 3), s=mk(5, 3))
    case(f"index_add_{dt}_alpha_dim1", "a.index_add(-1, i, s, alpha = 2)",
         "a.index_add(-1, i.long(), s, alpha=2)", grad=g, a=mk(2, 4), i=idx(1, 1), s=mk(2, 2))
    case(f"index_add_{dt}_empty", "index_add(a, 1, i, s)", "torch.index_add(a, 1, i.long(), s)",
         a=mk(3, 2), i=idx(*[]), s=mk(3, 0))
    case(f"index_copy_{dt}", "index_copy(a, 0, i, s)", "torch.index_copy(a, 0, i.long(), s)",
         grad=g, a=mk(4, 3), i=idx(2, 0), s=mk(2, 3))
    case(f"scatter_{dt}", "scatter(a, 1, i, s)", "torch.scatter(a, 1, i.long(), s)", grad=g,
         a=mk(3, 4), i=idx(3, 0, 1, 2, 2, 0, shape=(3, 2)), s=mk(3, 2))
    # (PyTorch 1.13's scatter backward fails for a source larger than the index: no gradient.)
    case(f"scatter_{dt}_larger_source", "scatter(a, 1, i, s)", "torch.scatter(a, 1, i.long(), s)",
         a=mk(3, 4), i=idx(3, 0, 1, 2, 2, 0, shape=(3, 2)), s=mk(3, 3))
    case(f"scatter_add_{dt}", "scatter_add(a, 0, i, s)", "torch.scatter_add(a, 0, i.long(), s)",
         grad=g, a=mk(3, 4), i=idx(2, 2, 0, 1, 2, 2, 2, 0, shape=(2, 4)), s=mk(2, 4))
    case(f"scatter_add_{dt}_larger_source", "scatter_add(a, 0, i, s)",
         "torch.scatter_add(a, 0, i.long(), s)",
         a=mk(3, 4), i=idx(2, 2, 0, 1, 2, 2, 2, 0, shape=(2, 4)), s=mk(2, 5))
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for self_ in ("true", "false"):
            rg = g if reduce != "prod" else ()
            case(f"scatter_reduce_{dt}_{reduce}_{self_}",
                 f"scatter_reduce(a, 1, i, s, \"{reduce}\", include_self = {self_})",
                 f"torch.scatter_reduce(a, 1, i.long(), s, '{reduce}', include_self={self_.title()})",
                 grad=rg, a=mk(3, 4), i=idx(0, 0, 3, 1, 1, 1, 2, 0, 2, shape=(3, 3)), s=mk(3, 3))
# Many wide rows: the prefetched, ISA-cloned row loops of scatter_rows.cpp (Note [Random target
# rows]), with duplicate targets, an outer dim, a source wider than the index, PyG's expanded
# index mixed with rows of differing indices, and a bad index past the prefetch distance.
_rows = torch.randint(0, 50, (300,), dtype=torch.int32)
case("index_add_wide_rows", "index_add(a, 0, i, s)", "torch.index_add(a, 0, i.long(), s)",
     grad=("a", "s"), a=rnd(50, 70), i=_rows, s=rnd(300, 70))
case("index_add_wide_rows_alpha", "index_add(a, 0, i, s, alpha = 0.5)",
     "torch.index_add(a, 0, i.long(), s, alpha=0.5)", a=rnd(50, 70), i=_rows, s=rnd(300, 70))
case("index_add_wide_rows_dim1", "index_add(a, 1, i, s)", "torch.index_add(a, 1, i.long(), s)",
     a=rnd(3, 50, 24), i=_rows[:40], s=rnd(3, 40, 24))
_mixed = _rows[:200].reshape(200, 1).expand(200, 33).clone()
_mixed[1::3] = torch.randint(0, 50, (67, 33), dtype=torch.int32)
case("scatter_add_wide_rows", "scatter_add(a, 0, i, s)", "torch.scatter_add(a, 0, i.long(), s)",
     grad=("a", "s"), a=rnd(50, 40), i=_mixed, s=rnd(200, 33))
case("scatter_add_wide_rows_larger_source", "scatter_add(a, 0, i, s)",
     "torch.scatter_add(a, 0, i.long(), s)", a=rnd(50, 40), i=_mixed, s=rnd(210, 40))
_bad = _mixed.clone()
_bad[150, 7] = 50
case("scatter_add_wide_rows_out_of_range", "scatter_add(a, 0, i, s)",
     "torch.scatter_add(a, 0, i.long(), s)", a=rnd(50, 40), i=_bad, s=rnd(210, 40))
_bad_rows = _rows.clone()
_bad_rows[200] = -3
case("index_add_wide_rows_negative", "index_add(a, 0, i, s)",
     "torch.index_add(a, 0, i.long(), s)", a=rnd(50, 70), i=_bad_rows, s=rnd(300, 70))
case("scatter_value", "scatter(a, 0, i, 2.5)", "torch.scatter(a, 0, i.long(), 2.5)",
     a=rnd(3, 2), i=idx(2, 0, shape=(1, 2)))
case("scatter_bool", "scatter(a, 1, i, s)", "torch.scatter(a, 1, i.long(), s)",
     a=bools(2, 3), i=idx(2, 0, shape=(2, 1)), s=bools(2, 1))
case("scatter_reduce_amax_ties", "scatter_reduce(a, 0, i, s, \"amax\")",
     "torch.scatter_reduce(a, 0, i.long(), s, 'amax')", grad=("a", "s"),
     a=torch.tensor([1.0, 3.0]), i=idx(0, 0, 1), s=torch.tensor([1.0, 0.5, 3.0]))
case("scatter_reduce_mean_i32_floor", "scatter_reduce(a, 0, i, s, \"mean\")",
     "torch.scatter_reduce(a, 0, i.long(), s, 'mean')", a=idx(0, 5), i=idx(0, 0, 1),
     s=idx(-1, -3, 2))
case("index_add_out_of_range", "index_add(a, 0, i, s)", "torch.index_add(a, 0, i.long(), s)",
     a=rnd(3, 2), i=idx(3), s=rnd(1, 2))
case("index_add_negative", "index_add(a, 0, i, s)", "torch.index_add(a, 0, i.long(), s)",
     a=rnd(3, 2), i=idx(-1), s=rnd(1, 2))
case("scatter_out_of_range", "scatter(a, 1, i, s)", "torch.scatter(a, 1, i.long(), s)",
     a=rnd(2, 2), i=idx(0, 2, shape=(1, 2)), s=rnd(1, 2))
case("scatter_add_negative", "scatter_add(a, 1, i, s)", "torch.scatter_add(a, 1, i.long(), s)",
     a=rnd(2, 2), i=idx(0, -1, shape=(1, 2)), s=rnd(1, 2))
case("index_copy_shape", "index_copy(a, 0, i, s)", "torch.index_copy(a, 0, i.long(), s)",
     a=rnd(3, 2), i=idx(0, 1), s=rnd(2, 3))
case("scatter_add_index_larger", "scatter_add(a, 0, i, s)", "torch.scatter_add(a, 0, i.long(), s)",
     a=rnd(2, 2), i=idx(0, 0, 0, shape=(1, 3)), s=rnd(1, 3))
case("scatter_add_dtype", "scatter_add(a, 0, i, s)", "torch.scatter_add(a, 0, i.long(), s)",
     a=rnd(2, 2), i=idx(0, 1, shape=(1, 2)), s=ints(1, 2))


# ---- repeat_interleave, bincount, segment_reduce (jagged data) ---------------------------------
for dt, mk in (("f32", rnd), ("i32", ints), ("bool", bools)):
    g = ("a",) if dt == "f32" else ()
    case(f"repeat_interleave_{dt}_int", "repeat_interleave(a, 2)", "torch.repeat_interleave(a, 2)",
         grad=g, a=mk(2, 3))
    case(f"repeat_interleave_{dt}_int_dim", "a.repeat_interleave(3, dim = -1)",
         "a.repeat_interleave(3, dim=-1)", grad=g, a=mk(2, 2))
    case(f"repeat_interleave_{dt}_tensor_dim0", "repeat_interleave(a, r, dim = 0)",
         "torch.repeat_interleave(a, r.long(), dim=0)", grad=g, a=mk(4, 3), r=idx(2, 0, 3, 1))
    case(f"repeat_interleave_{dt}_tensor_dim1", "repeat_interleave(a, r, dim = 1)",
         "torch.repeat_interleave(a, r.long(), dim=1)", grad=g, a=mk(2, 3), r=idx(1, 0, 2))
    case(f"repeat_interleave_{dt}_flat", "repeat_interleave(a, r)",
         "torch.repeat_interleave(a, r.long())", grad=g, a=mk(2, 2), r=idx(1, 2, 0, 3))
case("repeat_interleave_size1_repeats", "repeat_interleave(a, r, dim = 0)",
     "torch.repeat_interleave(a, r.long(), dim=0)", grad=("a",), a=rnd(3, 2), r=idx(2))
case("repeat_interleave_0d_repeats", "repeat_interleave(a, r, dim = 1)",
     "torch.repeat_interleave(a, r.long(), dim=1)", a=rnd(2, 2), r=torch.tensor(3, dtype=torch.int32))
case("repeat_interleave_output_size", "repeat_interleave(a, r, dim = 0, output_size = 4)",
     "torch.repeat_interleave(a, r.long(), dim=0, output_size=4)", grad=("a",), a=rnd(3, 2),
     r=idx(1, 0, 3))
case("repeat_interleave_repeats_only", "repeat_interleave(r)", "torch.repeat_interleave(r.long())",
     r=idx(2, 0, 3))
case("repeat_interleave_scalar", "repeat_interleave(a, 3)", "torch.repeat_interleave(a, 3)",
     a=torch.tensor(1.5))
case("repeat_interleave_all_zero", "repeat_interleave(a, r, dim = 0)",
     "torch.repeat_interleave(a, r.long(), dim=0)", a=rnd(2, 3), r=idx(0, 0))
case("repeat_interleave_empty", "repeat_interleave(a, r, dim = 0)",
     "torch.repeat_interleave(a, r.long(), dim=0)", a=rnd(0, 3), r=idx(*[]))
case("repeat_interleave_negative", "repeat_interleave(a, r, dim = 0)",
     "torch.repeat_interleave(a, r.long(), dim=0)", a=rnd(2, 2), r=idx(1, -1))
case("repeat_interleave_wrong_length", "repeat_interleave(a, r, dim = 0)",
     "torch.repeat_interleave(a, r.long(), dim=0)", a=rnd(2, 2), r=idx(1, 2, 3))
case("repeat_interleave_2d_repeats", "repeat_interleave(a, r, dim = 0)",
     "torch.repeat_interleave(a, r.long(), dim=0)", a=rnd(2, 2), r=idx(1, 2, shape=(1, 2)))
case("repeat_interleave_output_size_wrong", "repeat_interleave(a, r, dim = 0, output_size = 5)",
     "torch.repeat_interleave(a, r.long(), dim=0, output_size=5)", a=rnd(2, 2), r=idx(1, 2))

case("bincount", "bincount(x)", "torch.bincount(x.long())", x=idx(1, 1, 3, 0, 7))
case("bincount_minlength", "bincount(x, minlength = 10)", "torch.bincount(x.long(), minlength=10)",
     x=idx(1, 1, 3))
case("bincount_minlength_smaller", "x.bincount(minlength = 2)", "x.long().bincount(minlength=2)",
     x=idx(4, 1))
case("bincount_empty", "bincount(x)", "torch.bincount(x.long())", x=idx(*[]))
case("bincount_empty_minlength", "bincount(x, minlength = 3)", "torch.bincount(x.long(), minlength=3)",
     x=idx(*[]))
case("bincount_weights", "bincount(x, weights = w)", "torch.bincount(x.long(), weights=w)",
     x=idx(0, 2, 2, 5), w=rnd(4))
case("bincount_weights_minlength", "bincount(x, w, 8)", "torch.bincount(x.long(), w, 8)",
     x=idx(0, 2, 2, 5), w=rnd(4))
case("bincount_large", "bincount(x)", "torch.bincount(x.long())",
     x=torch.randint(0, 50, (5000,), dtype=torch.int32))
case("bincount_negative", "bincount(x)", "torch.bincount(x.long())", x=idx(1, -1))
case("bincount_2d", "bincount(x)", "torch.bincount(x.long())", x=idx(1, 2, shape=(1, 2)))
case("bincount_float", "bincount(x)", "torch.bincount(x)", x=rnd(3))
case("bincount_minlength_negative", "bincount(x, minlength = -1)",
     "torch.bincount(x.long(), minlength=-1)", x=idx(1, 2))
case("bincount_weights_length", "bincount(x, weights = w)", "torch.bincount(x.long(), weights=w)",
     x=idx(1, 2), w=rnd(3))

for reduce in ("sum", "mean", "max", "min", "prod"):
    for init in (None, 0.5):
        iv = "" if init is None else f", initial = {init}"
        it = "" if init is None else f", initial={init}"
        case(f"segment_reduce_{reduce}_{init}", f"segment_reduce(a, \"{reduce}\", lengths = l{iv})",
             f"torch.segment_reduce(a, '{reduce}', lengths=l.long(){it})", grad=("a",),
             a=rnd(6, 3), l=idx(2, 0, 3, 1))
        case(f"segment_reduce_{reduce}_{init}_offsets",
             f"segment_reduce(a, \"{reduce}\", offsets = o{iv})",
             f"torch.segment_reduce(a, '{reduce}', offsets=o.long(){it})", grad=("a",),
             a=rnd(5), o=idx(0, 1, 1, 5))
    case(f"segment_reduce_{reduce}_ties_zeros", f"segment_reduce(a, \"{reduce}\", lengths = l)",
         f"torch.segment_reduce(a, '{reduce}', lengths=l.long())", grad=("a",),
         a=torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0, 2.0, 2.0]), l=idx(3, 2, 2))
    case(f"segment_reduce_{reduce}_nan", f"segment_reduce(a, \"{reduce}\", lengths = l)",
         f"torch.segment_reduce(a, '{reduce}', lengths=l.long())",
         a=torch.tensor([1.0, float("nan"), 2.0, 3.0]), l=idx(2, 2))
# (PyTorch 1.13 refuses empty data; Tessel gives what its empty-segment rule implies.)
case("segment_reduce_no_segments", "segment_reduce(a, \"sum\", lengths = l)",
     "torch.zeros(0, 2)", a=rnd(0, 2), l=idx(*[]))
case("segment_reduce_all_empty", "segment_reduce(a, \"max\", lengths = l)",
     "torch.full((2, 2), -float('inf'))", a=rnd(0, 2), l=idx(0, 0))
case("segment_reduce_bad_sum", "segment_reduce(a, \"sum\", lengths = l)",
     "torch.segment_reduce(a, 'sum', lengths=l.long())", a=rnd(6), l=idx(2, 2))
case("segment_reduce_2d_lengths", "segment_reduce(a, \"sum\", lengths = l)",
     "torch.segment_reduce(a, 'sum', lengths=l.long())", a=rnd(4), l=idx(2, 2, shape=(1, 2)))
case("segment_reduce_negative_length", "segment_reduce(a, \"sum\", lengths = l)",
     "torch.segment_reduce(a, 'sum', lengths=l.long())", a=rnd(6), l=idx(7, -1))
case("segment_reduce_bad_reduce", "segment_reduce(a, \"median\", lengths = l)",
     "torch.segment_reduce(a, 'median', lengths=l.long())", a=rnd(4), l=idx(2, 2))

# ---- sort, argsort, topk, searchsorted, nms, vision --------------------------------------------
# Tessel's sorts are stable; PyTorch's are asked to be (stable=True) or given distinct keys.
# topk's ties: both pick the lower index first on these inputs (distinct keys otherwise).
def distinct(*shape):
    n = 1
    for d in shape:
        n *= d
    return (torch.randperm(n).float() * 0.37 - 3.0).reshape(shape)


for shape, dim in (((7,), 0), ((3, 5), 1), ((3, 5), 0), ((2, 3, 4), -1), ((2, 3, 4), 1),
                   ((0, 3), 1), ((3, 0), 1), ((1,), 0), ((), 0), ((2, 300), 1)):
    for desc in ("false", "true"):
        case(f"sort_f32_{shape}_{dim}_{desc}", f"sort(a, {dim}, descending = {desc})",
             f"torch.sort(a, dim={dim}, descending={desc.title()}, stable=True)", grad=("a",),
             a=distinct(*shape))
        case(f"sort_i32_ties_{shape}_{dim}_{desc}", f"a.sort(dim = {dim}, descending = {desc}, stable = true)",
             f"torch.sort(a, dim={dim}, descending={desc.title()}, stable=True)", a=ints(*shape))
        case(f"argsort_bool_{shape}_{dim}_{desc}", f"argsort(a, {dim}, {desc}, stable = true)",
             f"torch.sort(a, dim={dim}, descending={desc.title()}, stable=True)[1]", a=bools(*shape))
case("sort_nan_inf_zeros", "sort(a, stable = true)", "torch.sort(a, stable=True)",
     a=torch.tensor([1.0, float("nan"), -0.0, 0.0, float("-inf"), float("inf"), 0.0, float("nan")]))
case("sort_nan_descending", "sort(a, descending = true, stable = true)",
     "torch.sort(a, descending=True, stable=True)",
     a=torch.tensor([1.0, float("nan"), -0.0, 0.0, float("-inf")]))
case("argsort_default", "argsort(a)", "torch.argsort(a)", a=distinct(4, 6))
case("sort_long", "sort(a)", "torch.sort(a)", a=distinct(100000))
case("sort_strided", "sort(a.T, 0)", "torch.sort(a.T, 0)", grad=("a",), a=distinct(3, 5))
case("sort_dim_out_of_range", "sort(a, 2)", "torch.sort(a, 2)", a=rnd(2, 3))
for shape, k, dim in (((9,), 3, 0), ((3, 6), 2, 1), ((6, 3), 6, 0), ((2, 5, 3), 1, 1),
                      ((4, 0), 0, 1), ((5,), 0, 0), ((), 1, 0), ((2, 1000), 10, 1)):
    for largest in ("true", "false"):
        case(f"topk_f32_{shape}_{k}_{dim}_{largest}", f"topk(a, {k}, {dim}, largest = {largest})",
             f"torch.topk(a, {k}, {dim}, largest={largest.title()})", grad=("a",),
             a=distinct(*shape))
        case(f"topk_i32_{shape}_{k}_{dim}_{largest}", f"a.topk({k}, dim = {dim}, largest = {largest})[0]",
             f"torch.topk(a, {k}, {dim}, largest={largest.title()})[0]", a=ints(*shape))
case("topk_size_expression", "topk(a, min(4, a.shape[0]))", "torch.topk(a, min(4, a.shape[0]))",
     grad=("a",), a=distinct(3))
case("topk_nan", "topk(a, 2)", "torch.topk(a, 2)", a=torch.tensor([1.0, float("nan"), 3.0]))
case("topk_k_too_large", "topk(a, 4)", "torch.topk(a, 4)", a=rnd(3))
case("topk_k_too_large_dim0", "topk(a, 3, 0)", "torch.topk(a, 3, 0)", a=rnd(2, 5))
case("topk_bad_dim", "topk(a, 1, 2)", "torch.topk(a, 1, 2)", a=rnd(2, 5))
for right in ("false", "true"):
    R = right.title()
    case(f"searchsorted_1d_{right}", f"searchsorted(s, v, right = {right})",
         f"torch.searchsorted(s, v, right={R}).int()",
         s=torch.tensor([-1.0, 0.0, 0.0, 0.5, 2.0, 2.0, 7.0]), v=torch.tensor([[-3.0, 0.0], [2.0, 9.0], [0.4, 7.0]]))
    case(f"searchsorted_batched_{right}", f"searchsorted(s, v, right = {right})",
         f"torch.searchsorted(s, v, right={R}).int()",
         s=torch.sort(ints(3, 6))[0], v=ints(3, 4))
    case(f"searchsorted_scalar_{right}", f"searchsorted(s, 2.0, right = {right})",
         f"torch.searchsorted(s, 2.0, right={R}).int()", s=torch.tensor([1.0, 2.0, 2.0, 3.0]))
    case(f"searchsorted_side_{right}", f"searchsorted(s, v, side = \"{'right' if right == 'true' else 'left'}\")",
         f"torch.searchsorted(s, v, side='{'right' if right == 'true' else 'left'}').int()",
         s=torch.tensor([1, 3, 3, 5], dtype=torch.int32), v=torch.tensor([3, 0, 6], dtype=torch.int32))
case("searchsorted_empty_values", "searchsorted(s, v)", "torch.searchsorted(s, v).int()",
     s=torch.tensor([1.0, 2.0]), v=torch.zeros(0))
case("searchsorted_batch_mismatch", "searchsorted(s, v)", "torch.searchsorted(s, v)",
     s=rnd(2, 3), v=rnd(3, 1))

try:
    import torchvision
    import torchvision.ops as tvops
except ImportError:
    tvops = None


def boxes(n, spread=20.0, size=12.0):
    xy = torch.rand(n, 2) * spread
    return torch.cat([xy, xy + torch.rand(n, 2) * size + 0.5], dim=1)


if tvops is not None:
    for n in (0, 1, 5, 40, 300):
        for thr in (0.0, 0.3, 0.5, 0.9, 1.0):
            case(f"nms_{n}_{thr}", f"nms(b, s, {thr})", f"tvops.nms(b, s, {thr}).int()",
                 b=boxes(n), s=torch.rand(n))
    case("nms_tied_scores", "nms(b, s, 0.5)", "tvops.nms(b, s, 0.5).int()",
         b=torch.tensor([[0.0, 0, 2, 2], [5, 5, 6, 6], [0, 0, 2, 2], [1, 1, 3, 3]]),
         s=torch.tensor([0.5, 0.9, 0.5, 0.5]))
    case("nms_degenerate_boxes", "nms(b, s, 0.5)", "tvops.nms(b, s, 0.5).int()",
         b=torch.tensor([[0.0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 5], [0, 0, 4, 4]]),
         s=torch.tensor([0.9, 0.8, 0.7, 0.6]))
    case("nms_boxes_not_n4", "nms(b, s, 0.5)", "tvops.nms(b, s, 0.5)", b=rnd(3, 5), s=rnd(3))
    case("nms_scores_mismatch", "nms(b, s, 0.5)", "tvops.nms(b, s, 0.5)", b=boxes(3), s=rnd(2))
    for n in (0, 6, 50):
        case(f"vision_batched_nms_{n}", "vision.batched_nms(b, s, l, 0.4)",
             "tvops.batched_nms(b, s, l.long(), 0.4).int()",
             b=boxes(n), s=torch.rand(n), l=torch.randint(0, 3, (n,), dtype=torch.int32))
    case("vision_box_area", "vision.box_area(b)", "tvops.box_area(b)", grad=("b",), b=boxes(7))
    case("vision_box_iou", "vision.box_iou(b, c)", "tvops.box_iou(b, c)", grad=("b", "c"),
         b=boxes(5), c=boxes(3))
    case("vision_box_iou_empty", "vision.box_iou(b, c)", "tvops.box_iou(b, c)", b=boxes(0), c=boxes(3))
    for fi in ("xyxy", "xywh", "cxcywh"):
        for fo in ("xyxy", "xywh", "cxcywh"):
            case(f"vision_box_convert_{fi}_{fo}", f"vision.box_convert(b, \"{fi}\", \"{fo}\")",
                 f"tvops.box_convert(b, '{fi}', '{fo}')", grad=("b",), b=boxes(6))
    case("vision_box_convert_bad_fmt", "vision.box_convert(b, \"xyxy\", \"xy\")",
         "tvops.box_convert(b, 'xyxy', 'xy')", b=boxes(2))
    case("vision_clip_boxes", "vision.clip_boxes(b, (10, 15))",
         "tvops.clip_boxes_to_image(b, (10, 15))", grad=("b",), b=boxes(8, spread=20.0) - 3.0)
    case("vision_remove_small_boxes", "vision.remove_small_boxes(b, 5.0)",
         "tvops.remove_small_boxes(b, 5.0).int()", b=boxes(20))


# ---- losses, reductions, shape utilities ----------------------------------------------------


def probs(*shape):
    return torch.empty(shape).uniform_(0.05, 0.95)


def labels(n, classes, ignore=()):
    t = torch.randint(0, classes, (n,), dtype=torch.int32)
    for i in ignore:
        t[i] = -100
    return t


for red in ("mean", "sum", "none"):
    r = f'reduction = "{red}"'
    tr = f"reduction='{red}'"
    for fn in ("mse_loss", "l1_loss"):
        case(f"{fn}_{red}", f"{fn}(a, b, {r})", f"torch.nn.functional.{fn}(a, b, {tr})", grad=("a", "b"),
             a=rnd(3, 4), b=rnd(3, 4))
    for beta in (1.0, 0.5, 0.0):
        case(f"smooth_l1_loss_{red}_{beta}", f"smooth_l1_loss(a, b, beta = {beta}, {r})",
             f"torch.nn.functional.smooth_l1_loss(a, b, beta={beta}, {tr})", grad=("a", "b"),
             a=rnd(4, 5), b=rnd(4, 5))
    for delta in (1.0, 0.3):
        case(f"huber_loss_{red}_{delta}", f"huber_loss(a, b, delta = {delta}, {r})",
             f"torch.nn.functional.huber_loss(a, b, delta={delta}, {tr})", grad=("a", "b"),
             a=rnd(4, 5), b=rnd(4, 5))
    case(f"binary_cross_entropy_{red}", f"binary_cross_entropy(a, b, {r})",
         f"torch.nn.functional.binary_cross_entropy(a, b, {tr})", grad=("a", "b"), a=probs(3, 4), b=probs(3, 4))
    case(f"bce_with_logits_{red}", f"binary_cross_entropy_with_logits(a, b, {r})",
         f"torch.nn.functional.binary_cross_entropy_with_logits(a, b, {tr})", grad=("a", "b"),
         a=rnd(3, 4, lo=-30, hi=30), b=probs(3, 4))
    case(f"bce_with_logits_pos_weight_{red}",
         f"binary_cross_entropy_with_logits(a, b, pos_weight = w, {r})",
         f"torch.nn.functional.binary_cross_entropy_with_logits(a, b, pos_weight=w, {tr})", grad=("a", "b"),
         a=rnd(3, 4), b=probs(3, 4), w=probs(4) * 3)
    case(f"nll_loss_{red}", f"nll_loss(a, t, {r})", f"torch.nn.functional.nll_loss(a, t.long(), {tr})",
         grad=("a",), a=torch.log_softmax(rnd(6, 5), 1), t=labels(6, 5, ignore=(1, 4)))
    case(f"nll_loss_1d_{red}", f"nll_loss(a, t, {r})", f"torch.nn.functional.nll_loss(a, t.long(), {tr})",
         grad=("a",), a=rnd(5), t=torch.tensor(3, dtype=torch.int32))
    case(f"cross_entropy_{red}", f"cross_entropy(a, t, {r})",
         f"torch.nn.functional.cross_entropy(a, t.long(), {tr})", grad=("a",), a=rnd(6, 5),
         t=labels(6, 5, ignore=(2,)))
    case(f"cross_entropy_ignore_smooth_{red}",
         f"cross_entropy(a, t, ignore_index = 1, label_smoothing = 0.2, {r})",
         f"torch.nn.functional.cross_entropy(a, t.long(), ignore_index=1, label_smoothing=0.2, {tr})",
         grad=("a",), a=rnd(8, 4), t=labels(8, 4))
    case(f"cross_entropy_spatial_{red}", f"cross_entropy(a, t, label_smoothing = 0.1, {r})",
         f"torch.nn.functional.cross_entropy(a, t.long(), label_smoothing=0.1, {tr})", grad=("a",),
         a=rnd(2, 3, 4, 5), t=torch.randint(0, 3, (2, 4, 5), dtype=torch.int32))
    case(f"cross_entropy_probs_{red}", f"cross_entropy(a, p, label_smoothing = 0.3, {r})",
         f"torch.nn.functional.cross_entropy(a, p, label_smoothing=0.3, {tr})", grad=("a", "p"), a=rnd(4, 6),
         p=torch.softmax(rnd(4, 6), 1))
case("mse_loss_broadcast", "mse_loss(a, b)", "torch.nn.functional.mse_loss(a, b)", grad=("a", "b"), a=rnd(4, 1),
     b=rnd(4))
case("l1_loss_broadcast_bad", "l1_loss(a, b)", "torch.nn.functional.l1_loss(a, b)", a=rnd(4, 3), b=rnd(5))
case("mse_loss_empty", "mse_loss(a, b)", "torch.nn.functional.mse_loss(a, b)", a=rnd(0, 3), b=rnd(0, 3))
case("bce_size_mismatch", "binary_cross_entropy(a, b)", "torch.nn.functional.binary_cross_entropy(a, b)",
     a=probs(4, 1), b=probs(4))
case("bce_clamps_log", "binary_cross_entropy(a, b)", "torch.nn.functional.binary_cross_entropy(a, b)",
     a=torch.tensor([0.0, 1.0, 0.5]), b=torch.tensor([1.0, 0.0, 0.5]))
case("cross_entropy_all_ignored", "cross_entropy(a, t)", "torch.nn.functional.cross_entropy(a, t.long())",
     a=rnd(3, 4), t=torch.full((3,), -100, dtype=torch.int32))
case("cross_entropy_1d", "cross_entropy(a, t)", "torch.nn.functional.cross_entropy(a, t.long())", grad=("a",),
     a=rnd(7), t=torch.tensor(2, dtype=torch.int32))
case("cross_entropy_bad_label", "cross_entropy(a, t)", "torch.nn.functional.cross_entropy(a, t.long())",
     a=rnd(3, 4), t=torch.tensor([0, 4, 1], dtype=torch.int32))
case("cross_entropy_bad_target_size", "cross_entropy(a, t)", "torch.nn.functional.cross_entropy(a, t.long())",
     a=rnd(3, 4), t=torch.tensor([0, 1], dtype=torch.int32))
case("cross_entropy_bad_reduction", "cross_entropy(a, t, reduction = \"avg\")",
     "torch.nn.functional.cross_entropy(a, t.long(), reduction='avg')", a=rnd(3, 4), t=labels(3, 4))
case("cross_entropy_bad_smoothing", "cross_entropy(a, t, label_smoothing = 1.5)",
     "torch.nn.functional.cross_entropy(a, t.long(), label_smoothing=1.5)", a=rnd(3, 4), t=labels(3, 4))

# reductions; every reduction takes a list of dims
for shape, dim, keep in (((3, 4), 1, False), ((3, 4), 0, True), ((2, 3, 4), [0, 2], False),
                         ((2, 3, 4), [-1, 1], True), ((5,), 0, False), ((2, 0), 1, False)):
    k = "true" if keep else "false"
    case(f"logsumexp_{shape}_{dim}_{keep}", f"logsumexp(a, {dim}, keepdim = {k})",
         f"torch.logsumexp(a, {dim}, keepdim={keep})", grad=("a",), a=rnd(*shape, lo=-20, hi=20))
    for corr in (0, 1, 2):
        case(f"var_{shape}_{dim}_{keep}_{corr}", f"a.var({dim}, correction = {corr}, keepdim = {k})",
             f"torch.var(a, {dim}, correction={corr}, keepdim={keep})", grad=("a",),
             a=rnd(*shape))
        case(f"std_{shape}_{dim}_{keep}_{corr}", f"std(a, dim = {dim}, correction = {corr}, keepdim = {k})",
             f"torch.std(a, {dim}, correction={corr}, keepdim={keep})",
             grad=("a",) if shape != (5,) or corr != 2 else (), a=rnd(*shape))
    for p in (2, 1, 3, 0.5, "inf", "-inf", 0):
        tp = {"inf": "float('inf')", "-inf": "float('-inf')"}.get(p, p)
        dp = {"inf": 'float("inf")', "-inf": 'float("-inf")'}.get(p, p)
        case(f"norm_{shape}_{dim}_{keep}_{p}", f"norm(a, {dp}, {dim}, {k})",
             f"torch.linalg.vector_norm(a, {tp}, {dim}, {keep})",
             grad=("a",) if p not in (0,) and 0 not in shape else (), a=rnd(*shape))
    for fn in ("sum", "mean"):
        case(f"{fn}_list_{shape}_{dim}_{keep}", f"a.{fn}(dim = {dim}, keepdim = {k})",
             f"a.{fn}(dim={dim}, keepdim={keep})", grad=("a",), a=rnd(*shape))
case("logsumexp_inf_rows", "logsumexp(a, 1)", "torch.logsumexp(a, 1)",
     a=torch.tensor([[float("-inf")] * 3, [1.0, float("inf"), 0.0], [1.0, 2.0, 3.0]]))
case("var_all", "var(a)", "torch.var(a)", grad=("a",), a=rnd(4, 5))
case("var_one_element", "var(a)", "torch.var(a)", a=rnd(1))
case("std_all_fro", "norm(a, \"fro\")", "torch.norm(a, 'fro')", grad=("a",), a=rnd(3, 4))
case("var_int_error", "var(a)", "torch.var(a)", a=ints(3))
case("var_dim_twice", "var(a, [1, 1])", "torch.var(a, [1, 1])", a=rnd(3, 4))
for shape, dim, keep in (((3, 4), 1, False), ((3, 4), 0, True), ((2, 3, 4), -1, False),
                         ((5,), 0, False), ((2, 0), 1, False), ((2, 0), 0, True)):
    k = "true" if keep else "false"
    case(f"prod_{shape}_{dim}_{keep}", f"prod(a, {dim}, keepdim = {k})",
         f"torch.prod(a, {dim}, keepdim={keep})", grad=("a",), a=rnd(*shape))
    case(f"prod_i32_{shape}_{dim}", f"a.prod({dim})", f"a.prod({dim})", a=ints(*shape, lo=-3, hi=4))
case("prod_all", "prod(a)", "torch.prod(a)", grad=("a",), a=rnd(2, 3))
case("prod_zeros_grad", "prod(a, 1)", "torch.prod(a, 1)", grad=("a",),
     a=torch.tensor([[0.5, 0.0, 2.0], [0.0, 1.2, 0.0], [0.9, 1.1, 1.3]]))
case("prod_dim_list", "prod(a, [0, 2])", "torch.prod(torch.prod(a, 2), 0)", grad=("a",),
     a=rnd(2, 3, 4))
case("prod_scalar", "prod(a)", "torch.prod(a)", a=torch.tensor(3.0))
# max/min take one dim (and give values and indices); torch.max with a list raises, as Tessel.
for fn, want in (("max", "torch.max(a, dim=[0, 2], keepdim=True)"),
                 ("min", "torch.min(a, dim=[0, 2], keepdim=True)"),
                 ("all", "a.all(dim=2, keepdim=True).all(dim=0, keepdim=True)"),
                 ("any", "a.any(dim=2, keepdim=True).any(dim=0, keepdim=True)")):
    case(f"{fn}_dim_list", f"a.{fn}(dim = [0, 2], keepdim = true)", want,
         a=bools(2, 3, 4) if fn in ("all", "any") else rnd(2, 3, 4))
case("argmax_dim_list", "a.argmax(dim = [0, 1])", "torch.argmax(a, dim=[0, 1])", a=rnd(2, 3))

# shape utilities
for size in (2, 3, 5, [1, 2, 2], [0, 5]):
    ts = f"{size}"
    case(f"split_{size}", f"tuple(split(a, {ts}))", f"torch.split(a, {ts})", grad=("a",),
         a=rnd(5, 3))
    case(f"split_dim1_{size}", f"tuple(a.split({ts}, dim = -1))", f"a.split({ts}, dim=-1)",
         grad=("a",), a=rnd(2, 5))
case("split_bad_sections", "split(a, [1, 2])", "torch.split(a, [1, 2])", a=rnd(5))
case("split_empty", "tuple(split(a, 2))", "torch.split(a, 2)", a=rnd(0, 2))
for n, chunks in ((5, 3), (6, 4), (6, 3), (2, 5), (1, 1)):
    case(f"chunk_{n}_{chunks}", f"tuple(chunk(a, {chunks}, 1))", f"torch.chunk(a, {chunks}, 1)",
         grad=("a",), a=rnd(2, n))
for pad in ([1, 2], [0, 0, 2, 1], [1, 1, 1, 1, 1, 1], [-1, 2], [2, -3, 1, 0], [0, 0]):
    case(f"pad_{pad}", f"pad(a, {pad}, value = 1.5)", f"torch.nn.functional.pad(a, {pad}, value=1.5)",
         grad=("a",), a=rnd(2, 3, 4))
case("pad_int", "pad(a, [1, 1])", "torch.nn.functional.pad(a, [1, 1])", a=ints(2, 3))
case("pad_odd", "pad(a, [1])", "torch.nn.functional.pad(a, [1])", a=rnd(2, 3))
case("pad_too_long", "pad(a, [1, 1, 1, 1, 1, 1])", "torch.nn.functional.pad(a, [1, 1, 1, 1, 1, 1])", a=rnd(2, 3))
for dims in ([0], [1], [0, 2], [-1], 1):
    case(f"flip_{dims}", f"flip(a, {dims})", f"torch.flip(a, {dims if dims != 1 else [1]})",
         grad=("a",), a=rnd(2, 3, 4))
case("flip_empty", "flip(a, [0])", "torch.flip(a, [0])", a=rnd(0, 3))
for shifts, dims in ((1, 0), (-2, 1), ([1, 5], [0, 2]), (7, None), (0, 1), (-9, [-1])):
    td = "" if dims is None else f", {dims}"
    case(f"roll_{shifts}_{dims}", f"roll(a, {shifts}{td})", f"torch.roll(a, {shifts}{td})",
         grad=("a",), a=rnd(2, 3, 4))
for sizes in ([2, 1], [1, 3], [2, 2, 2], [0, 1], [3]):
    case(f"repeat_{sizes}", f"a.repeat({sizes})", f"a.repeat({sizes})",
         grad=("a",), a=rnd(2, 3) if len(sizes) != 1 else rnd(3))
case("repeat_too_short", "a.repeat([2])", "a.repeat([2])", a=rnd(2, 3))
case("repeat_ints", "repeat(a, 2, 2)", "a.repeat(2, 2)", a=ints(2, 1))
case("outer", "outer(a, b)", "torch.outer(a, b)", grad=("a", "b"), a=rnd(3), b=rnd(4))
case("outer_bad", "outer(a, b)", "torch.outer(a, b)", a=rnd(3, 1), b=rnd(4))

# ---- dense-model elementwise ops --------------------------------------------------------------
def specials():
    return torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5, -1.7, 3.2, 0.0, -0.0, float("nan"),
                         float("inf"), -float("inf"), 1e-6, -1e-6, 30.0, -30.0, 100.0, -100.0])


for fn, tfn in (("erf", "torch.erf"), ("floor", "torch.floor"), ("ceil", "torch.ceil"),
                ("round", "torch.round"), ("trunc", "torch.trunc"), ("sign", "torch.sign"),
                ("expm1", "torch.expm1"), ("silu", "F.silu"), ("softplus", "F.softplus"),
                ("isnan", "torch.isnan"), ("isinf", "torch.isinf"), ("isfinite", "torch.isfinite"),
                ("leaky_relu", "F.leaky_relu"), ("elu", "F.elu"), ("nan_to_num", "torch.nan_to_num")):
    g = () if fn.startswith("is") else ("a",)
    case(f"{fn}_f32", f"{fn}(a)", f"{tfn}(a)", grad=g, a=rnd(3, 4, lo=-4.0, hi=4.0))
    case(f"{fn}_specials", f"a.{fn}()", f"{tfn}(a)", a=specials())
    case(f"{fn}_empty", f"{fn}(a)", f"{tfn}(a)", a=rnd(0, 3))
case("log1p_f32", "log1p(a)", "torch.log1p(a)", grad=("a",), a=rnd(3, 4, lo=-0.9, hi=4.0))
case("log1p_specials", "log1p(a)", "torch.log1p(a)", a=specials())
case("round_halves", "round(a)", "torch.round(a)", grad=("a",),
     a=torch.arange(-10, 11, dtype=torch.float32) / 2)
for fn in ("floor", "ceil", "round", "trunc", "sign"):
    case(f"{fn}_i32", f"{fn}(a)", f"torch.{fn}(a)", a=ints(7))
for fn in ("isnan", "isinf", "isfinite"):
    case(f"{fn}_i32", f"{fn}(a)", f"torch.{fn}(a)", a=ints(5))
case("erf_i32", "erf(a)", "torch.erf(a)", a=ints(5))
case("sign_bool", "sign(a)", "torch.sign(a)", a=bools(6))
case("floor_bool", "floor(a)", "torch.floor(a)", a=bools(3))
case("leaky_relu_slope", "leaky_relu(a, 0.2)", "F.leaky_relu(a, 0.2)", grad=("a",), a=rnd(4, 5))
case("leaky_relu_kw", "a.leaky_relu(negative_slope = -0.5)", "F.leaky_relu(a, negative_slope=-0.5)",
     grad=("a",), a=rnd(6))
case("elu_alpha", "elu(a, alpha = 0.5)", "F.elu(a, alpha=0.5)", grad=("a",), a=rnd(4, 5))
case("elu_zero_grad", "elu(a)", "F.elu(a)", grad=("a",), a=torch.tensor([0.0, 100.0, -100.0]))
case("softplus_beta", "softplus(a, beta = 2.0, threshold = 3.0)",
     "F.softplus(a, beta=2.0, threshold=3.0)", grad=("a",), a=rnd(4, 5))
case("softplus_large", "softplus(a)", "F.softplus(a)", grad=("a",),
     a=torch.tensor([19.0, 21.0, 50.0, -50.0]))
case("nan_to_num_values", "nan_to_num(a, nan = 1.0, posinf = 2.0, neginf = -3.0)",
     "torch.nan_to_num(a, nan=1.0, posinf=2.0, neginf=-3.0)", a=specials())
case("nan_to_num_grad", "nan_to_num(a, 0.5)", "torch.nan_to_num(a, 0.5)", grad=("a",), a=rnd(5))
case("nan_to_num_i32", "nan_to_num(a)", "torch.nan_to_num(a)", a=ints(5))
case("silu_grad_broadcast", "silu(a) * b", "F.silu(a) * b", grad=("a", "b"), a=rnd(3, 1),
     b=rnd(4))


# ---- tril, triu, masked_fill ------------------------------------------------------------------
for fn in ("tril", "triu"):
    for shape in ((3, 4), (4, 3), (2, 3, 5), (1, 1), (0, 3), (3, 0), (2, 0, 4)):
        for d in (0, 1, -1, 5, -5):
            case(f"{fn}_{shape}_{d}", f"{fn}(a, {d})", f"torch.{fn}(a, {d})", grad=("a",),
                 a=rnd(*shape))
    case(f"{fn}_i32", f"a.{fn}(diagonal = 1)", f"a.{fn}(diagonal=1)", a=ints(3, 3))
    case(f"{fn}_bool", f"{fn}(a)", f"torch.{fn}(a)", a=bools(3, 4))
    case(f"{fn}_inf", f"{fn}(a)", f"torch.{fn}(a)", a=torch.full((3, 3), float("inf")))
    case(f"{fn}_1d", f"{fn}(a)", f"torch.{fn}(a)", a=rnd(4))
    case(f"{fn}_strided", f"{fn}(a.T, -1)", f"torch.{fn}(a.T, -1)", grad=("a",), a=rnd(3, 5))
case("masked_fill_f32", "masked_fill(a, m, -1.5)", "torch.masked_fill(a, m, -1.5)", grad=("a",),
     a=rnd(3, 4), m=bools(3, 4))
case("masked_fill_broadcast_mask", "a.masked_fill(m, 2.0)", "a.masked_fill(m, 2.0)", grad=("a",),
     a=rnd(2, 3, 4), m=bools(3, 1))
case("masked_fill_broadcast_x", "masked_fill(a, m, 2.0)", "torch.masked_fill(a, m, 2.0)",
     grad=("a",), a=rnd(4), m=bools(3, 4))
case("masked_fill_i32", "masked_fill(a, m, 1.7)", "torch.masked_fill(a, m, 1.7)", a=ints(3, 4),
     m=bools(3, 4))
case("masked_fill_bool", "masked_fill(a, m, true)", "torch.masked_fill(a, m, True)", a=bools(5),
     m=bools(5))
case("masked_fill_tensor_value", "masked_fill(a, m, v)", "torch.masked_fill(a, m, v)",
     grad=("a", "v"), a=rnd(3, 4), m=bools(3, 4), v=torch.tensor(0.25))
case("masked_fill_inf_softmax", "softmax(masked_fill(a, m, float(\"-inf\")), 1)",
     "torch.softmax(torch.masked_fill(a, m, float('-inf')), 1)", grad=("a",), a=rnd(3, 3),
     m=torch.tensor([[False, True, True], [False, False, True], [False, False, False]]))
case("masked_fill_no_broadcast", "masked_fill(a, m, 1.0)", "torch.masked_fill(a, m, 1.0)",
     a=rnd(2, 3), m=bools(2))
case("masked_fill_mask_not_bool", "masked_fill(a, m, 1.0)", "torch.masked_fill(a, m, 1.0)",
     a=rnd(2, 3), m=ints(2, 3))
case("masked_fill_empty", "masked_fill(a, m, 1.0)", "torch.masked_fill(a, m, 1.0)", a=rnd(0, 3),
     m=bools(0, 3))


# ---- embedding, detach -----------------------------------------------------------------------
case("embedding_2d", "embedding(i, w)", "F.embedding(i.long(), w)", grad=("w",),
     i=idx(0, 2, 3, 3, 1, 0, shape=(2, 3)), w=rnd(5, 4))
case("embedding_1d", "embedding(i, w)", "F.embedding(i.long(), w)", grad=("w",),
     i=idx(4, 4, 0), w=rnd(5, 2))
case("embedding_scalar_idx", "embedding(i, w)", "F.embedding(i.long(), w)", grad=("w",),
     i=torch.tensor(2, dtype=torch.int32), w=rnd(3, 4))
case("embedding_empty", "embedding(i, w)", "F.embedding(i.long(), w)", i=idx(*[]), w=rnd(3, 4))
case("embedding_padding", "embedding(i, w, padding_idx = 1)",
     "F.embedding(i.long(), w, padding_idx=1)", grad=("w",), i=idx(0, 1, 1, 3, 1), w=rnd(4, 3))
case("embedding_padding_negative", "embedding(i, w, padding_idx = -1)",
     "F.embedding(i.long(), w, padding_idx=-1)", grad=("w",), i=idx(0, 3, 3, 2), w=rnd(4, 3))
case("embedding_index_out_of_range", "embedding(i, w)", "F.embedding(i.long(), w)", i=idx(0, 4),
     w=rnd(4, 3))
case("embedding_weight_1d", "embedding(i, w)", "F.embedding(i.long(), w)", i=idx(0), w=rnd(4))
case("detach", "detach(a) * a", "a.detach() * a", grad=("a",), a=rnd(3, 4))


# ---- conv2d, conv1d ----------------------------------------------------------------------------
# (x shape, w shape, options as Tessel text, the same as PyTorch text), with and without bias.
CONV2D = [
    ((2, 3, 7, 9), (4, 3, 3, 3), "padding = 1", "padding=1"),
    ((2, 3, 7, 9), (4, 3, 3, 2), "stride = 2, padding = [1, 2], dilation = [2, 1]",
     "stride=2, padding=(1, 2), dilation=(2, 1)"),
    ((1, 4, 6, 5), (6, 2, 3, 2), "stride = [1, 2], groups = 2", "stride=(1, 2), groups=2"),
    ((2, 4, 5, 5), (4, 1, 3, 3), "padding = 1, groups = 4", "padding=1, groups=4"),
    ((1, 3, 6, 7), (2, 3, 4, 2), "padding = \"same\", dilation = 2", "padding='same', dilation=2"),
    ((1, 3, 6, 7), (2, 3, 3, 3), "padding = \"valid\"", "padding='valid'"),
    ((1, 3, 5, 5), (2, 3, 5, 5), "", ""),
    ((0, 3, 5, 5), (2, 3, 3, 3), "padding = 1", "padding=1"),
    ((1, 1, 1, 1), (1, 1, 1, 1), "", ""),
    ((3, 6, 6), (2, 3, 3, 3), "stride = 2", "stride=2"),  # unbatched
    ((2, 2, 9, 4), (3, 2, 1, 1), "stride = 3", "stride=3"),
]
for i, (xs, ws, topt, popt) in enumerate(CONV2D):
    for bias in (False, True):
        targs = ", ".join(a for a in ("x", "w", "b" if bias else "none", topt) if a)
        pargs = ", ".join(a for a in ("x", "w", "b" if bias else "None", popt) if a)
        case(f"conv2d_{i}_{xs}_{ws}{'_bias' if bias else ''}", f"conv2d({targs})",
             f"F.conv2d({pargs})", grad=("x", "w", "b") if bias else ("x", "w"),
             x=rnd(*xs), w=rnd(*ws), b=rnd(ws[0]))
CONV1D = [
    ((2, 3, 10), (4, 3, 3), "stride = 2, padding = 1, dilation = 2", "stride=2, padding=1, dilation=2"),
    ((1, 6, 7), (3, 2, 4), "padding = \"same\", groups = 3", "padding='same', groups=3"),
    ((3, 8), (2, 3, 3), "padding = [2]", "padding=(2,)"),  # unbatched
    ((0, 2, 5), (2, 2, 2), "", ""),
]
for i, (xs, ws, topt, popt) in enumerate(CONV1D):
    case(f"conv1d_{i}_{xs}_{ws}", f"conv1d({', '.join(a for a in ('x', 'w', 'b', topt) if a)})",
         f"F.conv1d({', '.join(a for a in ('x', 'w', 'b', popt) if a)})", grad=("x", "w", "b"),
         x=rnd(*xs), w=rnd(*ws), b=rnd(ws[0]))
# Errors: PyTorch raises, and so must Tessel (at the user's line).
for name, xs, ws, topt, popt in (
        ("kernel_larger_than_padded_input", (1, 2, 2, 2), (2, 2, 3, 3), "", ""),
        ("kernel_larger_after_dilation", (1, 2, 5, 5), (2, 2, 3, 3), "dilation = 3", "dilation=3"),
        ("channels_mismatch", (1, 4, 5, 5), (2, 3, 3, 3), "", ""),
        ("groups_do_not_divide_out", (1, 4, 5, 5), (3, 2, 3, 3), "groups = 2", "groups=2"),
        ("groups_do_not_divide_in", (1, 3, 5, 5), (2, 1, 3, 3), "groups = 2", "groups=2"),
        ("weight_rank", (1, 3, 5, 5), (2, 3, 3), "", ""),
        ("input_rank", (5, 5), (2, 3, 3, 3), "", ""),
        ("same_with_stride", (1, 3, 5, 5), (2, 3, 3, 3), "stride = 2, padding = \"same\"",
         "stride=2, padding='same'"),
        ("negative_padding", (1, 3, 5, 5), (2, 3, 3, 3), "padding = -1", "padding=-1"),
        ("zero_stride", (1, 3, 5, 5), (2, 3, 3, 3), "stride = 0", "stride=0"),
        ("bad_padding_string", (1, 3, 5, 5), (2, 3, 3, 3), "padding = \"full\"", "padding='full'")):
    case(f"conv2d_error_{name}", f"conv2d({', '.join(a for a in ('x', 'w', topt) if a)})",
         f"F.conv2d({', '.join(a for a in ('x', 'w', popt) if a)})", x=rnd(*xs), w=rnd(*ws))
# ---- scaled_dot_product_attention --------------------------------------------------------------
# The reference is the unfused formula softmax(q @ k^T * scale + mask) @ v: PyTorch 1.13 has no
# F.scaled_dot_product_attention, and its torch._scaled_dot_product_attention_math ignores
# is_causal (it is checked against that function where it applies: no causal, default scale).
# Causal is the top-left aligned tril of [T, S], as PyTorch 2's is_causal.
def sdpa_torch(mask=None, causal=False, scale=None, T=None, S=None, q="q", k="k", v="v"):
    sc = f"{scale}" if scale is not None else f"(1.0 / {q}.shape[-1] ** 0.5)"
    s = f"({q} @ {k}.transpose(-2, -1)) * {sc}"
    if causal:
        s = f"({s}).masked_fill(~torch.ones({T}, {S}, dtype=torch.bool).tril(), float('-inf'))"
    if mask == "bool":
        s = f"({s}).masked_fill(~m, float('-inf'))"
    elif mask == "float":
        s = f"({s} + m)"
    return f"torch.softmax({s}, -1) @ {v}"


def keep_first_key(t):
    t = t.clone()
    t[..., 0] = True
    return t


SDPA = "scaled_dot_product_attention"
qkv = ("q", "k", "v")
case("sdpa_t_ne_s", f"{SDPA}(q, k, v)", "torch._scaled_dot_product_attention_math(q, k, v, None, "
     "0.0, False)[0]", grad=qkv, q=rnd(5, 4), k=rnd(7, 4), v=rnd(7, 3))
case("sdpa_unfused_t_ne_s", f"{SDPA}(q, k, v)", sdpa_torch(), grad=qkv, q=rnd(5, 4), k=rnd(7, 4),
     v=rnd(7, 3))
case("sdpa_batch_broadcast", f"{SDPA}(q, k, v)", sdpa_torch(), grad=qkv, q=rnd(2, 3, 5, 4),
     k=rnd(3, 7, 4), v=rnd(1, 7, 6))
case("sdpa_tiles", f"{SDPA}(q, k, v)", sdpa_torch(), grad=qkv, q=rnd(2, 70, 8), k=rnd(2, 130, 8),
     v=rnd(2, 130, 8))
for T, S in ((6, 3), (3, 6), (70, 90)):
    case(f"sdpa_causal_{T}x{S}", f"{SDPA}(q, k, v, is_causal = true)",
         sdpa_torch(causal=True, T=T, S=S), grad=qkv, q=rnd(2, T, 4), k=rnd(2, S, 4),
         v=rnd(2, S, 5))
for shape in ((5, 7), (2, 1, 5, 7), (7,), (3, 5, 1)):
    case(f"sdpa_bool_mask_{shape}", f"{SDPA}(q, k, v, attn_mask = m)", sdpa_torch("bool"),
         grad=qkv, q=rnd(2, 3, 5, 4), k=rnd(3, 7, 4), v=rnd(1, 7, 4),
         m=keep_first_key(bools(*shape)))
    case(f"sdpa_float_mask_{shape}", f"{SDPA}(q, k, v, m)", sdpa_torch("float"), grad=qkv,
         q=rnd(2, 3, 5, 4), k=rnd(3, 7, 4), v=rnd(1, 7, 4), m=rnd(*shape))
case("sdpa_bool_mask_math", f"{SDPA}(q, k, v, m)",
     "torch._scaled_dot_product_attention_math(q, k, v, m, 0.0, False)[0]", grad=qkv,
     q=rnd(5, 4), k=rnd(7, 4), v=rnd(7, 3), m=keep_first_key(bools(5, 7)))
case("sdpa_scale", f"{SDPA}(q, k, v, scale = 0.3)", sdpa_torch(scale=0.3), grad=qkv, q=rnd(4, 6),
     k=rnd(5, 6), v=rnd(5, 6))
case("sdpa_size_one", f"{SDPA}(q, k, v)", sdpa_torch(), grad=qkv, q=rnd(1, 1), k=rnd(1, 1),
     v=rnd(1, 1))
case("sdpa_empty_t", f"{SDPA}(q, k, v)", sdpa_torch(), q=rnd(0, 4), k=rnd(6, 4), v=rnd(6, 3))
case("sdpa_no_keys", f"{SDPA}(q, k, v)", sdpa_torch(), q=rnd(3, 4), k=rnd(0, 4), v=rnd(0, 2))
# A row whose every key is masked is NaN in PyTorch (softmax of a row of -inf): the same here.
case("sdpa_row_without_keys", f"{SDPA}(q, k, v, m)",
     "torch._scaled_dot_product_attention_math(q, k, v, m, 0.0, False)[0]", q=rnd(3, 4),
     k=rnd(5, 4), v=rnd(5, 2), m=torch.tensor([[True] * 5, [False] * 5, [True, False] * 2 + [True]]))
# Second derivatives (a gradient penalty): the case's expression is d/dq of a weighted square of
# the attention, so its gradient differentiates the attention's gradient (written out in
# differentiable ops while an outer tape records); k and v depend on q so that dq, dk and dv
# are all differentiated.
for tag, targs, mask in (("plain", "", None), ("causal", ", is_causal = true", "causal"),
                         ("bool", ", attn_mask = m", "bool"), ("float", ", attn_mask = m", "float"),
                         ("scale", ", scale = 0.4", "scale")):
    ref = sdpa_torch(mask if mask in ("bool", "float") else None, causal=mask == "causal",
                     scale=0.4 if mask == "scale" else None, T=5, S=5, q="x", k="(x * 0.7)",
                     v="(x.flip(-2) - 0.3)")
    m = keep_first_key(bools(5, 5)) if mask == "bool" else rnd(5, 5)
    case(f"sdpa_second_derivative_{tag}",
         f"grad(fn (x) {{ return ({SDPA}(x, x * 0.7, x.flip([-2]) - 0.3{targs}) ** 2 * w).sum() }})(q)",
         f"first_grad(lambda x: ({ref}) ** 2 * w, q)", grad=("q",), q=rnd(2, 5, 4), w=rnd(5, 4), m=m)
case("sdpa_d_mismatch", f"{SDPA}(q, k, v)", sdpa_torch(), q=rnd(3, 4), k=rnd(5, 3), v=rnd(5, 2))
case("sdpa_mask_does_not_broadcast", f"{SDPA}(q, k, v, m)", sdpa_torch("float"), q=rnd(3, 4),
     k=rnd(5, 4), v=rnd(5, 2), m=rnd(4, 5))
# ---- normalization, one_hot, creation, einsum, amax/amin -----------------------------------

for shape, groups in (((2, 6, 4, 3), 3), ((2, 4), 2), ((3, 6, 5), 1), ((3, 6, 5), 6), ((1, 4, 7), 2)):
    c = shape[1]
    case(f"group_norm_{shape}_{groups}", f"group_norm(a, {groups}, w, b)",
         f"F.group_norm(a, {groups}, w, b)", grad=("a", "w", "b"), a=rnd(*shape), w=rnd(c), b=rnd(c))
    case(f"group_norm_plain_{shape}_{groups}", f"group_norm(a, {groups}, eps = 0.1)",
         f"F.group_norm(a, {groups}, eps=0.1)", grad=("a",), a=rnd(*shape))
case("group_norm_indivisible", "group_norm(a, 4)", "F.group_norm(a, 4)", a=rnd(2, 6, 3))
case("group_norm_bad_weight", "group_norm(a, 2, w)", "F.group_norm(a, 2, w)", a=rnd(2, 6, 3), w=rnd(3))
EPS32 = "torch.finfo(torch.float32).eps"
for shape, ns in (((3, 4), [4]), ((2, 3, 4), [3, 4]), ((5,), [5]), ((2, 0, 3), [3])):
    dims = list(range(-len(ns), 0))
    case(f"rms_norm_{shape}_{ns}", f"rms_norm(a, {ns}, w)",
         f"a * torch.rsqrt(a.pow(2).mean({dims}, keepdim=True) + {EPS32}) * w", grad=("a", "w"),
         a=rnd(*shape), w=rnd(*ns))
    case(f"rms_norm_eps_{shape}_{ns}", f"rms_norm(a, {ns}, eps = 0.5)",
         f"a * torch.rsqrt(a.pow(2).mean({dims}, keepdim=True) + 0.5)", grad=("a",), a=rnd(*shape))
case("rms_norm_int_shape", "rms_norm(a, 4)", f"a * torch.rsqrt(a.pow(2).mean(-1, keepdim=True) + {EPS32})",
     grad=("a",), a=rnd(2, 4))
case("rms_norm_bad_shape", "rms_norm(a, [3])", "F.layer_norm(a, [3])", a=rnd(2, 4))
for shape in ((4, 3), (2, 3, 5), (2, 3, 4, 2)):
    case(f"batch_norm_eval_{shape}", "batch_norm(a, rm, rv, w, b)",
         "F.batch_norm(a, rm, rv, w, b, False, 0.1, 1e-5)", grad=("a", "w", "b"), a=rnd(*shape),
         rm=rnd(3), rv=rnd(3, lo=0.5, hi=2.0), w=rnd(3), b=rnd(3))
    case(f"batch_norm_train_{shape}", "batch_norm(a, rm, rv, w, b, training = true, momentum = 0.3, eps = 1e-3)",
         "(F.batch_norm(a, rm, rv, w, b, True, 0.3, 1e-3), rm, rv)",  # updates rm, rv in place
         grad=("a", "w", "b"), a=rnd(*shape), rm=rnd(3), rv=rnd(3, lo=0.5, hi=2.0), w=rnd(3), b=rnd(3))
    case(f"batch_norm_train_nostats_{shape}", "batch_norm(a, none, none, training = true)",
         "F.batch_norm(a, None, None, training=True)", grad=("a",), a=rnd(*shape))
case("batch_norm_one_value", "batch_norm(a, none, none, training = true)",
     "F.batch_norm(a, None, None, training=True)", a=rnd(1, 3))
case("batch_norm_bad_stats", "batch_norm(a, rm, rv)", "F.batch_norm(a, rm, rv)", a=rnd(4, 3), rm=rnd(2),
     rv=rnd(2))
for shape, n in (((5,), -1), ((2, 3), 7), ((4,), 4), ((0,), 3), ((2, 0), 2), ((), 3)):
    case(f"one_hot_{shape}_{n}", f"one_hot(t, {n})", f"F.one_hot(t.long(), {n})",
         t=torch.randint(0, 4, shape, dtype=torch.int32))
case("one_hot_negative", "one_hot(t)", "F.one_hot(t.long())", t=torch.tensor([1, -1, 2], dtype=torch.int32))
case("one_hot_negative_given", "one_hot(t, 5)", "F.one_hot(t.long(), 5)",
     t=torch.tensor([1, -1, 2], dtype=torch.int32))
case("one_hot_too_large", "one_hot(t, 3)", "F.one_hot(t.long(), 3)", t=torch.tensor([1, 3, 2], dtype=torch.int32))
case("one_hot_empty_inferred", "one_hot(t)", "F.one_hot(t.long())", t=torch.zeros(0, dtype=torch.int32))
for start, end, steps in ((0.0, 1.0, 5), (-2.0, 3.5, 7), (1.0, 1.0, 1), (0.0, 10.0, 0), (3.0, -1.0, 2),
                          (0.1, 0.9, 100), (-5, 5, 11)):
    case(f"linspace_{start}_{end}_{steps}", f"linspace({start}, {end}, {steps})",
         f"torch.linspace({start}, {end}, {steps})")
case("linspace_negative_steps", "linspace(0.0, 1.0, -1)", "torch.linspace(0.0, 1.0, -1)")
case("full_like", "full_like(a, 2.5)", "torch.full_like(a, 2.5)", a=rnd(2, 3))
case("full_like_int", "full_like(t, 2.5)", "torch.full_like(t, 2.5)", t=ints(3, 2))
case("full_like_dtype", "full_like(t, 7, dtype = f32)", "torch.full_like(t, 7, dtype=torch.float32)", t=ints(4))
case("zeros_like", "zeros_like(a)", "torch.zeros_like(a)", a=rnd(2, 0, 3))
case("zeros_like_dtype", "zeros_like(a, dtype = i32)", "torch.zeros_like(a, dtype=torch.int32)", a=rnd(3))
case("ones_like_bool", "ones_like(m)", "torch.ones_like(m)", m=bools(2, 2))
case("ones_like_scalar", "ones_like(a)", "torch.ones_like(a)", a=torch.tensor(3.0))
case("randn_like_shape", "randn_like(a) * 0.0", "torch.randn_like(a) * 0.0", a=rnd(3, 4))
case("randn_like_int", "randn_like(t)", "torch.randn_like(t)", t=ints(3))
EINSUMS = (
    ("ij,jk->ik", (3, 4), (4, 5)), ("ij,jk", (3, 4), (4, 5)), ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)),
    ("i,i->", (6,), (6,)), ("i,j->ij", (3,), (4,)), ("ij->ji", (3, 4)), ("ii->i", (4, 4)), ("ii", (3, 3)),
    ("ij->", (3, 4)), ("...ij,...jk->...ik", (2, 3, 4), (4, 5)), ("...j,...j->...", (2, 1, 3), (4, 3)),
    ("bhqd,bhkd->bhqk", (2, 3, 4, 5), (2, 3, 6, 5)), ("ab,bc,cd->ad", (3, 4), (4, 5), (5, 2)),
    ("ab,cd,bc->da", (3, 4), (5, 2), (4, 5)), ("i,i,i->i", (4,), (4,), (4,)), ("iij->j", (2, 2, 3)),
    ("Ab,a->bAa", (2, 3), (4,)), ("i j , j k -> i k", (2, 3), (3, 2)), ("i,i->", (1,), (3,)),
    ("bn,anm,bm->ba", (2, 3), (4, 3, 5), (2, 5)), ("ij,ij->ij", (3, 4), (3, 4)), ("i->", (0,)),
    ("ij,jk->ik", (0, 3), (3, 2)), ("...->...", (2, 3)), ("ba", (2, 3)),
)
for eq, *shapes in EINSUMS:
    names = "abcd"[:len(shapes)]
    ins = {n: rnd(*s) for n, s in zip(names, shapes)}
    args = ", ".join(names)
    case(f"einsum_{eq}_{shapes}", f'einsum("{eq}", {args})', f'torch.einsum("{eq}", {args})',
         grad=tuple(names), **ins)
case("einsum_list", 'einsum("ij,jk->ik", [a, b])', 'torch.einsum("ij,jk->ik", [a, b])', a=rnd(2, 3), b=rnd(3, 2))
for eq, shapes in (("ij,jk->ik", ((2, 3), (4, 4))), ("i->ii", ((2,),)), ("ij->k", ((2, 3),)), ("i1->i", ((2, 3),)),
                   (".ij->ij", ((2, 3),)), ("ij", ((2,),)), ("ij,jk", ((2, 3),)), ("ij->jj", ((2, 2),)),
                   ("...i...->i", ((2, 3),)), ("ij->i->j", ((2, 3),))):
    names = "abcd"[:len(shapes)]
    ins = {n: rnd(*s) for n, s in zip(names, shapes)}
    args = ", ".join(names)
    case(f"einsum_error_{eq}_{shapes}", f'einsum("{eq}", {args})', f'torch.einsum("{eq}", {args})', **ins)
for dim, keep in ((1, False), ([0, 2], True), ([-1, 0], False), (None, False)):
    td = "()" if dim is None else dim
    dd = "" if dim is None else f", {dim}"
    for fn in ("amax", "amin"):
        case(f"{fn}_{dim}_{keep}", f"{fn}(a{dd}, keepdim = {'true' if keep else 'false'})",
             f"torch.{fn}(a, {td}, keepdim={keep})", grad=("a",), a=rnd(2, 3, 4))
        case(f"{fn}_int_{dim}", f"a.{fn}({'' if dim is None else dim})", f"a.{fn}({td})", a=ints(2, 3, 4))
for fn in ("sum", "mean", "max", "min", "amax", "logsumexp", "norm"):
    case(f"{fn}_dim_tuple", f"{fn}(a, dim = (0, 2))" if fn != "norm" else "norm(a, 2, (0, 2))",
         {"norm": "torch.linalg.vector_norm(a, 2, (0, 2))"}.get(fn, f"torch.{fn}(a, dim=(0, 2))"),
         grad=("a",), a=rnd(2, 3, 4))
for fn in ("max", "min"):
    case(f"{fn}_dim_values_indices", f"{fn}(a, dim = 1)", f"torch.{fn}(a, dim=1)", a=rnd(3, 5))
    case(f"{fn}_dim_keepdim_method", f"a.{fn}(dim = -1, keepdim = true)",
         f"a.{fn}(dim=-1, keepdim=True)", a=rnd(2, 3, 4))
    case(f"{fn}_two_tensors", f"{fn}(a, b)", f"torch.{fn}(a, b)", grad=("a", "b"), a=rnd(3, 4), b=rnd(3, 4))
for fn in ("all", "any"):
    case(f"{fn}_dim_list", f"{fn}(m, dim = [0, 1])", f"m.{fn}(1).{fn}(0)", m=bools(2, 3, 4))


# ---- decompositions (tensor_decompositions_*.cpp) ---------------------------------------------
case("unbind", "unbind(a, 1)", "torch.unbind(a, 1)", grad=("a",), a=rnd(2, 3))
case("unbind_method_neg", "a.unbind(-1)", "a.unbind(-1)", a=ints(2, 2))
case("unbind_scalar", "unbind(a)", "torch.unbind(a)", a=torch.tensor(1.0))
case("unbind_dim_out_of_range", "unbind(a, 2)", "torch.unbind(a, 2)", a=rnd(2, 3))
for dim, start, length in ((0, 1, 2), (1, -3, 2), (1, 4, 0), (-1, 0, 4), (1, 2, 3), (1, 5, 0), (1, -5, 1)):
    case(f"narrow_{dim}_{start}_{length}", f"narrow(a, {dim}, {start}, {length})",
         f"torch.narrow(a, {dim}, {start}, {length})", grad=("a",), a=rnd(3, 4))
case("narrow_negative_length", "a.narrow(0, 0, -1)", "a.narrow(0, 0, -1)", a=rnd(3))
for shape, to in (((3,), (2, 3)), ((2, 1), (2, 4)), ((1, 3), (-1, 3)), ((), (2, 2)), ((2, 3), (3,)),
                  ((2, 3), (3, 3))):
    case(f"broadcast_to_{shape}_{to}", f"broadcast_to(a, {list(to)})", f"torch.broadcast_to(a, {to})",
         grad=("a",), a=rnd(*shape))
for src, dst in ((0, 2), (-1, 0), ([0, 1], [2, 0]), ([2, 0], [0, 1]), ((0,), (0,)), ([0, 0], [1, 2]),
                 ([0], [1, 2]), (3, 0)):
    case(f"movedim_{src}_{dst}", f"movedim(a, {list(src) if isinstance(src, tuple) else src}, "
         f"{list(dst) if isinstance(dst, tuple) else dst})", f"torch.movedim(a, {src}, {dst})",
         grad=("a",), a=rnd(2, 3, 4))
for d0, d1 in ((0, 2), (-1, 1), (1, 1), (0, 3)):
    case(f"swapaxes_{d0}_{d1}", f"a.swapaxes({d0}, {d1})", f"a.swapaxes({d0}, {d1})", grad=("a",),
         a=rnd(2, 3, 4))
for dim, sizes in ((1, (2, 6)), (-1, (3, -1)), (0, (1, 2)), (1, (-1,)), (1, (5, -1)), (1, (4, 4)),
                   (1, (-1, -1)), (2, (3, 4))):
    case(f"unflatten_{dim}_{sizes}", f"unflatten(a, {dim}, {list(sizes)})",
         f"torch.unflatten(a, {dim}, {sizes})", grad=("a",), a=rnd(2, 12))
for shape, dims in (((3,), (2,)), ((2, 3), (2,)), ((2, 3), (1, 2, 2)), ((2, 3), ()), ((), (3,)), ((2, 2), (0, 2))):
    case(f"tile_{shape}_{dims}", f"tile(a, {list(dims)})", f"torch.tile(a, {dims})", grad=("a",), a=rnd(*shape))
case("tile_method_ints", "t.tile(2, 1)", "t.tile(2, 1)", t=ints(2, 3))
for shape, k in (((3,), 0), ((3,), 2), ((3,), -1), ((3, 4), 0), ((3, 4), 1), ((3, 4), -2), ((4, 3), 2),
                 ((3, 4), 4), ((3, 4), -3), ((0,), 1), ((2, 2, 2), 0)):
    case(f"diag_{shape}_{k}", f"diag(a, {k})", f"torch.diag(a, {k})", grad=("a",), a=rnd(*shape))
case("diag_int", "t.diag(1)", "t.diag(1)", t=ints(3))
case("diag_bool", "diag(m)", "torch.diag(m)", m=bools(3))
for shape, off, d1, d2 in (((3, 4), 0, 0, 1), ((3, 4), 1, 0, 1), ((3, 4), -2, 1, 0), ((2, 3, 4), 0, 1, 2),
                           ((2, 3, 4), -1, 2, 0), ((2, 3, 4), 4, 1, 2), ((2, 3, 4), 0, 1, 1), ((3,), 0, 0, 1),
                           ((2, 3, 4), 0, 0, 3)):
    case(f"diagonal_{shape}_{off}_{d1}_{d2}", f"diagonal(a, {off}, {d1}, {d2})",
         f"torch.diagonal(a, {off}, {d1}, {d2})", grad=("a",), a=rnd(*shape))
for ix in ("ij", "xy"):
    case(f"meshgrid_{ix}", f'meshgrid(a, b, c, indexing = "{ix}")', f'torch.meshgrid(a, b, c, indexing="{ix}")',
         grad=("a", "b", "c"), a=rnd(2), b=rnd(3), c=rnd(4))
    case(f"meshgrid_list_{ix}", f'meshgrid([a, b], indexing = "{ix}")', f'torch.meshgrid([a, b], indexing="{ix}")',
         a=ints(2), b=ints(3))
case("meshgrid_one", "meshgrid(a)", "torch.meshgrid(a, indexing='ij')", a=rnd(3))
case("meshgrid_scalar", "meshgrid(a, b)", "torch.meshgrid(a, b, indexing='ij')", a=torch.tensor(2.0), b=rnd(3))
case("meshgrid_2d", "meshgrid(a, b)", "torch.meshgrid(a, b, indexing='ij')", a=rnd(2, 2), b=rnd(3))
case("meshgrid_bad_indexing", 'meshgrid(a, indexing = "ji")', 'torch.meshgrid(a, indexing="ji")', a=rnd(3))
case("take_along_dim_argsort", "take_along_dim(a, argsort(a, 1), 1)",
     "torch.take_along_dim(a, torch.argsort(a, 1), 1)", grad=("a",), a=rnd(3, 4))
case("take_along_dim_flat", "take_along_dim(a, i)", "torch.take_along_dim(a, i.long())", grad=("a",),
     a=rnd(3, 4), i=torch.tensor([[0, 11], [5, 5]], dtype=torch.int32))
case("take_along_dim_broadcast", "a.take_along_dim(i, 0)", "a.take_along_dim(i.long(), 0)", grad=("a",),
     a=rnd(3, 1, 4), i=torch.tensor([[[2], [0]]], dtype=torch.int32))
case("take_along_dim_broadcast_input", "take_along_dim(a, i, -1)", "torch.take_along_dim(a, i.long(), -1)",
     grad=("a",), a=rnd(1, 4), i=torch.tensor([[0, 3], [1, 1], [2, 0]], dtype=torch.int32))
case("take_along_dim_rank", "take_along_dim(a, i, 0)", "torch.take_along_dim(a, i.long(), 0)",
     a=rnd(3, 4), i=torch.tensor([0, 1], dtype=torch.int32))
case("take_along_dim_dim_out_of_range", "take_along_dim(a, i, 2)", "torch.take_along_dim(a, i.long(), 2)",
     a=rnd(3, 4), i=torch.tensor([[0]], dtype=torch.int32))
for dim, index, value in ((0, [0, 2], "1.5"), (1, [-1], "-2.0"), (-1, [1, 1, 3], "0.0"), (1, [], "9.0"),
                          (0, 1, "3.0"), (1, [4], "1.0"), (1, [-5], "1.0"), (2, [0], "1.0")):
    case(f"index_fill_{dim}_{index}_{value}", f"index_fill(a, {dim}, i, {value})",
         f"torch.index_fill(a, {dim}, i.long(), {value})", grad=("a",), a=rnd(3, 4),
         i=torch.tensor(index, dtype=torch.int32))
case("index_fill_int_method", "t.index_fill(0, i, 7)", "t.index_fill(0, i.long(), 7)", t=ints(3, 2),
     i=torch.tensor([1], dtype=torch.int32))
case("index_fill_tensor_value", "index_fill(a, 1, i, v)", "torch.index_fill(a, 1, i.long(), v)",
     grad=("a", "v"), a=rnd(2, 3), i=torch.tensor([0, 2], dtype=torch.int32), v=torch.tensor(0.5))
case("index_fill_scalar_input", "index_fill(a, 0, i, 2.0)", "torch.index_fill(a, 0, i.long(), 2.0)",
     a=torch.tensor(1.0), i=torch.tensor([0], dtype=torch.int32))
for shape, dim in (((2, 6), -1), ((4, 3), 0), ((2, 4, 2), 1), ((2, 3), 1), ((2, 3), 2)):
    case(f"glu_{shape}_{dim}", f"glu(a, {dim})", f"F.glu(a, {dim})", grad=("a",), a=rnd(*shape))
for p, dim in ((2.0, 1), (1.0, 0), (3.0, -1), ("float('inf')", 1), (0.5, 1), (2.0, [0, 1]), (2.0, 2)):
    case(f"normalize_{p}_{dim}", f"normalize(a, {p}, {dim})",
         f"F.normalize(a, {p}, {tuple(dim) if isinstance(dim, list) else dim})", grad=("a",), a=rnd(3, 4))
case("normalize_zero_rows", "normalize(a)", "F.normalize(a)", grad=("a",),
     a=torch.tensor([[0.0, 0.0, 0.0], [1e-13, 0.0, 0.0], [1.0, -2.0, 2.0]]))
case("normalize_eps", "normalize(a, eps = 10.0)", "F.normalize(a, eps=10.0)", grad=("a",), a=rnd(2, 3))
case("normalize_1d", "normalize(a, dim = 0)", "F.normalize(a, dim=0)", grad=("a",), a=rnd(5))
for s1, s2, dim in (((3, 4), (3, 4), 1), ((3, 4), (1, 4), 1), ((2, 3, 4), (3, 4), -1), ((5,), (5,), 0),
                    ((3, 4), (3, 4), 0), ((3, 4), (3, 4), 2)):
    case(f"cosine_similarity_{s1}_{s2}_{dim}", f"cosine_similarity(a, b, {dim})",
         f"F.cosine_similarity(a, b, {dim})", grad=("a", "b"), a=rnd(*s1), b=rnd(*s2))
case("cosine_similarity_tiny_norms", "cosine_similarity(a, b, eps = 1e-3)", "F.cosine_similarity(a, b, eps=1e-3)",
     grad=("a", "b"), a=torch.tensor([[1e-5, 2e-5], [3.0, 4.0], [0.0, 0.0]]),
     b=torch.tensor([[1.0, 0.5], [1e-5, 0.0], [1.0, 1.0]]))
NAN, INF = float("nan"), float("inf")
CLOSE_A = torch.tensor([1.0, 1.0, NAN, NAN, INF, INF, -INF, 0.0, 1e10, 1e-9, 100.0])
CLOSE_B = torch.tensor([1.0, 1.000001, NAN, 1.0, INF, -INF, -INF, 1e-8, 1.00001e10, 0.0, 100.01])
for args, kw in (("", ""), (", equal_nan = true", ", equal_nan=True"), (", rtol = 0.0, atol = 0.0", ", rtol=0.0, atol=0.0"),
                 (", rtol = 1e-3", ", rtol=1e-3"), (", atol = 0.1", ", atol=0.1"), (", rtol = -1.0", ", rtol=-1.0")):
    case(f"isclose{kw}", f"isclose(a, b{args})", f"torch.isclose(a, b{kw})", a=CLOSE_A, b=CLOSE_B)
    case(f"allclose{kw}", f"tensor(allclose(a[:2], b[:2]{args}))", f"torch.tensor(torch.allclose(a[:2], b[:2]{kw}))",
         a=CLOSE_A, b=CLOSE_B)
case("isclose_bool", "isclose(m, n)", "torch.isclose(m, n)", m=bools(6), n=bools(6))
case("isclose_int", "isclose(s, t, atol = 1.0)", "torch.isclose(s, t, atol=1.0)", s=ints(6), t=ints(6))
case("isclose_broadcast", "a.isclose(b)", "a.isclose(b)", a=rnd(2, 3), b=rnd(3))
case("isclose_dtypes", "isclose(a, t)", "torch.isclose(a, t)", a=rnd(3), t=ints(3))
case("allclose_method", "tensor(a.allclose(a + 1e-7))", "torch.tensor(a.allclose(a + 1e-7))", a=rnd(4))

# ---- running one case -------------------------------------------------------------------------
PRELUDE = """import vision
fn tl(v) {
  if type(v) == "tuple" or type(v) == "list" {
    let r = []
    for e in v { r.append(tl(e)) }
    return r
  }
  return [v.tolist(), str(v.dtype), list(v.shape)]
}
"""
ERROR_RE = re.compile(r":\d+:\d+: (\w+Error)")


def first_grad(f, x):
    """d sum(f(x)) / dx, itself differentiable: a case whose expression is a first derivative
    has a second derivative as its gradient."""
    if not x.requires_grad:
        x = x.detach().requires_grad_()
    return torch.autograd.grad(f(x).sum(), x, create_graph=True)[0]


def torch_eval(expr, env):
    # One namespace, so that a lambda in the expression sees the inputs too.
    return eval(expr, {"torch": torch, "tvops": tvops, "F": torch.nn.functional,
                       "first_grad": first_grad, **env})


def weights(shape):
    n = 1
    for d in shape:
        n *= d
    return torch.sin(torch.arange(n, dtype=torch.float32) * 0.7 + 0.3).reshape(shape)


def run_tessel(tessel_bin, program):
    with tempfile.NamedTemporaryFile("w", suffix=".dsl", delete=False) as f:
        f.write(program)
        path = f.name
    try:
        p = subprocess.run([tessel_bin, path], capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(path)
    return p


def check(tessel_bin, name, tessel, torch_expr, grad, inputs):
    env = {k: v.clone() for k, v in inputs.items()}
    lets = "".join(f"let {k} = {literal(v)}\n" for k, v in inputs.items())
    try:
        want = torch_eval(torch_expr, env)
        want_err = None
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        want, want_err = None, e
    if want_err is not None:
        p = run_tessel(tessel_bin, PRELUDE + lets + f"print(tl({tessel}))\n")
        m = ERROR_RE.search(p.stderr)
        if p.returncode == 0 or not m:
            return f"PyTorch raises {type(want_err).__name__} ({want_err}), Tessel gave {p.stdout.strip()!r} {p.stderr.strip()!r}"
        if isinstance(want_err, IndexError) and m.group(1) != "IndexError":
            return f"PyTorch raises IndexError, Tessel {m.group(1)}: {p.stderr.strip()}"
        return None
    outs = list(want) if isinstance(want, tuple) else [want]
    program = PRELUDE + lets + f"print(tl({tessel}))\n"
    wgrads = []
    if grad:
        ws = [weights(o.shape) for o in outs]
        wl = ", ".join(literal(w) for w in ws)
        loss = (f"let ws = [{wl}]\n  let o = ({tessel})\n  let outs = o\n"
                f"  if type(o) != \"tuple\" {{ outs = (o,) }}\n"
                f"  let l = 0.0\n  for i in range(len(ws)) {{ l = l + (outs[i] * ws[i]).sum() }}\n"
                f"  return l")
        args = ", ".join(grad)
        program += (f"let gr = grad(fn ({args}) {{\n  {loss}\n}}, argnums = "
                    f"{list(range(len(grad)))})({args})\nprint(tl(gr))\n")
        genv = {k: v.clone().requires_grad_(k in grad) for k, v in inputs.items()}
        gout = torch_eval(torch_expr, genv)
        gouts = list(gout) if isinstance(gout, tuple) else [gout]
        loss_t = sum((o * w).sum() for o, w in zip(gouts, ws) if o.is_floating_point())
        try:
            wgrads = torch.autograd.grad(loss_t, [genv[k] for k in grad], allow_unused=True)
        except RuntimeError as e:
            return f"PyTorch's backward fails ({e}); give this case no grad"
    p = run_tessel(tessel_bin, program)
    if p.returncode != 0:
        return f"Tessel failed: {p.stderr.strip()}"
    lines = p.stdout.strip().splitlines()
    env_eval = {"nan": math.nan, "inf": math.inf, "true": True, "false": False}
    got = eval(lines[0], {}, env_eval)
    got = got if isinstance(want, tuple) else [got]
    tol = 1e-5 * (1 + max((o.numel() for o in outs), default=1) / 1000)
    for g, w in zip(got, outs):
        vals, dtype, shape = g
        if shape != list(w.shape):
            return f"shape {shape}, PyTorch {list(w.shape)}"
        if dtype != DTYPE[w.dtype]:
            return f"dtype {dtype}, PyTorch {w.dtype}"
        if not close(vals, w.tolist(), tol, tol):
            return f"values {vals}, PyTorch {w.tolist()}"
    if grad:
        gg = eval(lines[1], {}, env_eval)
        for k, g, w in zip(grad, gg, wgrads):
            w = torch.zeros_like(inputs[k]) if w is None else w
            if not close(g[0], w.tolist(), 1e-4, 1e-4):
                return f"gradient of {k} {g[0]}, PyTorch {w.tolist()}"
    return None


def main():
    tessel_bin = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    failures = 0
    ran = 0
    for name, tessel, torch_expr, grad, inputs in CASES:
        if only not in name:
            continue
        ran += 1
        msg = check(tessel_bin, name, tessel, torch_expr, grad, inputs)
        if msg:
            failures += 1
            print(f"FAIL {name}: {tessel}: {msg}")
    print(f"{ran - failures}/{ran} cases match PyTorch {torch.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
