// The cpu eager kernels of the ops of ops/elementwise.ops: one loop per arity and compute dtype
// over the op's formula (ops/elementwise_cpu.h), picked by the generated rows of
// ops_gen/elementwise_kernels.def. Nothing here names an op.
#include <algorithm>

#include "backends/cpu/defined_rows.h"
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

namespace {

// Every operand contiguous with the result's shape: the ISA-cloned row loop (defined_rows.cpp)
// instead of the strided map, several times faster for the transcendental formulas.
bool rowsApply(std::span<const Tensor> args, const Tensor& res) {
  for (const Tensor& t : args)
    if (!t.isContiguous() || t.shape() != res.shape()) return false;
  return true;
}

void runRows(OpKind op, std::span<const Tensor> args, const Tensor& res) {
  if (res.dtype() == DType::F32) {
    const float* a[3] = {};
    for (size_t i = 0; i < args.size(); ++i) a[i] = args[i].data<float>();
    definedRowF(op, a, res.data<float>(), res.numel());
  } else {
    const int32_t* a[3] = {};
    for (size_t i = 0; i < args.size(); ++i) a[i] = args[i].data<int32_t>();
    definedRowI(op, a, res.data<int32_t>(), res.numel());
  }
}

}  // namespace

Tensor runDefined(const shapes::ElementwiseDef& d, std::span<const Tensor> in,
                  const OpSignature& sig) {
  // The formula runs in the dtype the definition says (f32, else i32 with bool as 0/1); the
  // result is converted to the op's dtype (a test's bool, a bool op's bool) after.
  if (d.arity == 1 && d.result == shapes::EwResult::Bool) {
    // A unary test writes bool bytes straight from its operand (defined_rows_unary.cpp).
    const Tensor x = in[0].contiguous();
    Tensor out = emptyLike(sig);
    definedUnaryTestRow(d.op, x.dtype(), x.bytes(), out.data<uint8_t>(), out.numel());
    return out;
  }
  DType promoted = in[0].dtype();
  for (const Tensor& t : in.subspan(1)) promoted = shapes::promote(promoted, t.dtype());
  const DType compute = shapes::computeDType(d, promoted);
  std::vector<Tensor> args;
  for (const Tensor& t : in) args.push_back(castTo(t, compute));
  Tensor out = emptyLike(sig);
  Tensor res = compute == sig.dtype ? out : Tensor::empty(out.shape(), compute);
  // Operands of the result's shape in another layout (a transposed view) are copied to rows
  // first: a copy and a vectorized row beat the strided map by 5x for silu. Broadcast operands
  // keep the map, which reads them in place.
  bool sameShapes = true;
  for (const Tensor& t : args) sameShapes = sameShapes && t.shape() == res.shape();
  if (sameShapes)
    for (Tensor& t : args) t = t.contiguous();
  if (rowsApply(args, res)) {
    runRows(d.op, args, res);  // checks i32 divisors itself
  } else {
    if (compute == DType::I32 && d.intDivisor) checkIntDivisors(d.op, args[1]);
    if (compute == DType::F32) runF32(d.op, args, res);
    else runI32(d.op, args, res);
  }
  return compute == sig.dtype ? out : castTo(res, sig.dtype);
}

}  // namespace tessel::backends::cpu
