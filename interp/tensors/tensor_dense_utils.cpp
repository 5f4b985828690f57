// Reductions and shape utilities with PyTorch's names and semantics, composed of
// existing ops through emitOp: logsumexp, var, std, norm, prod (dim: an int or a list, as every
// reduction), split, chunk, pad, flip, roll, repeat, outer. Sizes stay symbolic (a graph serves
// every size), the same native runs eagerly on every device and under @compile, and gradients
// come from the ops' rules.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interp/tensors/device_support.h"
#include "interp/tensors/decomposition_util.h"
#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using shapes::SymInt;
using shapes::SymShape;

using namespace compose;


int64_t wrap(int64_t d, int64_t rank, const char* fn) {
  const int64_t r = std::max<int64_t>(rank, 1);
  if (d < -r || d >= r)
    throwUserError(ErrorKind::IndexError, std::string(fn) + "(): dim " + std::to_string(d) +
                                              " is out of range for a tensor of rank " +
                                              std::to_string(rank));
  return d < 0 ? d + r : d;
}

// `dim` of a reduction: none (every dim), an int or a list; wrapped, sorted, checked distinct.
std::vector<int64_t> reduceDims(const ArgBinder& b, size_t i, int64_t rank, const char* fn) {
  std::vector<int64_t> dims;
  if (b.has(i) && !b.at(i).is(Type::None))
    dims = toDimList(b.at(i), std::string(fn) + "(): dim");
  else
    for (int64_t d = 0; d < rank; ++d) dims.push_back(d);
  for (int64_t& d : dims) d = rank == 0 ? (wrap(d, rank, fn), 0) : wrap(d, rank, fn);
  std::sort(dims.begin(), dims.end());
  if (std::adjacent_find(dims.begin(), dims.end()) != dims.end())
    throwUserError(ErrorKind::ValueError, std::string(fn) + "(): dim lists a dim twice");
  if (rank == 0) dims.clear();
  return dims;
}

// The number of elements a reduction over `dims` combines (a symbolic size).
SymInt countOf(const Value& x, const std::vector<int64_t>& dims) {
  const SymShape s = shapeOf(x);
  SymInt n = 1;
  for (int64_t d : dims) n = n * s[d];
  return n;
}

const Value& floatArg(const Value& v, const char* fn) {
  const Value& x = tensorArg(v, std::string(fn) + "(): x");
  if (dtypeOf(x) != DType::F32)
    throwUserError(ErrorKind::TypeError, std::string(fn) + "(): expects a floating tensor, got " +
                                             std::string(shapes::name(dtypeOf(x))));
  return x;
}


// log(sum(exp(x - m))) + m with m the max over dims (0 where it is infinite, so rows of -inf
// give -inf and a row holding +inf gives +inf, as PyTorch).
Value nativeLogsumexp(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::logsumexp, s.args());
  const Value& x = floatArg(b.at(0), "logsumexp");
  const std::vector<int64_t> dims = reduceDims(b, 1, rankOf(x), "logsumexp");
  const bool keepdim = b.has(2) && b.toBool(2);
  if (countOf(x, dims).maybeConstant() == 0)  // no max to shift by: log(0) = -inf
    return op(OpKind::Log, reduceOp(OpKind::Sum, op(OpKind::Exp, x), dims, keepdim));
  // A symbolic size may be 0 at run time (under @compile), where max has nothing to reduce:
  // the max is then taken with a -inf slot appended along each such dim (it never wins).
  Value padded = x;
  for (int64_t d : dims)
    if (!shapeOf(x)[d].isConstant()) {
      SymShape slot = shapeOf(padded);
      slot[d] = 1;
      const double minusInf = -std::numeric_limits<double>::infinity();
      padded = catOf({padded, decomp::fullLike(padded, slot, minusInf)}, d);
    }
  Value m = reduceOp(OpKind::Max, padded, dims, true);
  m = emitOp(OpKind::Where,
             {op(OpKind::Eq, op(OpKind::Abs, m), real(std::numeric_limits<double>::infinity())),
              real(0.0), m});
  Value s2 = reduceOp(OpKind::Sum, op(OpKind::Exp, op(OpKind::Sub, x, m)), dims, keepdim);
  if (!keepdim) m = reduceOp(OpKind::Sum, m, dims, false);  // drops the kept size-1 dims
  return op(OpKind::Add, op(OpKind::Log, s2), m);
}

