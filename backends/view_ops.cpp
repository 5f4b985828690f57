// viewOp: the backend-neutral views of runShapeOp.
#include "backends/view_ops.h"

#include <algorithm>

namespace tessel::backends {

namespace {

int64_t wrap(int64_t dim, int64_t rank) { return dim < 0 ? dim + rank : dim; }

// Python's slice.indices() for step > 0: negative bounds count from the end, then clamp.
int64_t clampSliceBound(const std::optional<shapes::SymInt>& v, int64_t n, int64_t dflt) {
  if (!v) return dflt;
  int64_t b = v->constant();
  if (b < 0) b += n;
  return std::clamp<int64_t>(b, 0, n);
}

}  // namespace

std::optional<Tensor> viewOp(shapes::OpKind op, const Tensor& x, const shapes::OpAttrs& attrs) {
  using shapes::OpKind;
  const int64_t rank = x.ndim();
  switch (op) {
    case OpKind::Transpose:
      // Rank 0 and 1 have nothing to swap (the shape rule checked the dims).
      if (rank < 2) return x;
      return x.transpose(wrap(attrs.dims.at(0), rank), wrap(attrs.dims.at(1), rank));
    case OpKind::Permute: {
      Dims dims;
      for (int64_t d : attrs.dims) dims.push_back(wrap(d, rank));
      return x.permute(dims);
    }
    case OpKind::Unsqueeze:
      return x.unsqueeze(wrap(attrs.dim, rank + 1));
    case OpKind::Squeeze: {
      Dims drop;
      for (int64_t d = 0; d < rank; ++d) {
        bool named = attrs.dims.empty();
        for (int64_t a : attrs.dims) named = named || wrap(a, rank) == d;
        if (named && x.size(d) == 1) drop.push_back(d);
      }
      return x.squeeze(drop);
    }
    case OpKind::Slice: {
      const int64_t dim = wrap(attrs.dim, rank);
      const int64_t n = x.size(dim);
      const int64_t step = attrs.step.constant();
      const int64_t start = clampSliceBound(attrs.start, n, 0);
      const int64_t stop = clampSliceBound(attrs.stop, n, n);
      return x.slice(dim, start, std::max(start, stop), step);
    }
    case OpKind::Select: {
      const int64_t dim = wrap(attrs.dim, rank);
      int64_t index = attrs.index.constant();
      if (index < 0) index += x.size(dim);
      return x.select(dim, index);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace tessel::backends
