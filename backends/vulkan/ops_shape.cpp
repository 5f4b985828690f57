// Layout ops: views share the device buffer (strided kernels read them as they are; those
// common to every backend are viewOp's); reshape of a non-contiguous tensor, cat and stack
// copy with elementwise.comp.
#include <algorithm>

#include "backends/view_ops.h"
#include "backends/vulkan/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

Tensor catTensors(std::span<const Tensor> in, int64_t dim, const OpSignature& sig) {
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  int64_t offset = 0;
  for (const Tensor& t : in) {
    if (t.numel() == 0 && t.ndim() != out.ndim()) continue;
    const int64_t len = t.size(dim);
    if (len > 0) copyInto(out.slice(dim, offset, offset + len, 1), t);
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
      return reshapeDevice(x, concreteShape(sig.shape));
    case OpKind::Expand:
      return x.expand(concreteShape(sig.shape));
    case OpKind::Cat:
      return catTensors(in, wrapDim(attrs.dim, int64_t(sig.shape.size())), sig);
    case OpKind::Stack: {
      const int64_t dim = wrapDim(attrs.dim, int64_t(sig.shape.size()));
      std::vector<Tensor> parts;
      for (const Tensor& t : in) parts.push_back(t.unsqueeze(dim));
      return catTensors(parts, dim, sig);
    }
    default:
      TESSEL_ASSERT(false, "not a shape op");
  }
  return {};
}

}  // namespace tessel::backends::vulkan
