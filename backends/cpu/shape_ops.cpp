// Layout ops: views (reshape, transpose, permute, unsqueeze, squeeze, flatten, expand, slice,
// select; those common to every backend are viewOp's) and the two that copy (cat, stack).
#include <algorithm>

#include "backends/cpu/kernels.h"
#include "backends/cpu/loops.h"
#include "backends/view_ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

Tensor catTensors(std::span<const Tensor> in, int64_t dim, const OpSignature& sig) {
  Tensor out = emptyLike(sig);
  int64_t offset = 0;
  for (const Tensor& t : in) {
    // PyTorch skips legacy empty 1-D inputs in cat; the shape rule decides whether they are
    // allowed, here a 0-element input simply contributes nothing.
    if (t.numel() == 0 && t.ndim() != out.ndim()) continue;
    const int64_t len = t.size(dim);
    copyInto(out.slice(dim, offset, offset + len, 1), castTo(t, out.dtype()));
    offset += len;
  }
  return out;
}

}  // namespace

Tensor runShapeOp(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& sig) {
  const Tensor& x = in[0];
  if (std::optional<Tensor> view = viewOp(op, x, attrs)) return *std::move(view);
  switch (op) {
    case OpKind::Reshape:
    case OpKind::Flatten:
      return x.reshape(concreteShape(sig.shape));
    case OpKind::Expand:
      return x.expand(concreteShape(sig.shape));
    case OpKind::Cat:
      return catTensors(in, wrapDim(attrs.dim, static_cast<int64_t>(sig.shape.size())), sig);
    case OpKind::Stack: {
      const int64_t dim = wrapDim(attrs.dim, static_cast<int64_t>(sig.shape.size()));
      std::vector<Tensor> parts;
      for (const Tensor& t : in) parts.push_back(t.unsqueeze(dim));
      return catTensors(parts, dim, sig);
    }
    default:
      TESSEL_ASSERT(false, "not a shape op");
  }
  return {};
}

}  // namespace tessel::backends::cpu
