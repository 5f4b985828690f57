// Elementwise unary kernels and dtype casts, plus the small helpers every kernel file uses.
#include <cmath>
#include <limits>

#include "backends/cpu/kernels.h"
#include "backends/cpu/map.h"
#include "backends/cpu/vec_math.h"
#include "backends/cpu/vec_rows.h"
#include "ops/elementwise_cpu.h"
#include "shapes/elementwise_defs.h"

namespace tessel::backends::cpu {

Dims concreteShape(const shapes::SymShape& shape) {
  Dims d(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) d[i] = shape[i].constant();
  return d;
}

Tensor emptyLike(const OpSignature& sig) {
  return Tensor::empty(concreteShape(sig.shape), sig.dtype);
}

int64_t wrapDim(int64_t dim, int64_t rank) {
  return dim < 0 ? dim + rank : dim;
}

namespace {
// Float to int32 truncates toward zero like PyTorch; NaN becomes 0 and out-of-range values
// saturate, where a plain C++ cast would be undefined.
inline int32_t floatToI32(float v) {
  if (!(v == v)) return 0;
  if (v >= 2147483647.0f) return std::numeric_limits<int32_t>::max();
  if (v <= -2147483648.0f) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}
}  // namespace

Tensor castTo(const Tensor& x, DType dtype) {
  if (x.dtype() == dtype) return x;
  Tensor out = Tensor::empty(x.shape(), dtype, x.device());
  visitDType(x.dtype(), [&](auto in) {
    using In = decltype(in);
    switch (dtype) {
      case DType::F32:
        return mapUnary<float, In>(x, out, [](In v) { return static_cast<float>(v); });
      case DType::I32:
        if constexpr (std::is_same_v<In, float>)
          return mapUnary<int32_t, In>(x, out, [](In v) { return floatToI32(v); });
        else
          return mapUnary<int32_t, In>(x, out, [](In v) { return static_cast<int32_t>(v); });
      case DType::Bool:
        return mapUnary<uint8_t, In>(x, out, [](In v) { return uint8_t(v != 0); });
    }
  });
  return out;
}

namespace {

constexpr float kInvSqrt2 = 0.70710678118654752f;

Tensor floatUnary(OpKind op, const Tensor& x, const Tensor& out) {
  if (x.isContiguous()) {
    // The transcendental ones have ISA-cloned loops for contiguous data (vec_rows.h).
    auto row = op == OpKind::Exp       ? expRow
               : op == OpKind::Log     ? logRow
               : op == OpKind::Sigmoid ? sigmoidRow
               : op == OpKind::Gelu    ? geluRow
                                       : nullptr;
    if (row) {
      row(out.data<float>(), x.data<float>(), x.numel());
      return out;
    }
  }
  switch (op) {
    case OpKind::Neg:
      mapUnary<float, float>(x, out, [](float v) { return -v; });
      break;
    case OpKind::Exp:
      mapUnary<float, float>(x, out, [](float v) { return vexp(v); });
      break;
    case OpKind::Log:
      mapUnary<float, float>(x, out, [](float v) { return vlog(v); });
      break;
    case OpKind::Abs:
      mapUnary<float, float>(x, out, [](float v) { return std::fabs(v); });
      break;
    case OpKind::Tanh:
      mapUnary<float, float>(x, out, [](float v) { return std::tanh(v); });
      break;
    case OpKind::Sigmoid:
      mapUnary<float, float>(x, out, [](float v) { return 1.0f / (1.0f + vexp(-v)); });
      break;
    case OpKind::Relu:
      // PyTorch's relu propagates NaN; `v > 0 ? v : 0` alone would map NaN to 0.
      mapUnary<float, float>(x, out, [](float v) { return (v > 0.0f || v != v) ? v : 0.0f; });
      break;
    case OpKind::Gelu:
      // The exact (erf) form, PyTorch's default: x * Phi(x).
      mapUnary<float, float>(x, out,
                             [](float v) { return 0.5f * v * (1.0f + ops::ew::ew_erf(v * kInvSqrt2)); });
      break;
    default:
      TESSEL_ASSERT(false, "not a float unary op");
  }
  return out;
}

Tensor intUnary(OpKind op, const Tensor& x, const Tensor& out) {
  switch (op) {
    case OpKind::Neg:
      // Wraps on INT32_MIN like two's-complement hardware (and PyTorch) instead of being UB.
      mapUnary<int32_t, int32_t>(x, out, [](int32_t v) { return int32_t(0u - uint32_t(v)); });
      break;
    case OpKind::Abs:
      mapUnary<int32_t, int32_t>(x, out,
                                 [](int32_t v) { return v < 0 ? int32_t(0u - uint32_t(v)) : v; });
      break;
    case OpKind::Relu:
      mapUnary<int32_t, int32_t>(x, out, [](int32_t v) { return v > 0 ? v : 0; });
      break;
    default:
      TESSEL_ASSERT(false, "unary op has no integer kernel");
  }
  return out;
}

}  // namespace

Tensor runUnary(OpKind op, const Tensor& x, const OpSignature& sig) {
  if (const shapes::ElementwiseDef* d = shapes::elementwiseDef(op)) return runDefined(*d, {&x, 1}, sig);
  Tensor out = emptyLike(sig);
  if (op == OpKind::LogicalNot) {
    visitDType(x.dtype(), [&](auto in) {
      using In = decltype(in);
      mapUnary<uint8_t, In>(x, out, [](In v) { return uint8_t(v == 0); });
    });
    return out;
  }
  // The rule picks the result dtype (exp of an i32 tensor is f32); compute in it.
  Tensor in = castTo(x, sig.dtype == DType::Bool ? DType::I32 : sig.dtype);
  if (sig.dtype == DType::F32) return floatUnary(op, in, out);
  if (sig.dtype == DType::I32) return intUnary(op, in, out);
  Tensor tmp = Tensor::empty(out.shape(), DType::I32);
  intUnary(op, in, tmp);
  return castTo(tmp, DType::Bool);
}

}  // namespace tessel::backends::cpu
