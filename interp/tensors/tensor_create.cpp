// Tensor creation built-ins: tensor, zeros, ones, full, arange, eye, rand, randn, randint, seed.
#include <cmath>

#include "backends/rng.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/op_sink.h"
#include "interp/values/sym_value.h"
#include "interp/tensors/tensor_natives.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

std::optional<DType> dtypeArg(const ArgBinder& b, size_t i, const char* fn) {
  if (!b.has(i) || b.at(i).is(Type::None)) return std::nullopt;
  return toDType(b.at(i), std::string(fn) + "(): dtype");
}

Value fullOf(shapes::SymShape dims, double value, DType dtype) {
  OpAttrs attrs;
  attrs.shape = std::move(dims);
  attrs.scalars = {value};
  attrs.dtype = dtype;
  return emitOp(OpKind::Full, {}, attrs);
}

// tensor(data) builds its values on the host; like every creation op it returns them on the
// default device (TESSEL_DEVICE), as torch.tensor follows torch.set_default_device. Inside a
// compiled function the value is a graph constant and goes where the graph runs.
Value onDefaultDevice(const Tensor& t) {
  const backends::Device device = defaultDevice();
  if (currentOpSink() || device == backends::Device::Cpu) return makeTensor(t);
  ensureDevice(device);
  return makeTensor(onDevice(t, device));
}

Value nativeTensor(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::tensor, a);
  std::optional<DType> dtype = dtypeArg(b, 1, "tensor");
  const Value& data = b.at(0);
  if (data.is(Type::Tensor))
    return dtype ? emitOp(OpKind::Cast, {data},
                          [&] {
                            OpAttrs at;
                            at.dtype = *dtype;
                            return at;
                          }())
                 : data;
  if (data.isNumber() || data.is(Type::Bool)) {
    Tensor t = toTensor(data, "tensor()");
    if (!dtype || *dtype == t.dtype()) return onDefaultDevice(t);
    OpAttrs at;
    at.dtype = *dtype;
    return emitOp(OpKind::Cast, {onDefaultDevice(t)}, at);
  }
  return onDefaultDevice(tensorFromNested(data, dtype));
}

Value nativeZeros(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::zeros, a);
  return fullOf(toSymDims(b.at(0), "zeros(): shape"), 0.0,
                dtypeArg(b, 1, "zeros").value_or(DType::F32));
}

Value nativeOnes(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::ones, a);
  return fullOf(toSymDims(b.at(0), "ones(): shape"), 1.0,
                dtypeArg(b, 1, "ones").value_or(DType::F32));
}

Value nativeFull(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::full, a);
  const Value& v = b.at(1);
  DType inferred = v.is(Type::Float) ? DType::F32 : v.is(Type::Bool) ? DType::Bool : DType::I32;
  const DType dtype = dtypeArg(b, 2, "full").value_or(inferred);
  return fullOf(toSymDims(b.at(0), "full(): shape"),
                checkRepresentable(b.toFloat(1), dtype, "full(): value"), dtype);
}

