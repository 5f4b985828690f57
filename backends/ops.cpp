// ops:: wrappers: OpAttrs construction for the ops C++ code calls most.
#include "backends/ops.h"

namespace tessel::backends::ops {

using shapes::OpAttrs;

namespace {
shapes::SymShape symShape(const Dims& d) {
  return shapes::SymShape(d.begin(), d.end());
}
}  // namespace

Tensor unary(OpKind op, const Tensor& x) {
  return call(op, {x});
}
Tensor binary(OpKind op, const Tensor& a, const Tensor& b) {
  return call(op, {a, b});
}

Tensor reduce(OpKind op, const Tensor& x, Dims dims, bool keepdim) {
  OpAttrs a;
  a.dims = std::move(dims);
  a.keepdim = keepdim;
  return call(op, {x}, a);
}

Tensor reshape(const Tensor& x, const Dims& shape) {
  OpAttrs a;
  a.shape = symShape(shape);
  return call(OpKind::Reshape, {x}, a);
}

Tensor expand(const Tensor& x, const Dims& shape) {
  OpAttrs a;
  a.shape = symShape(shape);
  return call(OpKind::Expand, {x}, a);
}

Tensor unsqueeze(const Tensor& x, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return call(OpKind::Unsqueeze, {x}, a);
}

Tensor squeeze(const Tensor& x, Dims dims) {
  OpAttrs a;
  a.dims = std::move(dims);
  return call(OpKind::Squeeze, {x}, a);
}

Tensor transpose(const Tensor& x, int64_t d0, int64_t d1) {
  OpAttrs a;
  a.dims = {d0, d1};
  return call(OpKind::Transpose, {x}, a);
}

Tensor permute(const Tensor& x, Dims dims) {
  OpAttrs a;
  a.dims = std::move(dims);
  return call(OpKind::Permute, {x}, a);
}

Tensor slice(const Tensor& x, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  OpAttrs a;
  a.dim = dim;
  a.start = shapes::SymInt(start);
  a.stop = shapes::SymInt(stop);
  a.step = step;
  return call(OpKind::Slice, {x}, a);
}

Tensor select(const Tensor& x, int64_t dim, int64_t index) {
  OpAttrs a;
  a.dim = dim;
  a.index = index;
  return call(OpKind::Select, {x}, a);
}

Tensor cat(const std::vector<Tensor>& xs, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return dispatch(OpKind::Cat, xs, a)[0];
}

Tensor full(const Dims& shape, double value, DType dtype) {
  OpAttrs a;
  a.shape = symShape(shape);
  a.scalars = {value};
  a.dtype = dtype;
  return call(OpKind::Full, {}, a);
}

Tensor arange(int64_t n, DType dtype) {
  OpAttrs a;
  a.start = shapes::SymInt(0);
  a.stop = shapes::SymInt(n);
  a.step = 1;
  a.dtype = dtype;
  return call(OpKind::Arange, {}, a);
}

Tensor cast(const Tensor& x, DType dtype) {
  OpAttrs a;
  a.dtype = dtype;
  return call(OpKind::Cast, {x}, a);
}

Tensor where(const Tensor& c, const Tensor& a, const Tensor& b) {
  return call(OpKind::Where, {c, a, b});
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  return call(OpKind::Matmul, {a, b});
}

Tensor softmax(const Tensor& x, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return call(OpKind::Softmax, {x}, a);
}

Tensor maskedSelect(const Tensor& x, const Tensor& mask) {
  return call(OpKind::MaskedSelect, {x, mask});
}

Tensor maskedScatter(const Tensor& x, const Tensor& mask, const Tensor& src) {
  return call(OpKind::MaskedScatter, {x, mask, src});
}

}  // namespace tessel::backends::ops
