// Normalization, one-hot and creation built-ins with PyTorch's names, argument
// order and semantics: group_norm, rms_norm, batch_norm, one_hot, linspace, full_like,
// zeros_like, ones_like, randn_like, amax, amin. Each is a composition of op-table ops
// (op_compose.h), so it runs eagerly on every device, traces under @compile with symbolic
// sizes, and takes its gradient from the ops it is made of. group_norm normalizes through the
// layer_norm kernel (one pass per row of a [N, G, C/G * spatial] view); the others are
// reductions plus elementwise chains that fuse under @compile.
#include <cmath>
#include <limits>

#include "interp/tensors/device_support.h"
#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/shape_env.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using shapes::SymInt;
using shapes::SymShape;
using namespace compose;

bool given(const ArgBinder& b, size_t i) {
  return b.has(i) && !b.at(i).is(Type::None);
}

const Value& floatTensor(const Value& v, const std::string& what) {
  const Value& x = tensorArg(v, what);
  if (!x.is(Type::Tensor) || dtypeOf(x) != DType::F32)
    throwUserError(ErrorKind::TypeError, what + " must be a floating (f32) tensor, got " +
                                             std::string(x.is(Type::Tensor)
                                                             ? shapes::name(dtypeOf(x))
                                                             : "a number"));
  return x;
}

// A creation op (no operands) placed like x: on x's device, in x's tpu segment when x is lazy,
// a graph value when tracing (torch's *_like keep the device).
Value createLike(const Value& x, OpKind k, const OpAttrs& a) {
  if (x.as<TensorObj>()->lazy) return emitLazyOp(k, {}, a);
  Value v = emitOp(k, {}, a);
  if (!isFake(v) && !isFake(x) && asTensor(v).device() != asTensor(x).device())
    return makeTensor(onDevice(asTensor(v), asTensor(x).device()));
  return v;
}

Value fullShaped(const Value& x, const SymShape& shape, double value, DType dtype) {
  OpAttrs f;
  f.shape = shape;
  f.dtype = dtype;
  f.scalars = {value};
  return createLike(x, OpKind::Full, f);
}

// The shape that puts a [C] vector along dim 1 of a rank-r tensor: [1, C, 1, ..., 1].
SymShape channelView(const SymInt& c, int64_t rank) {
  SymShape s(rank, SymInt(1));
  s[1] = c;
  return s;
}

// Checks a per-channel (or per-element) parameter's shape: a ShapeError naming both.
void requireShape(const Value& p, const SymShape& want, const std::string& what) {
  const SymShape got = shapeOf(p);
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i) same = shapes::evaluate(got[i] == want[i]);
  if (!same)
    throwUserError(ErrorKind::ShapeError, what + " must have shape " + shapes::errorText(want) +
                                              ", got " + shapes::errorText(got));
}

// ---- normalization -------------------------------------------------------------------------

// group_norm(x, groups, w = none, b = none, eps = 1e-5) over x [N, C, *]: each of the G
// groups of C/G channels is normalized over its channels and spatial positions (biased
// variance), then scaled by w [C] and shifted by b [C] per channel. The normalization is the
// layer_norm op over the last dim of x viewed as [N, G, C/G * spatial].
Value nativeGroupNorm(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::group_norm, s.args());
  const Value& x = floatTensor(b.at(0), "group_norm(): x");
  const int64_t g = b.toInt(1);
  const double eps = given(b, 4) ? b.toFloat(4) : 1e-5;
  const SymShape xs = shapeOf(x);
  if (xs.size() < 2)
    throwUserError(ErrorKind::ShapeError,
                   "group_norm(): x must be [N, C, *] (at least 2 dims), got shape " +
                       shapes::errorText(xs));
  if (g <= 0)
    throwUserError(ErrorKind::ValueError,
                   "group_norm(): groups must be positive, got " + std::to_string(g));
  const SymInt c = xs[1];
  shapes::require(shapes::mod(c, SymInt(g)) == SymInt(0), ErrorKind::ShapeError, [&] {
    return "group_norm(): the " + shapes::errorText(c) + " channels of x " +
           shapes::errorText(xs) + " are not divisible by groups = " + std::to_string(g);
  });
  SymInt per = shapes::floorDiv(c, SymInt(g));
  for (size_t i = 2; i < xs.size(); ++i) per = per * xs[i];
  OpAttrs ln;
  ln.shape = {per};
  ln.eps = eps;
  Value y = emitOp(OpKind::LayerNorm, {reshapeTo(x, {xs[0], SymInt(g), per})}, ln);
  y = reshapeTo(y, xs);
  const int64_t rank = int64_t(xs.size());
  if (given(b, 2)) {
    requireShape(b.at(2), {c}, "group_norm(): w");
    y = op(OpKind::Mul, y, reshapeTo(b.at(2), channelView(c, rank)));
  }
  if (given(b, 3)) {
    requireShape(b.at(3), {c}, "group_norm(): b");
    y = op(OpKind::Add, y, reshapeTo(b.at(3), channelView(c, rank)));
  }
  return y;
}

