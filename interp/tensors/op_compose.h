// Small builders for natives that are compositions of op-table ops (losses, reductions, shape
// utilities, dense-model ops): each emits one op through emitOp, so a composition runs eagerly
// on every device and is traced under @compile with the ops' own shape and gradient rules.
#pragma once

#include <vector>

#include "interp/tensors/op_sink.h"
#include "interp/values/value.h"
#include "shapes/op_attrs.h"

namespace tessel::interp::compose {

using shapes::OpAttrs;
using shapes::OpKind;
using shapes::SymInt;
using shapes::SymShape;

inline Value op(OpKind k, const Value& a) {
  return emitOp(k, {a});
}
inline Value op(OpKind k, const Value& a, const Value& b) {
  return emitOp(k, {a, b});
}
inline Value real(double v) {
  return Value::real(v);
}
inline Value reduceOp(OpKind k, const Value& x, const std::vector<int64_t>& dims, bool keepdim) {
  OpAttrs a;
  a.dims = dims;
  a.keepdim = keepdim;
  return emitOp(k, {x}, a);
}
inline Value sumAll(const Value& x) {
  return emitOp(OpKind::Sum, {x});
}
inline Value sumDim(const Value& x, int64_t dim) {
  return reduceOp(OpKind::Sum, x, {dim}, false);
}
inline Value unsqueeze(const Value& x, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return emitOp(OpKind::Unsqueeze, {x}, a);
}
inline Value squeeze(const Value& x, int64_t dim) {
  OpAttrs a;
  a.dims = {dim};
  return emitOp(OpKind::Squeeze, {x}, a);
}
inline Value sliceOf(const Value& x, int64_t dim, const SymInt& start, const SymInt& stop) {
  OpAttrs a;
  a.dim = dim;
  a.start = start;
  a.stop = stop;
  return emitOp(OpKind::Slice, {x}, a);
}
inline Value reshapeTo(const Value& x, const SymShape& shape) {
  OpAttrs a;
  a.shape = shape;
  return emitOp(OpKind::Reshape, {x}, a);
}
inline Value catOf(std::vector<Value> parts, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return emitOp(OpKind::Cat, std::span<const Value>(parts), a);
}

}  // namespace tessel::interp::compose
