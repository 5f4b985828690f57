// Shape rules of creation ops: full/rand/randn/randint/randperm from attrs.shape, arange, eye.
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {
void checkSizes(std::string_view op, const SymShape& s) {
  for (const SymInt& d : s)
    require(d >= SymInt(0), ErrorKind::ValueError, [&] {
      return std::string(op) + ": negative dimension " + sizeStr(d) + " in shape " + str(s);
    });
  // Constant sizes whose product overflows (or passes 2^62 elements) are refused here, before
  // a wrapped element count could make a wrong, small tensor.
  int64_t n = 1;
  bool overflow = false;
  for (const SymInt& d : s)
    if (auto c = d.maybeConstant()) overflow = __builtin_mul_overflow(n, *c, &n) || overflow;
  if (overflow || n > (int64_t{1} << 62))
    fail(ErrorKind::ValueError, op, "shape " + str(s) + " has more elements than memory can address");
}
}  // namespace

Outputs createOp(OpKind op, Inputs in, const OpAttrs& a) {
  arity(op, in, 0, 0);
  std::string_view name = opName(op);
  switch (op) {
    case OpKind::Full:
      checkSizes(name, a.shape);
      return {{a.shape, a.dtype}};
    case OpKind::Rand:
    case OpKind::Randn:
      checkSizes(name, a.shape);
      if (!isFloating(a.dtype)) fail(ErrorKind::TypeError, name, "needs a floating dtype");
      return {{a.shape, a.dtype}};
    case OpKind::Randint:
      checkSizes(name, a.shape);
      if (a.scalars.size() >= 2 && a.scalars[0] >= a.scalars[1])
        fail(ErrorKind::ValueError, name, "low must be less than high");
      return {{a.shape, DType::I32}};
    case OpKind::Randperm:
      if (a.shape.size() != 1) fail(ErrorKind::ValueError, name, "expects shape {n}");
      checkSizes(name, a.shape);
      return {{a.shape, DType::I32}};
    case OpKind::Arange: {
      if (!a.stop) fail(ErrorKind::ValueError, name, "missing stop");
      SymInt start = a.start.value_or(0), stop = *a.stop, step = a.step;
      require(step != SymInt(0), ErrorKind::ValueError,
              [&] { return std::string(name) + ": step must be nonzero"; });
      SymInt n = smax(SymInt(0), ceilDiv(stop - start, step));
      return {{{n}, a.dtype}};
    }
    case OpKind::Eye: {
      if (a.shape.empty() || a.shape.size() > 2)
        fail(ErrorKind::ValueError, name, "expects shape {n} or {n, m}");
      checkSizes(name, a.shape);
      SymInt n = a.shape[0], m = a.shape.size() == 2 ? a.shape[1] : a.shape[0];
      return {{{n, m}, a.dtype}};
    }
    default:
      break;
  }
  TESSEL_ASSERT(false, "createOp: not a creation op");
  return {};
}

}  // namespace tessel::shapes::rules
