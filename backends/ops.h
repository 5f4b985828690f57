// Convenience wrappers over dispatch() for C++ callers: gradient rules, tests, built-ins.
// Each builds the op's OpAttrs and runs it through dispatch, so it is recorded on tapes.
#pragma once

#include <vector>

#include "backends/dispatch.h"

namespace tessel::backends::ops {

using shapes::OpKind;

Tensor unary(OpKind op, const Tensor& x);
Tensor binary(OpKind op, const Tensor& a, const Tensor& b);
inline Tensor add(const Tensor& a, const Tensor& b) {
  return binary(OpKind::Add, a, b);
}
inline Tensor sub(const Tensor& a, const Tensor& b) {
  return binary(OpKind::Sub, a, b);
}
inline Tensor mul(const Tensor& a, const Tensor& b) {
  return binary(OpKind::Mul, a, b);
}
inline Tensor div(const Tensor& a, const Tensor& b) {
  return binary(OpKind::Div, a, b);
}
inline Tensor neg(const Tensor& x) {
  return unary(OpKind::Neg, x);
}
/// A 0-d f32 constant (not an op: constants are never differentiated).
inline Tensor scalar(double v) {
  return Tensor::scalar(v, DType::F32);
}

/// Reductions; empty dims means all dims.
Tensor reduce(OpKind op, const Tensor& x, Dims dims = {}, bool keepdim = false);
inline Tensor sum(const Tensor& x, Dims dims = {}, bool keepdim = false) {
  return reduce(OpKind::Sum, x, std::move(dims), keepdim);
}
inline Tensor mean(const Tensor& x, Dims dims = {}, bool keepdim = false) {
  return reduce(OpKind::Mean, x, std::move(dims), keepdim);
}

Tensor reshape(const Tensor& x, const Dims& shape);
Tensor expand(const Tensor& x, const Dims& shape);
Tensor unsqueeze(const Tensor& x, int64_t dim);
Tensor squeeze(const Tensor& x, Dims dims);
Tensor transpose(const Tensor& x, int64_t a, int64_t b);
Tensor permute(const Tensor& x, Dims dims);
Tensor slice(const Tensor& x, int64_t dim, int64_t start, int64_t stop, int64_t step = 1);
Tensor select(const Tensor& x, int64_t dim, int64_t index);
Tensor cat(const std::vector<Tensor>& xs, int64_t dim);
Tensor full(const Dims& shape, double value, DType dtype = DType::F32);
Tensor arange(int64_t n, DType dtype = DType::I32);
Tensor cast(const Tensor& x, DType dtype);
Tensor where(const Tensor& c, const Tensor& a, const Tensor& b);
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor softmax(const Tensor& x, int64_t dim);
Tensor maskedSelect(const Tensor& x, const Tensor& mask);
Tensor maskedScatter(const Tensor& x, const Tensor& mask, const Tensor& src);

}  // namespace tessel::backends::ops