// sum((x - mean)^2) / max(n - correction, 0) (PyTorch: nan or inf when n <= correction).
Value variance(const ArgBinder& b, const char* fn) {
  const Value& x = floatArg(b.at(0), fn);
  const std::vector<int64_t> dims = reduceDims(b, 1, rankOf(x), fn);
  const int64_t correction = b.has(2) ? b.toInt(2) : 1;
  const bool keepdim = b.has(3) && b.toBool(3);
  Value d = op(OpKind::Sub, x, reduceOp(OpKind::Mean, x, dims, true));
  Value ss = reduceOp(OpKind::Sum, op(OpKind::Mul, d, d), dims, keepdim);
  SymInt denom = shapes::max(countOf(x, dims) - SymInt(correction), SymInt(0));
  return op(OpKind::Div, ss, makeSymInt(denom));
}
Value nativeVar(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::var, s.args());
  return variance(b, "var");
}
Value nativeStd(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::std_, s.args());
  return op(OpKind::Sqrt, variance(b, "std"));
}

// Vector norms over dims: p = 2 (or "fro"), 1, inf, -inf, 0 (count of non-zeros) or any p.
Value nativeNorm(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::norm, s.args());
  const Value& x = floatArg(b.at(0), "norm");
  double p = 2;
  if (b.has(1) && b.at(1).is(Type::Str)) {
    if (b.toStr(1) != "fro")
      throwUserError(ErrorKind::ValueError,
                     "norm(): p must be a number or \"fro\", got \"" + b.toStr(1) + "\"");
  } else if (b.has(1) && !b.at(1).is(Type::None)) {
    p = b.toFloat(1);
  }
  const std::vector<int64_t> dims = reduceDims(b, 2, rankOf(x), "norm");
  const bool keepdim = b.has(3) && b.toBool(3);
  Value a = op(OpKind::Abs, x);
  if (std::isinf(p)) return reduceOp(p > 0 ? OpKind::Max : OpKind::Min, a, dims, keepdim);
  if (p == 0) {
    OpAttrs f;
    f.dtype = DType::F32;
    return reduceOp(OpKind::Sum, emitOp(OpKind::Cast, {op(OpKind::Ne, x, real(0.0))}, f), dims,
                    keepdim);
  }
  if (p == 1) return reduceOp(OpKind::Sum, a, dims, keepdim);
  if (p == 2) return op(OpKind::Sqrt, reduceOp(OpKind::Sum, op(OpKind::Mul, x, x), dims, keepdim));
  return op(OpKind::Pow, reduceOp(OpKind::Sum, op(OpKind::Pow, a, real(p)), dims, keepdim),
            real(1.0 / p));
}

// The last entry of cumprod along each dim, after a leading 1 (so an empty dim gives 1, as
// PyTorch, whatever its size at run time); cumprod's gradient is exact through zeros.
Value nativeProd(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::prod, s.args());
  Value x = tensorArg(b.at(0), "prod(): x");
  const bool all = !b.has(1) || b.at(1).is(Type::None);
  const bool keepdim = b.has(2) && b.toBool(2);
  const int64_t rank = rankOf(x);
  std::vector<int64_t> dims = reduceDims(b, 1, rank, "prod");
  if (rank == 0) return op(OpKind::Mul, x, Value::integer(1));  // cumprod's dtype rules
  if (all && !keepdim) {
    x = reshapeTo(x, {SymInt(-1)});
    dims = {0};
  }
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
    const int64_t d = *it;
    OpAttrs c;
    c.dim = d;
    Value cp = emitOp(OpKind::Cumprod, {x}, c);
    SymShape one = shapeOf(cp);
    one[d] = 1;
    cp = catOf({decomp::fullLike(cp, one, 1.0), cp}, d);
    x = sliceOf(cp, d, SymInt(-1), shapeOf(cp)[d]);
    if (!keepdim) {
      OpAttrs q;
      q.dims = {d};
      x = emitOp(OpKind::Squeeze, {x}, q);
    }
  }
  return x;
}

