// Layout ops: views share the device buffer (strided kernels read them as they are); reshape
// of a non-contiguous tensor, cat and stack copy with elementwise.comp.
#include <algorithm>

#include "backends/vulkan/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

int64_t clampSliceBound(const std::optional<shapes::SymInt>& v, int64_t n, int64_t dflt) {
  if (!v) return dflt;
  int64_t b = v->constant();
  if (b < 0) b += n;
  return std::clamp<int64_t>(b, 0, n);
}

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
  const int64_t rank = x.ndim();
  switch (op) {
    case OpKind::Reshape:
    case OpKind::Flatten:
      return reshapeDevice(x, concreteShape(sig.shape));
    case OpKind::Expand:
      return x.expand(concreteShape(sig.shape));
    case OpKind::Transpose:
      if (rank < 2 && attrs.dims.empty()) return x;
      return x.transpose(wrapDim(attrs.dims.at(0), rank), wrapDim(attrs.dims.at(1), rank));
    case OpKind::Permute: {
      Dims dims;
      for (int64_t d : attrs.dims) dims.push_back(wrapDim(d, rank));
      return x.permute(dims);
    }
    case OpKind::Unsqueeze:
      return x.unsqueeze(wrapDim(attrs.dim, rank + 1));
    case OpKind::Squeeze: {
      Dims drop;
      for (int64_t d = 0; d < rank; ++d) {
        bool named = attrs.dims.empty();
        for (int64_t a : attrs.dims) named = named || wrapDim(a, rank) == d;
        if (named && x.size(d) == 1) drop.push_back(d);
      }
      return x.squeeze(drop);
    }
    case OpKind::Slice: {
      const int64_t dim = wrapDim(attrs.dim, rank);
      const int64_t n = x.size(dim);
      const int64_t step = attrs.step.constant();
      const int64_t start = clampSliceBound(attrs.start, n, 0);
      const int64_t stop = clampSliceBound(attrs.stop, n, n);
      return x.slice(dim, start, std::max(start, stop), step);
    }
    case OpKind::Select: {
      const int64_t dim = wrapDim(attrs.dim, rank);
      int64_t index = attrs.index.constant();
      if (index < 0) index += x.size(dim);
      return x.select(dim, index);
    }
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
