// Built-ins for jagged data (PyTorch names, argument order and semantics): repeat_interleave,
// bincount, segment_reduce; and the sampling ops randperm, multinomial, bernoulli. Each parses its arguments into OpAttrs and emits ops, so the same
// native runs eagerly and under @compile. Every one is also a method.
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using shapes::SymInt;

Value arangeOf(const SymInt& n) {
  OpAttrs a;
  a.start = SymInt(0);
  a.stop = n;
  a.step = 1;
  a.dtype = DType::I32;
  return emitOp(OpKind::Arange, {}, a);
}

Value flatten(const Value& x) {
  OpAttrs a;
  a.shape = {SymInt(-1)};
  return emitOp(OpKind::Reshape, {x}, a);
}

// An int count of repeats: every slice along dim `r` times, as unsqueeze + expand + flatten
// (sizes stay symbolic, and the gradient comes from those ops).
Value repeatEach(const Value& x, int64_t dim, int64_t r) {
  if (r < 0)
    throwUserError(ErrorKind::ValueError,
                   "repeat_interleave(): repeats must be non-negative, got " + std::to_string(r));
  const int64_t rank = rankOf(x);
  OpAttrs u;
  u.dim = dim + 1;
  Value y = emitOp(OpKind::Unsqueeze, {x}, u);
  OpAttrs e;
  e.shape.assign(size_t(rank + 1), SymInt(-1));
  e.shape[size_t(dim + 1)] = r;
  y = emitOp(OpKind::Expand, {y}, e);
  OpAttrs f;
  f.dim = dim;
  f.endDim = dim + 1;
  return emitOp(OpKind::Flatten, {y}, f);
}

// repeat_interleave(x, repeats, dim = none, output_size = none); repeat_interleave(repeats)
// is repeat_interleave(arange(len(repeats)), repeats). dim = none flattens x first.
Value nativeRepeatInterleave(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::repeat_interleave, s.args());
  Value x = tensorArg(b.at(0), "repeat_interleave(): x");
  Value repeats;
  if (!b.has(1) || b.at(1).is(Type::None)) {
    if (!x.is(Type::Tensor) || rankOf(x) > 1 || dtypeOf(x) != DType::I32)
      throwUserError(ErrorKind::TypeError,
                     "repeat_interleave(repeats): repeats must be a 0-d or 1-D i32 tensor");
    repeats = rankOf(x) == 0 ? flatten(x) : x;
    x = arangeOf(shapeOf(repeats)[0]);
  } else {
    repeats = tensorArg(b.at(1), "repeat_interleave(): repeats");
  }
  const bool noDim = !b.has(2) || b.at(2).is(Type::None);
  if (noDim || rankOf(x) == 0) x = flatten(x);
  const int64_t rank = rankOf(x);
  int64_t dim = noDim ? 0 : b.toInt(2);
  if (dim < -rank || dim >= rank)
    throwUserError(ErrorKind::IndexError, "repeat_interleave(): dimension " + std::to_string(dim) +
                                              " is out of range for a tensor of rank " +
                                              std::to_string(rank));
  if (dim < 0) dim += rank;
  const bool hasSize = b.has(3) && !b.at(3).is(Type::None);
  if (!repeats.is(Type::Tensor)) {
    if (!repeats.is(Type::Int))
      throwUserError(ErrorKind::TypeError,
                     "repeat_interleave(): repeats must be an int or a tensor");
    return repeatEach(x, dim, b.toInt(1));
  }
  if (dtypeOf(repeats) != DType::I32)
    throwUserError(ErrorKind::TypeError,
                   "repeat_interleave(): repeats must be an i32 tensor, got " +
                       std::string(shapes::name(dtypeOf(repeats))));
  if (rankOf(repeats) > 1)
    throwUserError(ErrorKind::ShapeError,
                   "repeat_interleave(): repeats must be a 0-d or 1-D tensor, got shape " +
                       shapes::errorText(shapeOf(repeats)));
  // A single repeat count (0-d or [1]) applies to every slice, as in PyTorch.
  const SymInt n = shapeOf(x)[size_t(dim)];
  const shapes::SymShape rs = shapeOf(repeats);
  if (rs.empty() || (rs[0].maybeConstant() == 1 && !(n.maybeConstant() == 1))) {
    OpAttrs e;
    e.shape = {n};
    repeats = emitOp(OpKind::Expand, {rankOf(repeats) == 0 ? flatten(repeats) : repeats}, e);
  }
  OpAttrs attrs;
  attrs.dim = dim;
  if (hasSize) {
    if (!isIntLike(b.at(3))) b.toInt(3);  // the TypeError naming the argument
    attrs.shape = {toSymInt(b.at(3))};
  }
  return emitOp(OpKind::RepeatInterleave, {x, repeats}, attrs);
}

