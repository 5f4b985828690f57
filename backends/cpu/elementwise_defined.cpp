// The cpu eager kernels of the ops of ops/elementwise.ops: one loop per arity and compute dtype
// over the op's formula (ops/elementwise_cpu.h), picked by the generated rows of
// ops_gen/elementwise_kernels.def. Nothing here names an op.
#include <algorithm>

#include "backends/cpu/kernels.h"
#include "backends/cpu/map.h"
#include "ops/elementwise_cpu.h"
#include "shapes/elementwise_defs.h"

namespace tessel::backends::cpu {

namespace {

namespace ew = ops::ew;

// The rows of elementwise_kernels.def of one compute dtype (F: f32, I: i32), for runIn<T>.
#define TESSEL_EW_1(E, fn) \
  case OpKind::E: return mapUnary<T, T>(in[0], out, [](T x) { return ew::fn(x); });
#define TESSEL_EW_2(E, fn)                                                              \
  case OpKind::E:                                                                       \
    return mapBinary<T, T>(in[0], in[1], out, [](T x, T y) { return ew::fn(x, y); });
#define TESSEL_EW_3(E, fn)                                                                \
  case OpKind::E:                                                                         \
    return mapTernary<T, T, T, T>(in[0], in[1], in[2], out,                               \
                                  [](T x, T y, T z) { return ew::fn(x, y, z); });

void runF32(OpKind op, std::span<const Tensor> in, const Tensor& out) {
  using T = float;
  switch (op) {
#define TESSEL_EW_F1(E, fn) TESSEL_EW_1(E, fn)
#define TESSEL_EW_F2(E, fn) TESSEL_EW_2(E, fn)
#define TESSEL_EW_F3(E, fn) TESSEL_EW_3(E, fn)
#define TESSEL_EW_I1(E, fn)
#define TESSEL_EW_I2(E, fn)
#define TESSEL_EW_I3(E, fn)
#include "ops_gen/elementwise_kernels.def"
    default:
      break;
  }
  TESSEL_ASSERT(false, "a defined op has no f32 formula");
}

void runI32(OpKind op, std::span<const Tensor> in, const Tensor& out) {
  using T = int32_t;
  switch (op) {
#define TESSEL_EW_I1(E, fn) TESSEL_EW_1(E, fn)
#define TESSEL_EW_I2(E, fn) TESSEL_EW_2(E, fn)
#define TESSEL_EW_I3(E, fn) TESSEL_EW_3(E, fn)
#define TESSEL_EW_F1(E, fn)
#define TESSEL_EW_F2(E, fn)
#define TESSEL_EW_F3(E, fn)
#include "ops_gen/elementwise_kernels.def"
    default:
      break;
  }
  TESSEL_ASSERT(false, "a defined op has no i32 formula");
}
#undef TESSEL_EW_1
#undef TESSEL_EW_2
#undef TESSEL_EW_3

}  // namespace

void checkIntDivisors(OpKind op, const Tensor& divisor) {
  Tensor c = divisor.contiguous();
  const int32_t* p = c.data<int32_t>();
  if (std::find(p, p + c.numel(), 0) != p + c.numel())
    throwUserError(ErrorKind::ZeroDivisionError,
                   std::string(shapes::opName(op)) + ": integer division by zero");
}

Tensor runDefined(const shapes::ElementwiseDef& d, std::span<const Tensor> in,
                  const OpSignature& sig) {
  // f32 ops compute in f32; the others in the result dtype, bool as i32 (then converted back).
  const DType compute = sig.dtype == DType::F32 ? DType::F32 : DType::I32;
  std::vector<Tensor> args;
  for (const Tensor& t : in) args.push_back(castTo(t, compute));
  if (compute == DType::I32 && d.intDivisor) checkIntDivisors(d.op, args[1]);
  Tensor out = emptyLike(sig);
  Tensor res = compute == sig.dtype ? out : Tensor::empty(out.shape(), compute);
  if (compute == DType::F32) runF32(d.op, args, res);
  else runI32(d.op, args, res);
  return compute == sig.dtype ? out : castTo(res, sig.dtype);
}

}  // namespace tessel::backends::cpu
