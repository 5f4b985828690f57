// The ops gradient rules are written with: Var in, Var out, through the Vars' emitter. Sizes
// and shapes are symbolic (SymInt/SymShape), so the same rule works on traced values.
#pragma once

#include <vector>

#include "backends/autodiff/emitter.h"

namespace tessel::backends::autodiff {

using shapes::DType;
using shapes::OpKind;
using shapes::SymInt;
using shapes::SymShape;
using Dims = std::vector<int64_t>;

/// A 0-d constant in like's emitter.
Var lit(const Var& like, double v, DType dtype = DType::F32);
/// A 0-d value holding a size (a constant when the size is; computed in the graph when it is
/// symbolic).
Var sizeScalar(const Var& like, const SymInt& n, DType dtype = DType::F32);

Var unary(OpKind op, const Var& x);
Var binary(OpKind op, const Var& a, const Var& b);
inline Var add(const Var& a, const Var& b) {
  return binary(OpKind::Add, a, b);
}
inline Var sub(const Var& a, const Var& b) {
  return binary(OpKind::Sub, a, b);
}
inline Var mul(const Var& a, const Var& b) {
  return binary(OpKind::Mul, a, b);
}
inline Var div(const Var& a, const Var& b) {
  return binary(OpKind::Div, a, b);
}
inline Var mul(const Var& a, double b) {
  return mul(a, lit(a, b));
}
inline Var sub(double a, const Var& b) {
  return sub(lit(b, a), b);
}
inline Var neg(const Var& x) {
  return unary(OpKind::Neg, x);
}

/// Reductions; empty dims means all dims.
Var reduce(OpKind op, const Var& x, Dims dims = {}, bool keepdim = false);
inline Var sum(const Var& x, Dims dims = {}, bool keepdim = false) {
  return reduce(OpKind::Sum, x, std::move(dims), keepdim);
}
inline Var mean(const Var& x, Dims dims = {}, bool keepdim = false) {
  return reduce(OpKind::Mean, x, std::move(dims), keepdim);
}

/// cumsum/cumprod along dim.
Var scan(OpKind op, const Var& x, int64_t dim);

Var reshape(const Var& x, const SymShape& shape);
Var expand(const Var& x, const SymShape& shape);
Var unsqueeze(const Var& x, int64_t dim);
Var squeeze(const Var& x, Dims dims);
Var transpose(const Var& x, int64_t a, int64_t b);
Var permute(const Var& x, Dims dims);
Var slice(const Var& x, int64_t dim, const SymInt& start, const SymInt& stop);
Var select(const Var& x, int64_t dim, const SymInt& index);
Var cat(const std::vector<Var>& xs, int64_t dim);
/// full(shape, value) in like's emitter.
Var full(const Var& like, const SymShape& shape, double value, DType dtype = DType::F32);
/// arange(n) in like's emitter.
Var arange(const Var& like, const SymInt& n, DType dtype = DType::I32);
Var cast(const Var& x, DType dtype);
Var where(const Var& c, const Var& a, const Var& b);
Var matmul(const Var& a, const Var& b);
Var softmax(const Var& x, int64_t dim);
Var maskedSelect(const Var& x, const Var& mask);
/// index_select, gather, and the writes along a dim (index_add ... scatter_reduce; attrs as
/// in op_attrs.h, dim set from `dim`).
Var indexSelect(const Var& x, int64_t dim, const Var& idx);
Var gather(const Var& x, int64_t dim, const Var& idx);
Var scatterOp(OpKind op, const Var& x, int64_t dim, const Var& idx, const Var& src,
              shapes::OpAttrs attrs = {});
Var maskedScatter(const Var& x, const Var& mask, const Var& src);
/// conv2d(a = x, b = w), conv2d_backward_input(a = gy, b = w) or conv2d_backward_weight(a = gy,
/// b = x) with `params`; `shape` is the backward ops' result shape (x's or w's).
Var conv(OpKind op, const Var& a, const Var& b, const shapes::ConvParams& params,
         const SymShape& shape = {});
/// segment_reduce along axis with `lengths` (mode Sum/Mean/Amax/Amin/Prod) and
/// repeat_interleave along dim with the output size given (so no data-dependent size).
Var segmentReduce(const Var& data, const Var& lengths, int64_t axis, shapes::ScatterMode mode,
                  std::vector<double> initial = {});
Var repeatInterleave(const Var& x, const Var& repeats, int64_t dim, const SymInt& outputSize);
/// One of the pooling and resizing ops (op_list.def) on `args` with the given attributes.
Var poolOp(OpKind op, std::initializer_list<Var> args, const shapes::OpAttrs& attrs);

/// Any op of the table on operands xs (the first one's emitter), for ops without a builder.
Var opOf(OpKind op, const std::vector<Var>& xs, const shapes::OpAttrs& attrs);

/// Sums `g` down to `shape` (undoing NumPy broadcasting): leading dims and dims that are 1 in
/// `shape` (decided like the broadcasting shape rule, size-obliviously) are summed away.
/// Returns g itself when the shapes already match.
Var sumToShape(const Var& g, const SymShape& shape);

}  // namespace tessel::backends::autodiff