// bincount(x, weights = none, minlength = 0).
Value nativeBincount(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::bincount, s.args());
  OpAttrs attrs;
  attrs.scalars = {double(b.intOr(2, 0))};
  const Value& x = tensorArg(b.at(0), "bincount(): x");
  if (b.has(1) && !b.at(1).is(Type::None))
    return emitOp(OpKind::Bincount, {x, tensorArg(b.at(1), "bincount(): weights")}, attrs);
  return emitOp(OpKind::Bincount, {x}, attrs);
}

// segment_reduce(data, reduce, lengths = none, offsets = none, axis = 0, initial = none) as
// torch.segment_reduce; offsets (1-D, segment s is offsets[s] .. offsets[s + 1]) become
// lengths = diff(offsets). Unlike PyTorch 1.13, any axis works with 1-D lengths.
Value nativeSegmentReduce(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::segment_reduce, s.args());
  OpAttrs attrs;
  attrs.dim = b.intOr(4, 0);
  const std::string& r = b.toStr(1);
  using shapes::ScatterMode;
  if (r == "sum")
    attrs.scatterMode = ScatterMode::Sum;
  else if (r == "mean")
    attrs.scatterMode = ScatterMode::Mean;
  else if (r == "max")
    attrs.scatterMode = ScatterMode::Amax;
  else if (r == "min")
    attrs.scatterMode = ScatterMode::Amin;
  else if (r == "prod")
    attrs.scatterMode = ScatterMode::Prod;
  else
    throwUserError(ErrorKind::ValueError,
                   "segment_reduce(): reduce must be \"sum\", \"mean\", \"max\", \"min\" or "
                   "\"prod\", not \"" +
                       r + "\"");
  if (b.has(5) && !b.at(5).is(Type::None)) attrs.scalars = {b.toFloat(5)};
  const bool hasLengths = b.has(2) && !b.at(2).is(Type::None);
  const bool hasOffsets = b.has(3) && !b.at(3).is(Type::None);
  if (hasLengths == hasOffsets)
    throwUserError(ErrorKind::ValueError,
                   "segment_reduce(): give exactly one of lengths and offsets");
  Value lengths;
  if (hasLengths) {
    lengths = tensorArg(b.at(2), "segment_reduce(): lengths");
  } else {
    const Value& off = tensorArg(b.at(3), "segment_reduce(): offsets");
    if (rankOf(off) != 1)
      throwUserError(ErrorKind::ShapeError, "segment_reduce(): offsets must be 1-D, got shape " +
                                                shapes::errorText(shapeOf(off)));
    OpAttrs hi, lo;
    hi.dim = lo.dim = 0;
    hi.start = SymInt(1);
    lo.start = SymInt(0);
    lo.stop = SymInt(-1);
    lengths =
        emitOp(OpKind::Sub, {emitOp(OpKind::Slice, {off}, hi), emitOp(OpKind::Slice, {off}, lo)});
  }
  return emitOp(OpKind::SegmentReduce, {tensorArg(b.at(0), "segment_reduce(): data"), lengths},
                attrs);
}

// A sample count or size: an int or a size expression (stays symbolic under @compile), never
// negative.
SymInt countArg(ArgBinder& b, size_t i, const char* what) {
  if (!isIntLike(b.at(i))) b.toInt(i);  // the TypeError naming the argument
  SymInt n = toSymInt(b.at(i));
  if (auto c = n.maybeConstant(); c && *c < 0)
    throwUserError(ErrorKind::ValueError,
                   std::string(what) + " must be non-negative, got " + std::to_string(*c));
  return n;
}

// randperm(n): a random permutation of 0 .. n-1 (i32), from seed()'s generator.
Value nativeRandperm(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::randperm, a);
  OpAttrs attrs;
  attrs.shape = {countArg(b, 0, "randperm(): n")};
  return emitOp(OpKind::Randperm, {}, attrs);
}

// multinomial(probs, n, replacement = false): n category indices per row of probs (1-D or
// 2-D, unnormalized non-negative weights), as torch.multinomial.
Value nativeMultinomial(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::multinomial, s.args());
  OpAttrs attrs;
  attrs.shape = {countArg(b, 1, "multinomial(): n")};
  attrs.scalars = {b.has(2) && b.toBool(2) ? 1.0 : 0.0};
  return emitOp(OpKind::Multinomial, {tensorArg(b.at(0), "multinomial(): probs")}, attrs);
}

// bernoulli(p): 1.0 with probability p[i], else 0.0, in p's shape.
Value nativeBernoulli(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::bernoulli, s.args());
  return emitOp(OpKind::Bernoulli, {tensorArg(b.at(0), "bernoulli(): p")}, {});
}

const TensorNative kJagged[] = {
    {"repeat_interleave", nativeRepeatInterleave, true},
    {"bincount", nativeBincount, true},
    {"segment_reduce", nativeSegmentReduce, true},
    {"randperm", nativeRandperm, false},
    {"multinomial", nativeMultinomial, true},
    {"bernoulli", nativeBernoulli, true},
};

}  // namespace

std::span<const TensorNative> tensorJaggedNatives() {
  return kJagged;
}

}  // namespace tessel::interp
