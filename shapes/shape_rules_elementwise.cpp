// Shape rules of elementwise ops (unary, binary, where, clamp) and conversions.
#include "shapes/elementwise_defs.h"
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {

// An op of ops/elementwise.ops: its arguments broadcast together; the result is f32 (Float),
// bool (a test) or their promoted dtype (Same; bool gives i32 where the definition says so).
Outputs defined(const ElementwiseDef& d, Inputs in) {
  const OpKind op = d.op;
  arity(op, in, d.arity, d.arity);
  SymShape shape = in[0].shape;
  DType t = in[0].dtype;
  for (size_t i = 1; i < in.size(); ++i) {
    shape = broadcastShapes(shape, in[i].shape, opName(op));
    t = promote(t, in[i].dtype);
  }
  if (t == DType::Bool && d.rejectBool)
    fail(ErrorKind::TypeError, opName(op), "not supported for bool tensors");
  if (d.result == EwResult::Float) return {{shape, DType::F32}};
  if (d.result == EwResult::Bool) return {{shape, DType::Bool}};
  return {{shape, t == DType::Bool && d.boolToI32 ? DType::I32 : t}};
}

Outputs binary(OpKind op, Inputs in) {
  arity(op, in, 2, 2);
  std::string_view name = opName(op);
  SymShape shape = broadcastShapes(in[0].shape, in[1].shape, name);
  DType a = in[0].dtype, b = in[1].dtype, t = promote(a, b);
  if (isComparison(op)) return {{shape, DType::Bool}};
  switch (op) {
    case OpKind::Div:
    case OpKind::GeluBackward:
      return {{shape, DType::F32}};
    case OpKind::Sub:
      if (a == DType::Bool && b == DType::Bool)
        fail(ErrorKind::TypeError, name, "subtraction of bool tensors is not supported");
      return {{shape, t}};
    case OpKind::FloorDiv:
    case OpKind::Mod:
      if (t == DType::Bool) fail(ErrorKind::TypeError, name, "not supported for bool tensors");
      return {{shape, t}};
    default:
      return {{shape, t == DType::Bool && op != OpKind::Maximum && op != OpKind::Minimum &&
                              op != OpKind::Mul && op != OpKind::Add
                          ? DType::I32
                          : t}};
  }
}

Outputs ternary(OpKind op, Inputs in) {
  std::string_view name = opName(op);
  if (op == OpKind::Where) {
    arity(op, in, 3, 3);
    if (in[0].dtype != DType::Bool)
      fail(ErrorKind::TypeError, name,
           "condition must be a bool tensor, got " + std::string(shapes::name(in[0].dtype)));
    SymShape s =
        broadcastShapes(broadcastShapes(in[0].shape, in[1].shape, name), in[2].shape, name);
    return {{s, promote(in[1].dtype, in[2].dtype)}};
  }
  // clamp(x[, lo[, hi]]): bounds broadcast with x.
  arity(op, in, 1, 3);
  SymShape s = in[0].shape;
  DType t = in[0].dtype;
  for (size_t i = 1; i < in.size(); ++i) {
    s = broadcastShapes(s, in[i].shape, name);
    t = promote(t, in[i].dtype);
  }
  if (t == DType::Bool) fail(ErrorKind::TypeError, name, "not supported for bool tensors");
  return {{s, t}};
}

}  // namespace

Outputs elementwise(OpKind op, Inputs in, const OpAttrs& a) {
  if (const ElementwiseDef* d = elementwiseDef(op)) return defined(*d, in);
  switch (opCategory(op)) {
    case OpCategory::Binary:
      return binary(op, in);
    case OpCategory::Ternary:
      return ternary(op, in);
    default:
      break;
  }
  arity(op, in, 1, 1);
  if (op == OpKind::Cast) return {{in[0].shape, a.dtype}};
  return {{in[0].shape, in[0].dtype}};  // contiguous
}

}  // namespace tessel::shapes::rules
