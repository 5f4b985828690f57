// Elementwise unary ops (all defined in ops/elementwise.ops) and dtype casts, plus the small
// helpers every kernel file uses.
#include <cmath>
#include <limits>

#include "backends/cpu/kernels.h"
#include "backends/cpu/map.h"
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

// Every elementwise unary op is on ops/elementwise.ops: its kernels come from its formula.
Tensor runUnary(OpKind op, const Tensor& x, const OpSignature& sig) {
  const shapes::ElementwiseDef* d = shapes::elementwiseDef(op);
  TESSEL_ASSERT(d != nullptr, "unary op without a definition");
  return runDefined(*d, {&x, 1}, sig);
}

}  // namespace tessel::backends::cpu