// --- shape utilities -------------------------------------------------------------------------

// Slices of `sizes` along dim (split's and chunk's result: a list).
Value slices(const Value& x, int64_t dim, const std::vector<SymInt>& sizes) {
  std::vector<Value> out;
  SymInt at = 0;
  for (const SymInt& n : sizes) {
    out.push_back(sliceOf(x, dim, at, at + n));
    at = at + n;
  }
  return makeList(std::move(out));
}

// Equal pieces of `size` (the last one shorter); the count needs the dim's concrete size.
std::vector<SymInt> piecesOf(const Value& x, int64_t dim, int64_t size, const char* fn) {
  if (size <= 0)
    throwUserError(
        ErrorKind::ValueError,
        std::string(fn) + "(): split size must be positive, got " + std::to_string(size));
  const int64_t n = concreteDim(x, dim);
  std::vector<SymInt> sizes;
  for (int64_t at = 0; at < n; at += size) sizes.push_back(SymInt(std::min(size, n - at)));
  if (sizes.empty()) sizes.push_back(SymInt(0));  // PyTorch: one empty piece
  return sizes;
}

Value nativeSplit(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::split, s.args());
  const Value& x = tensorArg(b.at(0), "split(): x");
  const int64_t dim = wrap(b.intOr(2, 0), rankOf(x), "split");
  if (rankOf(x) == 0)
    throwUserError(ErrorKind::IndexError, "split(): cannot split a zero-dimensional tensor");
  if (b.at(1).is(Type::Int)) return slices(x, dim, piecesOf(x, dim, b.toInt(1), "split"));
  std::vector<SymInt> sizes;
  SymInt total = 0;
  for (const Value& v : iterate(b.at(1), "split(): split_size_or_sections")) {
    SymInt n = toSymInt(v);
    if (auto c = n.maybeConstant(); c && *c < 0)
      throwUserError(ErrorKind::ValueError,
                     "split(): section sizes must be non-negative, got " + std::to_string(*c));
    sizes.push_back(n);
    total = total + n;
  }
  const SymInt size = shapeOf(x)[dim];
  if (!shapes::evaluate(total == size))
    throwUserError(ErrorKind::ValueError, "split(): sections sum to " + shapes::errorText(total) +
                                              " but dim " + std::to_string(dim) + " has size " +
                                              shapes::errorText(size));
  return slices(x, dim, sizes);
}

Value nativeChunk(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::chunk, s.args());
  const Value& x = tensorArg(b.at(0), "chunk(): x");
  if (rankOf(x) == 0)
    throwUserError(ErrorKind::IndexError, "chunk(): cannot chunk a zero-dimensional tensor");
  const int64_t chunks = b.toInt(1);
  if (chunks <= 0)
    throwUserError(ErrorKind::ValueError,
                   "chunk(): chunks must be positive, got " + std::to_string(chunks));
  const int64_t dim = wrap(b.intOr(2, 0), rankOf(x), "chunk");
  const int64_t n = concreteDim(x, dim);
  // An empty dim gives `chunks` empty pieces (PyTorch), where split gives one.
  if (n == 0) return slices(x, dim, std::vector<SymInt>(size_t(chunks), SymInt(0)));
  const int64_t size = (n + chunks - 1) / chunks;
  return slices(x, dim, piecesOf(x, dim, size, "chunk"));
}

