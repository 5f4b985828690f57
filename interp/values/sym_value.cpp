// Symbolic values: arithmetic stays symbolic; concrete answers go through shapes::evaluate.
#include "interp/values/sym_value.h"

#include <cmath>

#include "backends/tpu/lazy.h"
#include "interp/syntax/ast.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "shapes/shape_env.h"
#include "shapes/user_error.h"

namespace tessel::interp {

Value makeSymInt(const shapes::SymInt& v) {
  if (auto c = v.maybeConstant()) return Value::integer(*c);
  return Value::object(new SymIntObj(v));
}

Value makeSymBool(const shapes::SymBool& v) {
  if (v.isConstant()) return Value::boolean(v.constant());
  return Value::object(new SymBoolObj(v));
}

Value makeBoundedSize(const shapes::SymInt& v, std::shared_ptr<backends::tpu::Segment> segment) {
  if (auto c = v.maybeConstant()) return Value::integer(*c);
  auto* obj = new SymIntObj(v);
  obj->segment = std::move(segment);
  return Value::object(obj);
}

std::string boundedSizeText(const shapes::SymInt& v,
                            const std::shared_ptr<backends::tpu::Segment>& segment) {
  if (v.isConstant()) return v.toString();
  return "<=" + std::to_string(backends::tpu::sizeBound({v, segment}));
}

namespace {

bool isBounded(const Value& v) {
  return v.is(Type::SymInt) && v.as<SymIntObj>()->segment != nullptr;
}

// Arithmetic on bounded sizes: an expression of the segment being recorded (sizes of earlier
// segments enter it as symbols bounded by their bounds), so its bound is the solver's maximum.
Value boundedBinary(BinaryOp op, const Value& a, const Value& b) {
  namespace tpu = backends::tpu;
  std::shared_ptr<tpu::Segment> seg = tpu::currentSegment();
  auto operand = [&](const Value& v) {
    if (!v.is(Type::SymInt)) return toSymInt(v);
    const SymIntObj& s = *v.as<SymIntObj>();
    return tpu::importSize({s.value, s.segment});
  };
  shapes::SymInt x = operand(a), y = operand(b);
  switch (op) {
    case BinaryOp::Add:
      return makeBoundedSize(x + y, seg);
    case BinaryOp::Sub:
      return makeBoundedSize(x - y, seg);
    case BinaryOp::Mul:
      return makeBoundedSize(x * y, seg);
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
      const int64_t divisor = concreteInt(b);
      if (divisor == 0) throwUserError(ErrorKind::ZeroDivisionError, "division by zero");
      // Dividing checked that the divisor is not 0; as a fact (and a check of the program),
      // it bounds n % m below m: the solver's maximum of n % m is then max(m) - 1.
      shapes::ShapeEnv* env = tpu::segmentEnv(seg);
      shapes::ScopedShapeEnv scope(env);
      if (divisor > 0 && !y.isConstant()) env->check(y >= shapes::SymInt(1));
      return makeBoundedSize(op == BinaryOp::Mod ? shapes::mod(x, y) : shapes::floorDiv(x, y), seg);
    }
    default:
      return binaryOp(op, Value::integer(concreteInt(a)), Value::integer(concreteInt(b)));
  }
}

}  // namespace

shapes::SymInt toSymInt(const Value& v) {
  if (v.is(Type::SymInt)) return v.as<SymIntObj>()->value;
  if (v.is(Type::Bool)) return shapes::SymInt(int64_t{v.asBool()});
  return shapes::SymInt(v.asInt());
}

int64_t concreteInt(const Value& v) {
  if (v.is(Type::SymInt)) {
    const SymIntObj& s = *v.as<SymIntObj>();
    if (s.segment) return backends::tpu::sizeValue({s.value, s.segment});
    return shapes::evaluateInt(s.value);
  }
  return v.is(Type::Bool) ? v.asBool() : v.asInt();
}

bool concreteBool(const Value& v) {
  return shapes::evaluate(v.as<SymBoolObj>()->value);
}

Value symBinary(BinaryOp op, const Value& a, const Value& b) {
  if ((isBounded(a) || isBounded(b)) && isIntLike(a) && isIntLike(b)) return boundedBinary(op, a, b);
  if (!isIntLike(a) || !isIntLike(b)) {
    // A float operand: the int side is specialized to its hint.
    auto concrete = [](const Value& v) {
      return v.is(Type::SymInt) ? Value::integer(concreteInt(v)) : v;
    };
    return binaryOp(op, concrete(a), concrete(b));
  }
  shapes::SymInt x = toSymInt(a), y = toSymInt(b);
  switch (op) {
    case BinaryOp::Add:
      return makeSymInt(x + y);
    case BinaryOp::Sub:
      return makeSymInt(x - y);
    case BinaryOp::Mul:
      return makeSymInt(x * y);
    case BinaryOp::FloorDiv:
      return makeSymInt(shapes::floorDiv(x, y));
    case BinaryOp::Mod:
      return makeSymInt(shapes::mod(x, y));
    case BinaryOp::Div: {
      // True division gives a float: the operands are specialized.
      int64_t d = concreteInt(b);
      if (d == 0) throwUserError(ErrorKind::ZeroDivisionError, "division by zero");
      return Value::real(static_cast<double>(concreteInt(a)) / static_cast<double>(d));
    }
    case BinaryOp::Pow: {
      int64_t e = concreteInt(b);
      if (e < 0)
        return Value::real(std::pow(static_cast<double>(concreteInt(a)), static_cast<double>(e)));
      shapes::SymInt r = 1;
      for (int64_t i = 0; i < e; ++i) r = r * x;
      return makeSymInt(r);
    }
    case BinaryOp::MatMul:
      break;
  }
  throwUserError(ErrorKind::TypeError, "unsupported operand types for @: 'int' and 'int'");
}

Value symCompare(CompareOp op, const Value& a, const Value& b) {
  if (!isIntLike(a) || !isIntLike(b) || isBounded(a) || isBounded(b)) {
    auto concrete = [](const Value& v) {
      return v.is(Type::SymInt) ? Value::integer(concreteInt(v)) : v;
    };
    return Value::boolean(compareValues(op, concrete(a), concrete(b)));
  }
  shapes::SymInt x = toSymInt(a), y = toSymInt(b);
  switch (op) {
    case CompareOp::Eq:
      return makeSymBool(x == y);
    case CompareOp::Ne:
      return makeSymBool(x != y);
    case CompareOp::Lt:
      return makeSymBool(x < y);
    case CompareOp::Le:
      return makeSymBool(x <= y);
    case CompareOp::Gt:
      return makeSymBool(x > y);
    case CompareOp::Ge:
      return makeSymBool(x >= y);
    case CompareOp::In:
    case CompareOp::NotIn:
      break;
  }
  throwUserError(ErrorKind::TypeError, "'in' needs a container on the right, not an int");
}

}  // namespace tessel::interp
