// Built-ins for pooling and resizing (torch.nn.functional's names, argument order and
// semantics): max_pool2d, avg_pool2d, adaptive_avg_pool2d, interpolate. Each parses its
// arguments into OpAttrs::pool and emits one op of the table, so the same native runs eagerly
// and under @compile; output sizes stay expressions of the input's sizes.
#include <cmath>
#include <numeric>

#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/objects.h"
#include "interp/values/sym_value.h"
#include "shapes/pool_geometry.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using shapes::InterpMode;
using shapes::SymInt;
using shapes::SymShape;

[[noreturn]] void fail(ErrorKind kind, const std::string& fn, const std::string& message) {
  throwUserError(kind, fn + "(): " + message);
}

// An int or a pair of ints (kernel_size, stride, padding, dilation) into out[0..1].
void intPair(const Value& v, const std::string& fn, const char* what, int64_t out[2]) {
  const std::vector<int64_t> d = toDims(v, fn + "(): " + what);
  if (d.size() != 1 && d.size() != 2)
    fail(ErrorKind::ValueError, fn,
         std::string(what) + " must be an int or a pair of ints, got " + std::to_string(d.size()) +
             " values");
  out[0] = d[0];
  out[1] = d.size() == 2 ? d[1] : d[0];
}

bool given(const ArgBinder& b, size_t i) {
  return b.has(i) && !b.at(i).is(Type::None);
}

Value inputArg(const ArgBinder& b, const std::string& fn) {
  const Value& x = tensorArg(b.at(0), fn + "(): input");
  if (!x.is(Type::Tensor)) fail(ErrorKind::TypeError, fn, "input must be a tensor, not a number");
  return x;
}

void unsupportedFlag(const ArgBinder& b, size_t i, const std::string& fn, const char* what) {
  if (given(b, i) && b.toBool(i))
    fail(ErrorKind::ValueError, fn, std::string(what) + "=true is not supported");
}

// max_pool2d(input, kernel_size, stride = none, padding = 0, dilation = 1, ceil_mode = false,
// return_indices = false)
Value nativeMaxPool2d(Interpreter&, CallArgs& raw) {
  const std::string fn = "max_pool2d";
  ArgBinder b(sig::max_pool2d, raw);
  OpAttrs a;
  shapes::PoolAttrs& p = a.pool;
  intPair(b.at(1), fn, "kernel_size", p.kernel);
  if (given(b, 2))
    intPair(b.at(2), fn, "stride", p.stride);
  else
    p.stride[0] = p.kernel[0], p.stride[1] = p.kernel[1];
  if (b.has(3)) intPair(b.at(3), fn, "padding", p.padding);
  if (b.has(4)) intPair(b.at(4), fn, "dilation", p.dilation);
  unsupportedFlag(b, 5, fn, "ceil_mode");
  unsupportedFlag(b, 6, fn, "return_indices");
  return emitOp(OpKind::MaxPool2d, {inputArg(b, fn)}, a);
}

// avg_pool2d(input, kernel_size, stride = none, padding = 0, ceil_mode = false,
// count_include_pad = true, divisor_override = none)
Value nativeAvgPool2d(Interpreter&, CallArgs& raw) {
  const std::string fn = "avg_pool2d";
  ArgBinder b(sig::avg_pool2d, raw);
  OpAttrs a;
  shapes::PoolAttrs& p = a.pool;
  intPair(b.at(1), fn, "kernel_size", p.kernel);
  if (given(b, 2))
    intPair(b.at(2), fn, "stride", p.stride);
  else
    p.stride[0] = p.kernel[0], p.stride[1] = p.kernel[1];
  if (b.has(3)) intPair(b.at(3), fn, "padding", p.padding);
  unsupportedFlag(b, 4, fn, "ceil_mode");
  p.countIncludePad = given(b, 5) ? b.toBool(5) : true;
  if (given(b, 6)) {
    p.divisor = b.toInt(6);
    if (p.divisor == 0) fail(ErrorKind::ValueError, fn, "divisor_override must be non-zero");
  }
  return emitOp(OpKind::AvgPool2d, {inputArg(b, fn)}, a);
}