// F.pad, constant mode: pad = [left_last, right_last, left_prev, right_prev, ...]; negative
// amounts crop. Each padded dim is a cat of constant blocks around (a slice of) x.
Value nativePad(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::pad, s.args());
  Value x = tensorArg(b.at(0), "pad(): x");
  std::vector<SymInt> pad;
  for (const Value& v : iterate(b.at(1), "pad(): pad")) pad.push_back(toSymInt(v));
  const double value = b.has(2) ? b.toFloat(2) : 0.0;
  const int64_t rank = rankOf(x);
  if (pad.size() % 2 != 0 || static_cast<int64_t>(pad.size()) > 2 * rank)
    throwUserError(ErrorKind::ValueError,
                   "pad(): pad must have an even length of at most 2 * rank (" +
                       std::to_string(2 * rank) + "), got " + std::to_string(pad.size()));
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const int64_t dim = rank - 1 - static_cast<int64_t>(i);
    const SymInt lo = pad[2 * i], hi = pad[2 * i + 1];
    const SymInt n = shapeOf(x)[dim];
    const bool loNeg = shapes::evaluate(lo < SymInt(0)), hiNeg = shapes::evaluate(hi < SymInt(0));
    // Negative amounts crop first (PyTorch narrows, then pads), so they may not crop more than
    // the dim holds even where the other side's padding would make up the size. A require():
    // a data-dependent size (x[mask] on the tpu, unbacked in a trace) is checked when it runs.
    const SymInt cropped = n + (loNeg ? lo : SymInt(0)) + (hiNeg ? hi : SymInt(0));
    shapes::require(cropped >= SymInt(0), ErrorKind::ValueError, [&] {
      return "pad(): padding (" + shapes::errorText(lo) + ", " + shapes::errorText(hi) +
             ") of dim " + std::to_string(dim) + " of size " + shapes::errorText(n) +
             " crops more than the dim holds";
    });
    if (loNeg || hiNeg)
      x = sliceOf(x, dim, loNeg ? -lo : SymInt(0), hiNeg ? shapes::max(n + hi, SymInt(0)) : n);
    std::vector<Value> parts;
    auto block = [&](const SymInt& k) {
      SymShape sh = shapeOf(x);
      sh[dim] = k;
      parts.push_back(decomp::fullLike(x, sh, value));
    };
    if (!loNeg && !shapes::evaluate(lo == SymInt(0))) block(lo);
    parts.push_back(x);
    if (!hiNeg && !shapes::evaluate(hi == SymInt(0))) block(hi);
    if (parts.size() > 1) x = catOf(std::move(parts), dim);
  }
  return x;
}

// Dims of flip/roll: an int or a list.
std::vector<int64_t> dimsArg(const Value& v, int64_t rank, const char* fn) {
  std::vector<int64_t> dims = toDimList(v, std::string(fn) + "(): dims");
  for (int64_t& d : dims) d = wrap(d, rank, fn);
  return dims;
}

// index_select with (n - 1) - arange(n): sizes stay symbolic, the gradient is index_add's.
Value nativeFlip(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::flip, s.args());
  Value x = tensorArg(b.at(0), "flip(): x");
  const int64_t rank = rankOf(x);
  std::vector<int64_t> dims = dimsArg(b.at(1), rank, "flip");
  std::vector<int64_t> sorted = dims;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throwUserError(ErrorKind::ValueError, "flip(): dims lists a dim twice");
  if (rank == 0) return x;
  for (int64_t d : dims) {
    const SymInt n = shapeOf(x)[d];
    Value idx = op(OpKind::Sub, makeSymInt(n - SymInt(1)), decomp::arangeI32(n));
    OpAttrs a;
    a.dim = d;
    x = emitOp(OpKind::IndexSelect, {x, idx}, a);
  }
  return x;
}

