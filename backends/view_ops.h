// The layout ops that are views on every backend (same storage, new sizes and strides):
// transpose, permute, unsqueeze, squeeze, slice, select. Backends call it from runShapeOp.
#pragma once

#include <optional>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"

namespace tessel::backends {

/// The view `op` makes of `x` under `attrs` (SymInts evaluated, dims not yet wrapped), or
/// std::nullopt when `op` is none of the ops above (reshape, expand, cat, stack and the rest
/// depend on the backend or on the output signature).
std::optional<Tensor> viewOp(shapes::OpKind op, const Tensor& x, const shapes::OpAttrs& attrs);

}  // namespace tessel::backends
