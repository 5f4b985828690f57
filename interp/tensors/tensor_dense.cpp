// Built-ins of the dense-model ops that ops/elementwise.ops cannot define (PyTorch names,
// argument order and semantics): nan_to_num's optional bounds, masks, detach, embedding. The
// elementwise ones are compositions of elementwise ops: those fuse into one generated kernel
// under @compile like any chain, and take their gradient from the ops they are made of.
#include <cmath>
#include <limits>

#include "interp/tensors/decomposition_util.h"
#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/shape_env.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using compose::real;
using decomp::arangeI32;
using decomp::zeroOf;

// nan_to_num(x, nan = 0.0, posinf = none, neginf = none): infinities become the f32 extremes
// unless given. Integer and bool tensors have neither, and come back unchanged (as torch).
Value nativeNanToNum(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::nan_to_num, s.args());
  const Value& x = tensorArg(b.at(0), "nan_to_num(): x");
  auto opt = [&](size_t i, double dflt) {
    return b.has(i) && !b.at(i).is(Type::None) ? b.toFloat(i) : dflt;
  };
  const double big = std::numeric_limits<float>::max();
  const double nan = opt(1, 0.0), posinf = opt(2, big), neginf = opt(3, -big);
  if (dtypeOf(x) != DType::F32) return x;
  const double inf = std::numeric_limits<double>::infinity();
  Value y = emitOp(OpKind::Where, {emitOp(OpKind::Eq, {x, real(-inf)}), real(neginf), x});
  y = emitOp(OpKind::Where, {emitOp(OpKind::Eq, {x, real(inf)}), real(posinf), y});
  return emitOp(OpKind::Where, {emitOp(OpKind::Isnan, {x}), real(nan), y});
}

// ---- Masks ------------------------------------------------------------------------------------

// tril/triu(x, diagonal = 0) over the last two dims (fewer is an IndexError, as torch): keep
// (i, j) where j - i <= diagonal (tril) or >= diagonal (triu), as where(keep, x, 0) with keep
// [R, C] built from two aranges of the symbolic sizes, so one graph serves every size and the
// gradient is where's.
template <bool Lower>
Value nativeTri(Interpreter&, CallArgs& raw) {
  const char* fn = Lower ? "tril" : "triu";
  SelfArgs s(raw);
  ArgBinder b(Lower ? sig::tril : sig::triu, s.args());
  const Value& x = tensorArg(b.at(0), std::string(fn) + "(): x");
  const int64_t diagonal = b.has(1) ? b.toInt(1) : 0;
  const shapes::SymShape shape = shapeOf(x);
  if (shape.size() < 2)
    throwUserError(ErrorKind::IndexError, std::string(fn) + "(): x must have at least 2 dims, got " +
                                              std::to_string(shape.size()));
  OpAttrs col;
  col.dim = 1;
  Value rows = emitOp(OpKind::Unsqueeze, {arangeI32(shape[shape.size() - 2])}, col);
  Value cols = arangeI32(shape.back());
  Value offset = emitOp(OpKind::Sub, {cols, rows});  // j - i, [R, C]
  Value keep = emitOp(Lower ? OpKind::Le : OpKind::Ge, {offset, Value::integer(diagonal)});
  return emitOp(OpKind::Where, {keep, x, zeroOf(dtypeOf(x))});  // keeps x's dtype, as torch
}