// rms_norm(x, normalized_shape, w = none, eps = none) (PyTorch 2.x): x / sqrt(mean(x^2) +
// eps) over the trailing dims that normalized_shape names, times w (of normalized_shape).
// eps none is f32's machine epsilon (torch.finfo(float32).eps), as PyTorch.
Value nativeRmsNorm(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::rms_norm, s.args());
  const Value& x = floatTensor(b.at(0), "rms_norm(): x");
  const SymShape ns = isIntLike(b.at(1)) ? SymShape{toSymInt(b.at(1))}
                                         : toSymDims(b.at(1), "rms_norm(): normalized_shape");
  const double eps = given(b, 3) ? b.toFloat(3) : double(std::numeric_limits<float>::epsilon());
  const SymShape xs = shapeOf(x);
  bool fits = ns.size() <= xs.size();
  for (size_t i = 0; fits && i < ns.size(); ++i)
    fits = shapes::evaluate(xs[xs.size() - ns.size() + i] == ns[i]);
  if (!fits)
    throwUserError(ErrorKind::ShapeError,
                   "rms_norm(): normalized_shape " + shapes::errorText(ns) +
                       " must be the trailing sizes of x, got x of shape " + shapes::errorText(xs));
  std::vector<int64_t> dims;
  for (size_t i = xs.size() - ns.size(); i < xs.size(); ++i) dims.push_back(int64_t(i));
  Value ms = reduceOp(OpKind::Mean, op(OpKind::Mul, x, x), dims, true);
  Value y = op(OpKind::Mul, x, op(OpKind::Rsqrt, op(OpKind::Add, ms, real(eps))));
  if (given(b, 2)) {
    requireShape(b.at(2), ns, "rms_norm(): w");
    y = op(OpKind::Mul, y, b.at(2));
  }
  return y;
}

