// Elementwise unary, binary and ternary ops: pick the op code and compute dtype the way the
// cpu backend does (backends/cpu/unary.cpp, binary.cpp) and run elementwise.comp once.
#include "backends/vulkan/ops.h"
#include "backends/vulkan/shaders/ew_ops.h"
#include "shapes/elementwise_defs.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

uint32_t ewCode(OpKind op) {
  switch (op) {
    case OpKind::Add: return EW_ADD;
    case OpKind::Sub: return EW_SUB;
    case OpKind::Mul: return EW_MUL;
    case OpKind::Div: return EW_DIV;
    case OpKind::GeluBackward: return EW_GELU_BACKWARD;
    case OpKind::FloorDiv: return EW_FLOORDIV;
    case OpKind::Mod: return EW_MOD;
    case OpKind::Pow: return EW_POW;
    case OpKind::Maximum: return EW_MAXIMUM;
    case OpKind::Minimum: return EW_MINIMUM;
    case OpKind::Eq: return EW_EQ;
    case OpKind::Ne: return EW_NE;
    case OpKind::Lt: return EW_LT;
    case OpKind::Le: return EW_LE;
    case OpKind::Gt: return EW_GT;
    case OpKind::Ge: return EW_GE;
    case OpKind::LogicalAnd: return EW_AND;
    case OpKind::LogicalOr: return EW_OR;
    case OpKind::Where: return EW_WHERE;
    case OpKind::Clamp: return EW_CLAMP;
    default: break;
  }
  if (const shapes::ElementwiseDef* d = shapes::elementwiseDef(op)) return d->code;
  TESSEL_ASSERT(false, "not an elementwise op");
  return 0;
}

// Arithmetic on bool runs in i32 (true + true is 2, then stored as true), as on cpu.
DType arithmeticType(DType t) { return t == DType::Bool ? DType::I32 : t; }

}  // namespace

Tensor runUnary(OpKind op, const Tensor& x, const OpSignature& sig) {
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  // Every unary op is a defined one: it computes in the dtype its definition says.
  const shapes::ElementwiseDef* def = shapes::elementwiseDef(op);
  TESSEL_ASSERT(def != nullptr, "unary op without a definition");
  const DType compute = shapes::computeDType(*def, x.dtype());
  const Tensor in[] = {x};
  elementwise(ewCode(op), compute, out, in);
  return out;
}

Tensor runBinary(OpKind op, const Tensor& a, const Tensor& b, const OpSignature& sig) {
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  const shapes::ElementwiseDef* def = shapes::elementwiseDef(op);
  const DType promoted = shapes::promote(a.dtype(), b.dtype());
  DType compute = def                        ? shapes::computeDType(*def, promoted)
                  : shapes::isComparison(op) ? arithmeticType(promoted)
                                             : arithmeticType(sig.dtype);
  const Tensor in[] = {a, b};
  const bool checked = compute == DType::I32 && (op == OpKind::FloorDiv || op == OpKind::Mod ||
                                                 op == OpKind::Pow || (def && def->intDivisor));
  if (!checked) {
    elementwise(ewCode(op), compute, out, in);
    return out;
  }
  // Integer division by zero and negative integer powers are user errors (as on cpu); the
  // kernel raises a flag, read back at once (a sync, but only for these integer ops).
  Scratch flag = errorFlag();
  elementwise(ewCode(op), compute, out, in, &flag.arg);
  if (out.numel() == 0 && b.numel() > 0) {
    // The cpu checks every divisor even when the result is empty: op(b, b) flags the same.
    Tensor probe = emptyDevice(b.shape(), DType::I32);
    const Tensor bb[] = {b, b};
    elementwise(ewCode(op), compute, probe, bb, &flag.arg);
  }
  uint32_t bits = readFlag(flag);
  if (bits & FLAG_INT_DIV_ZERO)
    throwUserError(ErrorKind::ZeroDivisionError,
                   std::string(shapes::opName(op)) + ": integer division by zero");
  if (bits & FLAG_NEG_EXPONENT)
    throwUserError(ErrorKind::ValueError,
                   "pow: integers to negative integer powers are not allowed (use a float base)");
  return out;
}

Tensor runTernary(OpKind op, std::span<const Tensor> in, const OpSignature& sig) {
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  const shapes::ElementwiseDef* def = shapes::elementwiseDef(op);
  DType compute = arithmeticType(sig.dtype);
  if (def)
    compute = shapes::computeDType(
        *def, shapes::promote(shapes::promote(in[0].dtype(), in[1].dtype()), in[2].dtype()));
  elementwise(ewCode(op), compute, out, in);
  return out;
}

}  // namespace tessel::backends::vulkan
