"""What the PyTorch-parity scripts share (torch_parity.py, differential.py): Tessel literals
of PyTorch tensors and the element-wise comparison with PyTorch's tolerances."""
import math

import torch

# PyTorch's dtypes as Tessel names them (int64 results, e.g. argmax's, compare as i32).
DTYPE = {torch.float32: "f32", torch.int32: "i32", torch.int64: "i32", torch.bool: "bool"}


def fmt_value(v):
    """A Python value (nested lists of numbers and bools) as Tessel source."""
    if isinstance(v, list):
        return "[" + ", ".join(fmt_value(e) for e in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return 'float("nan")'
        if math.isinf(v):
            return 'float("inf")' if v > 0 else 'float("-inf")'
        return repr(v)
    return str(v)


def literal(t):
    """A Tessel expression that makes tensor t (contiguous)."""
    dtype = DTYPE[t.dtype]
    if t.numel() == 0:
        return (f"zeros({list(t.shape)}, dtype = {dtype})" if dtype != "bool"
                else f"(zeros({list(t.shape)}) > 0)")
    vals = t.tolist()
    if dtype == "f32":
        return f"tensor({fmt_value(vals if t.dim() else float(vals))}, dtype = f32)"
    if dtype == "i32":
        return f"tensor({fmt_value(vals)}, dtype = i32)"
    return f"tensor({fmt_value(vals)})"


def flat(x):
    if isinstance(x, list):
        for e in x:
            yield from flat(e)
    else:
        yield x


def close(got, want, rtol, atol):
    """Element-wise |got - want| <= atol + rtol * |want|; bools equal, nan where nan, an
    infinity exactly."""
    g, w = list(flat(got)), list(flat(want))
    if len(g) != len(w):
        return False
    for a, b in zip(g, w):
        if isinstance(b, bool) or isinstance(a, bool):
            if bool(a) != bool(b):
                return False
        elif isinstance(b, float) and math.isnan(b):
            if not (isinstance(a, float) and math.isnan(a)):
                return False
        elif isinstance(b, float) and math.isinf(b):
            if a != b:
                return False
        elif a != b and not abs(a - b) <= atol + rtol * abs(b):
            return False
    return True