// batch_norm(x, running_mean, running_var, w = none, b = none, training = false,
// momentum = 0.1, eps = 1e-5) over x [N, C, *], per channel (dim 1).
// Evaluation: (x - running_mean) / sqrt(running_var + eps) * w + b.
// Training: normalized by the batch's mean and biased variance; tensors are immutable values,
// so instead of updating the running statistics in place it returns (y, new_running_mean,
// new_running_var) with new = (1 - momentum) * old + momentum * batch stat, the variance
// unbiased (n / (n - 1)), as PyTorch; the new statistics carry no gradient (buffers). With
// none for both running statistics, training mode returns y alone.
Value nativeBatchNorm(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::batch_norm, s.args());
  const Value& x = floatTensor(b.at(0), "batch_norm(): x");
  const bool training = b.has(5) && b.toBool(5);
  const double momentum = given(b, 6) ? b.toFloat(6) : 0.1;
  const double eps = given(b, 7) ? b.toFloat(7) : 1e-5;
  const SymShape xs = shapeOf(x);
  if (xs.size() < 2)
    throwUserError(ErrorKind::ShapeError,
                   "batch_norm(): x must be [N, C, *] (at least 2 dims), got shape " +
                       shapes::errorText(xs));
  const int64_t rank = int64_t(xs.size());
  const SymInt c = xs[1];
  const bool hasRm = given(b, 1), hasRv = given(b, 2);
  if (hasRm != hasRv)
    throwUserError(ErrorKind::ValueError,
                   "batch_norm(): running_mean and running_var must both be given or both none");
  if (!training && !hasRm)
    throwUserError(ErrorKind::ValueError,
                   "batch_norm(): running_mean and running_var must be given in evaluation mode "
                   "(training = false)");
  Value rm, rv;
  if (hasRm) {
    rm = floatTensor(b.at(1), "batch_norm(): running_mean");
    rv = floatTensor(b.at(2), "batch_norm(): running_var");
    requireShape(rm, {c}, "batch_norm(): running_mean");
    requireShape(rv, {c}, "batch_norm(): running_var");
  }
  const SymShape view = channelView(c, rank);
  // w and the inverse deviation fold into one per-channel scale (and b and the mean into one
  // shift in evaluation mode), so x is read by as few full-size passes as possible.
  Value w, bias;
  if (given(b, 3)) {
    requireShape(b.at(3), {c}, "batch_norm(): w");
    w = reshapeTo(b.at(3), view);
  }
  if (given(b, 4)) {
    requireShape(b.at(4), {c}, "batch_norm(): b");
    bias = reshapeTo(b.at(4), view);
  }
  auto scaled = [&](Value inv) { return w.is(Type::None) ? inv : op(OpKind::Mul, inv, w); };
  Value y;
  if (training) {
    std::vector<int64_t> dims{0};
    SymInt n = xs[0];
    for (int64_t d = 2; d < rank; ++d) {
      dims.push_back(d);
      n = n * xs[d];
    }
    // PyTorch refuses exactly one value per channel; an empty batch gives an empty result.
    shapes::require(n != SymInt(1), ErrorKind::ValueError, [&] {
      return "batch_norm(): training needs more than 1 value per channel, got x of shape " +
             shapes::errorText(xs);
    });
    Value mean = reduceOp(OpKind::Mean, x, dims, true);
    Value d = op(OpKind::Sub, x, mean);
    Value var = reduceOp(OpKind::Mean, op(OpKind::Mul, d, d), dims, true);
    y = op(OpKind::Mul, d, scaled(op(OpKind::Rsqrt, op(OpKind::Add, var, real(eps)))));
    if (!bias.is(Type::None)) y = op(OpKind::Add, y, bias);
    if (hasRm) {
      // Running statistics: buffers, no gradient; n / (n - 1) makes the variance unbiased.
      Value bm = reshapeTo(op(OpKind::Detach, mean), {c});
      Value bv = reshapeTo(op(OpKind::Detach, var), {c});
      bv = op(OpKind::Div, op(OpKind::Mul, bv, makeSymInt(n)), makeSymInt(n - SymInt(1)));
      Value keep = real(1.0 - momentum);
      rm = op(OpKind::Add, op(OpKind::Mul, rm, keep), op(OpKind::Mul, bm, real(momentum)));
      rv = op(OpKind::Add, op(OpKind::Mul, rv, keep), op(OpKind::Mul, bv, real(momentum)));
    }
  } else {
    // y = x * scale + shift, scale = w / sqrt(running_var + eps), shift = b - mean * scale.
    Value scale = scaled(op(OpKind::Rsqrt, op(OpKind::Add, reshapeTo(rv, view), real(eps))));
    Value shift = op(OpKind::Neg, op(OpKind::Mul, reshapeTo(rm, view), scale));
    if (!bias.is(Type::None)) shift = op(OpKind::Add, shift, bias);
    y = op(OpKind::Add, op(OpKind::Mul, x, scale), shift);
  }
  if (training && hasRm) return makeTuple({y, rm, rv});
  return y;
}

// ---- one_hot -------------------------------------------------------------------------------

// The number of entries of flat (1-D) where cond holds, as a size: nonzero's row count (an
// unbacked size under @compile, so the check below becomes a runtime assert of the graph).
SymInt countWhere(const Value& cond) {
  return shapeOf(op(OpKind::Nonzero, cond))[0];
}