// adaptive_avg_pool2d(input, output_size): an int, or a pair whose none entries keep the
// input's size.
Value nativeAdaptiveAvgPool2d(Interpreter&, CallArgs& raw) {
  const std::string fn = "adaptive_avg_pool2d";
  ArgBinder b(sig::adaptive_avg_pool2d, raw);
  const Value x = inputArg(b, fn);
  const SymShape xs = shapeOf(x);
  const Value& s = b.at(1);
  OpAttrs a;
  if (s.is(Type::List) || s.is(Type::Tuple)) {
    const auto& items = s.is(Type::List) ? s.as<ListObj>()->items : s.as<TupleObj>()->items;
    if (items.size() != 2)
      fail(ErrorKind::ValueError, fn,
           "output_size must be an int or a pair, got " + std::to_string(items.size()) + " values");
    for (size_t d = 0; d < 2; ++d) {
      if (items[d].is(Type::None) && xs.size() >= 2) {
        a.shape.push_back(xs[xs.size() - 2 + d]);
        continue;
      }
      if (!isIntLike(items[d]))
        fail(ErrorKind::TypeError, fn, "output_size must contain ints or none");
      a.shape.push_back(toSymInt(items[d]));
    }
  } else {
    if (!isIntLike(s)) fail(ErrorKind::TypeError, fn, "output_size must be an int or a pair");
    a.shape = {toSymInt(s), toSymInt(s)};
  }
  return emitOp(OpKind::AdaptiveAvgPool2d, {x}, a);
}

// Note [Scaled sizes]
// interpolate's output size for a scale factor is floor(in * scale) in f64 (PyTorch). For a
// symbolic size that stays an expression when the product is exact in integers: a scale that is
// a multiple of 1/1024 (2.0, 1.5, 0.25) gives (in * m) // q with no rounding, the f64 result for
// every size. Other scales (0.7, 1/3) round in f64 in ways no integer expression follows, so
// the size is specialized to its current value (a guard, said in the log).
SymInt scaledSym(const SymInt& in, double scale) {
  if (auto c = in.maybeConstant()) return shapes::scaledSize(*c, scale);
  const double m = scale * 1024.0;
  if (m == std::floor(m) && m > 0 && m < double(int64_t(1) << 30)) {
    int64_t num = int64_t(m), den = 1024;
    const int64_t g = std::gcd(num, den);
    num /= g, den /= g;
    return den == 1 ? in * num : shapes::floorDiv(in * num, SymInt(den));
  }
  return shapes::scaledSize(shapes::evaluateInt(in), scale);
}