// index_select with (arange(n) - shift) mod n (a symbolic n, any shift); dims = none rolls
// the flattened tensor.
Value nativeRoll(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::roll, s.args());
  Value x = tensorArg(b.at(0), "roll(): x");
  std::vector<int64_t> shifts = toDimList(b.at(1), "roll(): shifts");
  const SymShape shape = shapeOf(x);
  const bool flat = !b.has(2) || b.at(2).is(Type::None);
  std::vector<int64_t> dims;
  if (flat) {
    if (shifts.size() != 1)
      throwUserError(ErrorKind::ValueError, "roll(): without dims, shifts must be one int");
    x = reshapeTo(x, {SymInt(-1)});
    dims = {0};
  } else {
    dims = dimsArg(b.at(2), rankOf(x), "roll");
    if (dims.size() != shifts.size())
      throwUserError(ErrorKind::ValueError,
                     "roll(): shifts and dims must have the same length, "
                     "got " +
                         std::to_string(shifts.size()) + " and " + std::to_string(dims.size()));
  }
  if (rankOf(x) == 0) return x;
  for (size_t i = 0; i < dims.size(); ++i) {
    const SymInt n = shapeOf(x)[dims[i]];
    if (n.maybeConstant() == 0) continue;
    Value idx =
        op(OpKind::Mod, op(OpKind::Sub, decomp::arangeI32(n), Value::integer(shifts[i])),
           makeSymInt(n));
    OpAttrs a;
    a.dim = dims[i];
    x = emitOp(OpKind::IndexSelect, {x, idx}, a);
  }
  return flat ? reshapeTo(x, shape) : x;
}

// x viewed as [1, s0, 1, s1, ...], expanded to [r0, s0, r1, s1, ...], reshaped to
// [r0 * s0, r1 * s1, ...]; leading repeats beyond x's rank add dims, as PyTorch.
Value nativeRepeat(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const SizesArgs a = bindSizes(s.args(), sig::repeat);
  const Value& x = tensorArg(a.x, "repeat(): x");
  SymShape reps;
  if (a.sizes.size() == 1 && !a.sizes[0].is(Type::Int) && !a.sizes[0].is(Type::SymInt))
    reps = toSymDims(a.sizes[0], "repeat(): sizes");
  else
    for (const Value& r : a.sizes) reps.push_back(toSymInt(r));
  SymShape xs = shapeOf(x);
  if (reps.size() < xs.size())
    throwUserError(ErrorKind::ValueError, "repeat(): sizes " + shapes::errorText(reps) +
                                              " must have at least the rank of x " +
                                              shapes::errorText(xs));
  for (const SymInt& r : reps)
    if (auto c = r.maybeConstant(); c && *c < 0)
      throwUserError(ErrorKind::ValueError,
                     "repeat(): sizes must be non-negative, got " + shapes::errorText(reps));
  xs.insert(xs.begin(), reps.size() - xs.size(), SymInt(1));
  SymShape ones, expanded, out;
  for (size_t i = 0; i < xs.size(); ++i) {
    ones.insert(ones.end(), {SymInt(1), xs[i]});
    expanded.insert(expanded.end(), {reps[i], xs[i]});
    out.push_back(reps[i] * xs[i]);
  }
  OpAttrs e;
  e.shape = expanded;
  return reshapeTo(emitOp(OpKind::Expand, {reshapeTo(x, ones)}, e), out);
}

Value nativeOuter(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::outer, s.args());
  const Value& x = tensorArg(b.at(0), "outer(): a");
  const Value& y = tensorArg(b.at(1), "outer(): b");
  if (rankOf(x) != 1 || rankOf(y) != 1)
    throwUserError(ErrorKind::ShapeError, "outer(): expects two 1-D tensors, got " +
                                              shapes::errorText(shapeOf(x)) + " and " +
                                              shapes::errorText(shapeOf(y)));
  return op(OpKind::Mul, reshapeTo(x, {SymInt(-1), SymInt(1)}), y);
}

const TensorNative kDenseUtils[] = {
    {"logsumexp", nativeLogsumexp, true},
    {"var", nativeVar, true},
    {"std", nativeStd, true},
    {"norm", nativeNorm, true},
    {"prod", nativeProd, true},
    {"split", nativeSplit, true},
    {"chunk", nativeChunk, true},
    {"pad", nativePad, false},
    {"flip", nativeFlip, true},
    {"roll", nativeRoll, true},
    {"repeat", nativeRepeat, true},
    {"outer", nativeOuter, true},
};

}  // namespace

std::span<const TensorNative> tensorDenseUtilNatives() {
  return kDenseUtils;
}

}  // namespace tessel::interp