// one_hot(x, num_classes = -1): [*x.shape, num_classes] i32 (PyTorch's int64), 1 where the
// last index equals x. num_classes = -1 takes max(x) + 1: a data-dependent width, read from
// bincount's length under @compile (unbacked; on the tpu it needs a bound, such as
// check(y.shape[-1] <= N) on the result). Class values outside [0, num_classes) are a
// ValueError on every device (PyTorch's RuntimeError), checked at run time under @compile.
Value nativeOneHot(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::one_hot, s.args());
  const Value& x = tensorArg(b.at(0), "one_hot(): x");
  if (!x.is(Type::Tensor) || dtypeOf(x) != DType::I32)
    throwUserError(ErrorKind::TypeError,
                   "one_hot(): x must be an i32 tensor of class indices, got " +
                       std::string(x.is(Type::Tensor) ? shapes::name(dtypeOf(x)) : "a number"));
  const int64_t classes = given(b, 1) ? b.toInt(1) : -1;
  if (classes < -1)
    throwUserError(ErrorKind::ValueError,
                   "one_hot(): num_classes must be -1 (inferred) or >= 0, got " +
                       std::to_string(classes));
  const SymShape xs = shapeOf(x);
  SymInt numel = 1;
  for (const SymInt& d : xs) numel = numel * d;
  if (classes < 0)
    shapes::require(numel > SymInt(0), ErrorKind::ValueError, [&] {
      return "one_hot(): cannot infer num_classes from x of shape " + shapes::errorText(xs) +
             " with no elements; pass num_classes";
    });
  const char* negative = "one_hot(): class values must be non-negative";
  auto tooLarge = [&] {
    return "one_hot(): class values must be smaller than num_classes = " +
           std::to_string(classes);
  };
  SymInt width = classes;
  if (!isFake(x)) {
    // Eagerly (every device, the tpu's lazy tensors too) the extremes are read back, as
    // PyTorch's one_hot does: the checks and the inferred width need them.
    auto extreme = [&](OpKind k) {
      return int64_t(hostTensor(asTensor(emitOp(k, {x}))).item());
    };
    if (numel.maybeConstant().value_or(0) > 0) {
      if (extreme(OpKind::Min) < 0) throwUserError(ErrorKind::ValueError, negative);
      const int64_t hi = extreme(OpKind::Max);
      if (classes >= 0 && hi >= classes) throwUserError(ErrorKind::ValueError, tooLarge());
      if (classes < 0) width = hi + 1;
    }
  } else {
    // Traced: the number of offending values is a size (nonzero's rows, unbacked), so each
    // check is a runtime assert of the graph; the inferred width is bincount's length.
    Value flat = reshapeTo(x, {numel});
    shapes::require(countWhere(op(OpKind::Lt, flat, Value::integer(0))) == SymInt(0),
                    ErrorKind::ValueError, negative);
    if (classes >= 0)
      shapes::require(countWhere(op(OpKind::Ge, flat, Value::integer(classes))) == SymInt(0),
                      ErrorKind::ValueError, tooLarge);
    else
      width = shapeOf(op(OpKind::Bincount, op(OpKind::Maximum, flat, Value::integer(0))))[0];
  }
  OpAttrs ar;
  ar.start = SymInt(0);
  ar.stop = width;
  ar.step = 1;
  ar.dtype = DType::I32;
  Value hit = op(OpKind::Eq, unsqueeze(x, int64_t(xs.size())), emitOp(OpKind::Arange, {}, ar));
  OpAttrs i32;
  i32.dtype = DType::I32;
  return emitOp(OpKind::Cast, {hit}, i32);
}

// ---- creation ------------------------------------------------------------------------------

std::optional<DType> dtypeKw(const ArgBinder& b, size_t i, const char* fn) {
  if (!given(b, i)) return std::nullopt;
  return toDType(b.at(i), std::string(fn) + "(): dtype");
}

// linspace(start, end, steps, dtype = none): steps evenly spaced values from start to end,
// computed in f32 as PyTorch's kernel does (start + i * step for the first half, end - (steps
// - 1 - i) * step for the second, so both ends are exact). steps may be a symbolic size.
Value nativeLinspace(Interpreter&, CallArgs& raw) {
  ArgBinder b(sig::linspace, raw);
  const double start = b.toFloat(0), end = b.toFloat(1);
  if (!isIntLike(b.at(2))) b.toInt(2);  // the TypeError naming steps
  const SymInt steps = toSymInt(b.at(2));
  shapes::require(steps >= SymInt(0), ErrorKind::ValueError, [&] {
    return "linspace(): steps must be non-negative, got " + shapes::errorText(steps);
  });
  OpAttrs ar;
  ar.start = SymInt(0);
  ar.stop = steps;
  ar.step = 1;
  ar.dtype = DType::I32;
  Value i = emitOp(OpKind::Arange, {}, ar);
  OpAttrs f32;
  f32.dtype = DType::F32;
  auto asF32 = [&](const Value& v) { return emitOp(OpKind::Cast, {v}, f32); };
  // step = (end - start) / (steps - 1) in f32, as PyTorch's kernel (steps - 1 >= 1 here).
  const float span = float(end) - float(start);
  Value step;
  if (auto n = steps.maybeConstant()) {
    step = real(double(span / float(std::max<int64_t>(*n - 1, 1))));
  } else {
    OpAttrs f;
    f.dtype = DType::F32;
    f.scalars = {double(span)};
    step = op(OpKind::Div, emitOp(OpKind::Full, {}, f),
              makeSymInt(shapes::max(steps - SymInt(1), SymInt(1))));
  }
  // halfway >= 1: a single step gives start (PyTorch's fill with start).
  const SymInt halfway = shapes::max(shapes::floorDiv(steps, SymInt(2)), SymInt(1));
  Value lo = op(OpKind::Add, op(OpKind::Mul, asF32(i), step), real(start));
  Value back = op(OpKind::Sub, makeSymInt(steps - SymInt(1)), i);
  Value hi = op(OpKind::Sub, real(end), op(OpKind::Mul, asF32(back), step));
  Value out = emitOp(OpKind::Where, {op(OpKind::Lt, i, makeSymInt(halfway)), lo, hi});
  if (auto t = dtypeKw(b, 3, "linspace"); t && *t != DType::F32) {
    OpAttrs cast;
    cast.dtype = *t;
    out = emitOp(OpKind::Cast, {out}, cast);
  }
  return out;
}