// masked_fill(x, mask, value): where(mask, value, x) in x's dtype. mask and x broadcast
// against each other (as torch's out-of-place masked_fill); sizes that do not are a ShapeError
// naming masked_fill and both shapes.
Value nativeMaskedFill(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::masked_fill, s.args());
  const Value& x = tensorArg(b.at(0), "masked_fill(): x");
  const Value& mask = tensorArg(b.at(1), "masked_fill(): mask");
  const Value& value = tensorArg(b.at(2), "masked_fill(): value");
  if (dtypeOf(mask) != DType::Bool)
    throwUserError(ErrorKind::TypeError, "masked_fill(): mask must be a bool tensor, got " +
                                             std::string(shapes::name(dtypeOf(mask))));
  if (value.is(Type::Tensor) && rankOf(value) != 0)
    throwUserError(ErrorKind::ValueError,
                   "masked_fill(): value must be a number or a 0-d tensor, got a tensor of " +
                       std::to_string(rankOf(value)) + " dims");
  shapes::broadcastShapes(shapeOf(x), shapeOf(mask), "masked_fill");
  const DType t = dtypeOf(x);
  Value v = value;
  if (!value.is(Type::Tensor) || dtypeOf(value) != t) {
    OpAttrs cast;
    cast.dtype = t;
    v = emitOp(OpKind::Cast, {value}, cast);
  }
  return emitOp(OpKind::Where, {mask, v, x});
}

// ---- Lookups ----------------------------------------------------------------------------------

Value nativeDetach(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::detach, s.args());
  return emitOp(OpKind::Detach, {tensorArg(b.at(0), "detach(): x")});
}

// embedding(idx, weight, padding_idx = none): the rows of weight [V, D] at the i32 indices,
// shaped idx.shape + [D], as index_select of the flattened indices (its gradient is index_add
// into the rows, as PyTorch's). The padding_idx row is read through detach, so it gets no
// gradient while its value is returned unchanged (F.embedding's semantics).
Value nativeEmbedding(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::embedding, s.args());
  const Value& idx = tensorArg(b.at(0), "embedding(): idx");
  const Value& weight = tensorArg(b.at(1), "embedding(): weight");
  if (dtypeOf(idx) != DType::I32)
    throwUserError(ErrorKind::TypeError, "embedding(): idx must be an i32 tensor, got " +
                                             std::string(shapes::name(dtypeOf(idx))));
  const shapes::SymShape ws = shapeOf(weight);
  if (ws.size() != 2)
    throwUserError(ErrorKind::ShapeError, "embedding(): weight must be 2-D [num_embeddings, "
                                          "embedding_dim], got " + std::to_string(ws.size()) +
                                              " dims");
  Value table = weight;
  if (b.has(2) && !b.at(2).is(Type::None)) {
    int64_t p = b.toInt(2);
    const int64_t v = shapes::evaluateInt(ws[0]);
    if (p < -v || p >= v)
      throwUserError(ErrorKind::ValueError, "embedding(): padding_idx " + std::to_string(p) +
                                                " is out of range for " + std::to_string(v) +
                                                " embeddings");
    if (p < 0) p += v;
    OpAttrs col;
    col.dim = 1;
    Value isPad = emitOp(OpKind::Unsqueeze,
                         {emitOp(OpKind::Eq, {arangeI32(ws[0]), Value::integer(p)})}, col);
    table = emitOp(OpKind::Where, {isPad, emitOp(OpKind::Detach, {weight}), weight});
  }
  OpAttrs flat;
  flat.shape = {shapes::SymInt(-1)};
  OpAttrs dim0;
  dim0.dim = 0;
  Value rows = emitOp(OpKind::IndexSelect, {table, emitOp(OpKind::Reshape, {idx}, flat)}, dim0);
  OpAttrs out;
  out.shape = shapeOf(idx);
  out.shape.push_back(ws[1]);
  return emitOp(OpKind::Reshape, {rows}, out);
}

const TensorNative kDense[] = {
    {"nan_to_num", nativeNanToNum, true},
    {"tril", nativeTri<true>, true},
    {"triu", nativeTri<false>, true},
    {"masked_fill", nativeMaskedFill, true},
    {"detach", nativeDetach, true},
    {"embedding", nativeEmbedding, false},
};

}  // namespace

std::span<const TensorNative> tensorDenseNatives() {
  return kDense;
}

}  // namespace tessel::interp