// arange(n), arange(a, b[, step]): ints give i32; any float gives f32 (computed as
// start + i * step in f32, like NumPy).
Value nativeArange(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::arange, a);
  bool anyFloat = false;
  for (size_t i = 0; i < 3; ++i)
    if (b.has(i) && b.at(i).is(Type::Float)) anyFloat = true;
  std::optional<DType> dtype = dtypeArg(b, 3, "arange");
  if (!anyFloat) {
    // Sizes stay symbolic while tracing: arange(x.shape[0]) does not specialize.
    auto symArg = [&](size_t i) {
      if (!isIntLike(b.at(i))) b.toInt(i);  // the TypeError naming the argument
      return toSymInt(b.at(i));
    };
    shapes::SymInt start = 0, stop, step = b.has(2) ? symArg(2) : shapes::SymInt(1);
    if (b.has(1)) {
      start = symArg(0);
      stop = symArg(1);
    } else {
      stop = symArg(0);
    }
    if (shapes::evaluate(step == 0))
      throwUserError(ErrorKind::ValueError, "arange(): step must not be zero");
    // The first and last values must fit the dtype (sizes of a trace are sizes: they do).
    const DType t = dtype.value_or(DType::I32);
    if (auto a0 = start.maybeConstant(), a1 = stop.maybeConstant(), s = step.maybeConstant();
        a0 && a1 && s && (*s > 0 ? *a0 < *a1 : *a0 > *a1)) {
      checkRepresentable(double(*a0), t, "arange(): start");
      const int64_t count = (*a1 - *a0 + *s + (*s > 0 ? -1 : 1)) / *s;
      checkRepresentable(double(*a0 + (count - 1) * *s), t, "arange(): last value");
    }
    OpAttrs attrs;
    attrs.start = start;
    attrs.stop = stop;
    attrs.step = step;
    attrs.dtype = dtype.value_or(DType::I32);
    return emitOp(OpKind::Arange, {}, attrs);
  }
  double start = 0, stop, step = b.has(2) ? b.toFloat(2) : 1.0;
  if (b.has(1)) {
    start = b.toFloat(0);
    stop = b.toFloat(1);
  } else {
    stop = b.toFloat(0);
  }
  if (step == 0) throwUserError(ErrorKind::ValueError, "arange(): step must not be zero");
  double count = std::ceil((stop - start) / step);
  if (!std::isfinite(count))
    throwUserError(ErrorKind::ValueError, "arange(): bounds must be finite");
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  OpAttrs attrs;
  attrs.start = 0;
  attrs.stop = n;
  attrs.step = 1;
  attrs.dtype = DType::F32;
  Value idx = emitOp(OpKind::Arange, {}, attrs);
  Value out =
      emitOp(OpKind::Add, {emitOp(OpKind::Mul, {idx, Value::real(step)}), Value::real(start)});
  if (dtype && *dtype != DType::F32) {
    OpAttrs cast;
    cast.dtype = *dtype;
    out = emitOp(OpKind::Cast, {out}, cast);
  }
  return out;
}

Value nativeEye(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::eye, a);
  OpAttrs attrs;
  if (!isIntLike(b.at(0))) b.toInt(0);
  attrs.shape = {toSymInt(b.at(0))};
  if (b.has(1) && !b.at(1).is(Type::None)) {
    if (!isIntLike(b.at(1))) b.toInt(1);
    attrs.shape.push_back(toSymInt(b.at(1)));
  }
  attrs.dtype = dtypeArg(b, 2, "eye").value_or(DType::F32);
  return emitOp(OpKind::Eye, {}, attrs);
}

Value nativeRand(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::rand, a);
  OpAttrs attrs;
  attrs.shape = toSymDims(b.at(0), "rand(): shape");
  return emitOp(OpKind::Rand, {}, attrs);
}

Value nativeRandn(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::randn, a);
  OpAttrs attrs;
  attrs.shape = toSymDims(b.at(0), "randn(): shape");
  return emitOp(OpKind::Randn, {}, attrs);
}

Value nativeRandint(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::randint, a);
  int64_t lo = b.toInt(0), hi = b.toInt(1);
  if (hi <= lo)
    throwUserError(ErrorKind::ValueError, "randint(): high (" + std::to_string(hi) +
                                              ") must be greater than low (" + std::to_string(lo) +
                                              ")");
  checkRepresentable(double(lo), DType::I32, "randint(): low");
  checkRepresentable(double(hi - 1), DType::I32, "randint(): high - 1");
  OpAttrs attrs;
  attrs.shape = toSymDims(b.at(2), "randint(): shape");
  attrs.scalars = {static_cast<double>(lo), static_cast<double>(hi)};
  attrs.dtype = DType::I32;
  return emitOp(OpKind::Randint, {}, attrs);
}

Value nativeSeed(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::seed, a);
  backends::seed(static_cast<uint64_t>(b.toInt(0)));
  return Value::none();
}

const TensorNative kCreation[] = {
    {"tensor", nativeTensor, false},   {"zeros", nativeZeros, false},
    {"ones", nativeOnes, false},       {"full", nativeFull, false},
    {"arange", nativeArange, false},   {"eye", nativeEye, false},
    {"rand", nativeRand, false},       {"randn", nativeRandn, false},
    {"randint", nativeRandint, false}, {"seed", nativeSeed, false},
};

}  // namespace

std::span<const TensorNative> tensorCreationNatives() {
  return kCreation;
}

}  // namespace tessel::interp