// full_like(x, value, dtype = none), zeros_like, ones_like: x's shape, x's dtype unless given,
// on x's device.
Value nativeFullLike(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::full_like, s.args());
  const Value& x = tensorArg(b.at(0), "full_like(): x");
  if (!x.is(Type::Tensor)) throwUserError(ErrorKind::TypeError, "full_like(): x must be a tensor");
  return fullShaped(x, shapeOf(x), b.toFloat(1), dtypeKw(b, 2, "full_like").value_or(dtypeOf(x)));
}

template <int V>
Value nativeConstLike(Interpreter&, CallArgs& raw) {
  const char* fn = V == 0 ? "zeros_like" : "ones_like";
  SelfArgs s(raw);
  ArgBinder b(V == 0 ? sig::zeros_like : sig::ones_like, s.args());
  const Value& x = tensorArg(b.at(0), std::string(fn) + "(): x");
  if (!x.is(Type::Tensor))
    throwUserError(ErrorKind::TypeError, std::string(fn) + "(): x must be a tensor");
  return fullShaped(x, shapeOf(x), double(V), dtypeKw(b, 1, fn).value_or(dtypeOf(x)));
}

// randn_like(x, dtype = none): standard normal samples of x's shape from seed()'s generator.
// Only floating dtypes have them (PyTorch raises for an integer x or dtype too).
Value nativeRandnLike(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::randn_like, s.args());
  const Value& x = tensorArg(b.at(0), "randn_like(): x");
  if (!x.is(Type::Tensor)) throwUserError(ErrorKind::TypeError, "randn_like(): x must be a tensor");
  const DType t = dtypeKw(b, 1, "randn_like").value_or(dtypeOf(x));
  if (t != DType::F32)
    throwUserError(ErrorKind::TypeError, "randn_like(): normal samples need a floating dtype, got " +
                                             std::string(shapes::name(t)));
  OpAttrs a;
  a.shape = shapeOf(x);
  return createLike(x, OpKind::Randn, a);
}

// ---- amax / amin ---------------------------------------------------------------------------

// amax(x, dim = none, keepdim = false): max over a dim or a list of dims (none: all), as
// torch.amax (values only); amin likewise.
template <OpKind K>
Value nativeAmaxLike(Interpreter&, CallArgs& raw) {
  const char* fn = K == OpKind::Max ? "amax" : "amin";
  SelfArgs s(raw);
  ArgBinder b(K == OpKind::Max ? sig::amax : sig::amin, s.args());
  const Value& x = tensorArg(b.at(0), std::string(fn) + "(): x");
  OpAttrs a;
  if (given(b, 1)) a.dims = toDimList(b.at(1), std::string(fn) + "(): dim");
  a.keepdim = b.has(2) && b.toBool(2);
  return emitOp(K, {x}, a);
}

const TensorNative kNorm[] = {
    {"group_norm", nativeGroupNorm, false},
    {"rms_norm", nativeRmsNorm, false},
    {"batch_norm", nativeBatchNorm, false},
    {"one_hot", nativeOneHot, false},
    {"linspace", nativeLinspace, false},
    {"full_like", nativeFullLike, false},
    {"zeros_like", nativeConstLike<0>, false},
    {"ones_like", nativeConstLike<1>, false},
    {"randn_like", nativeRandnLike, false},
    {"amax", nativeAmaxLike<OpKind::Max>, true},
    {"amin", nativeAmaxLike<OpKind::Min>, true},
};

}  // namespace

std::span<const TensorNative> tensorNormNatives() {
  return kNorm;
}

}  // namespace tessel::interp