std::vector<double> floatList(const Value& v, const std::string& fn) {
  auto one = [&](const Value& e) {
    if (e.is(Type::Float)) return e.asFloat();
    if (e.is(Type::Int)) return double(e.asInt());
    fail(ErrorKind::TypeError, fn, "scale_factor must be a float or a list of floats");
  };
  if (v.is(Type::List) || v.is(Type::Tuple)) {
    std::vector<double> out;
    for (const Value& e : v.is(Type::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items)
      out.push_back(one(e));
    return out;
  }
  return {one(v)};
}

// interpolate(input, size = none, scale_factor = none, mode = "nearest", align_corners = none,
// recompute_scale_factor = none, antialias = false). A 3-D input is [N, C, L] (modes nearest,
// linear), a 4-D one [N, C, H, W] (nearest, bilinear), as PyTorch; 3-D runs as a height of 1.
Value nativeInterpolate(Interpreter&, CallArgs& raw) {
  const std::string fn = "interpolate";
  ArgBinder b(sig::interpolate, raw);
  Value x = inputArg(b, fn);
  const SymShape xs = shapeOf(x);
  const size_t spatial = xs.size() >= 2 ? xs.size() - 2 : 0;
  if (spatial != 1 && spatial != 2)
    fail(ErrorKind::ValueError, fn,
         "expects a 3-D [N, C, L] or 4-D [N, C, H, W] input, got " + shapes::errorText(xs));
  const std::string mode = given(b, 3) ? b.toStr(3) : "nearest";
  OpAttrs a;
  shapes::PoolAttrs& p = a.pool;
  if (mode == "nearest") {
    p.mode = InterpMode::Nearest;
  } else if (mode == "bilinear" || mode == "linear") {
    p.mode = InterpMode::Bilinear;
    const size_t want = mode == "linear" ? 1 : 2;
    if (spatial != want)
      fail(ErrorKind::ValueError, fn,
           "got " + std::to_string(xs.size()) + "-D input, but " + mode + " mode needs " +
               std::to_string(want + 2) + "-D input");
  } else {
    fail(ErrorKind::ValueError, fn,
         "mode must be \"nearest\", \"linear\" or \"bilinear\", not \"" + mode + "\"");
  }
  if (given(b, 4)) {
    if (p.mode == InterpMode::Nearest)
      fail(ErrorKind::ValueError, fn,
           "align_corners can only be set with the interpolating modes: linear | bilinear");
    p.alignCorners = b.toBool(4);
  }
  unsupportedFlag(b, 6, fn, "antialias");
  const bool hasSize = given(b, 1), hasScale = given(b, 2);
  if (hasSize && hasScale)
    fail(ErrorKind::ValueError, fn, "only one of size or scale_factor should be defined");
  if (!hasSize && !hasScale)
    fail(ErrorKind::ValueError, fn, "either size or scale_factor should be defined");
  SymShape out;
  if (hasSize) {
    out = toSymDims(b.at(1), fn + "(): size");
    if (out.size() == 1 && spatial == 2) out.push_back(out[0]);
    if (out.size() != spatial)
      fail(ErrorKind::ValueError, fn,
           "size " + shapes::errorText(out) + " must have " + std::to_string(spatial) +
               " entries for input " + shapes::errorText(xs));
  } else {
    std::vector<double> s = floatList(b.at(2), fn);
    if (s.size() == 1 && spatial == 2) s.push_back(s[0]);
    if (s.size() != spatial)
      fail(ErrorKind::ValueError, fn,
           "scale_factor must have " + std::to_string(spatial) + " entries for input " +
               shapes::errorText(xs) + ", got " + std::to_string(s.size()));
    const bool recompute = given(b, 5) && b.toBool(5);
    for (size_t d = 0; d < spatial; ++d) {
      if (!(s[d] > 0))
        fail(ErrorKind::ValueError, fn,
             "scale_factor must be positive, got " + std::to_string(s[d]));
      out.push_back(scaledSym(xs[2 + d], s[d]));
      // The kernel steps by 1/scale unless told to recompute it from the sizes (PyTorch).
      if (!recompute) p.scale[2 - spatial + d] = s[d];
    }
  }
  if (spatial == 2) {
    a.shape = out;
    return emitOp(OpKind::Interpolate, {x}, a);
  }
  // [N, C, L] as [N, C, 1, L]: a height of 1 maps to itself in both modes.
  a.shape = {SymInt(1), out[0]};
  Value y =
      emitOp(OpKind::Interpolate, {compose::reshapeTo(x, {xs[0], xs[1], SymInt(1), xs[2]})}, a);
  return compose::reshapeTo(y, {xs[0], xs[1], out[0]});
}

const TensorNative kPool[] = {
    {"max_pool2d", nativeMaxPool2d, false},
    {"avg_pool2d", nativeAvgPool2d, false},
    {"adaptive_avg_pool2d", nativeAdaptiveAvgPool2d, false},
    {"interpolate", nativeInterpolate, false},
};

}  // namespace

std::span<const TensorNative> tensorPoolNatives() {
  return kPool;
}

}  // namespace tessel::interp
