// Symbolic values: arithmetic stays symbolic; concrete answers go through shapes::evaluate.
#include "interp/sym_value.h"

#include <cmath>

#include "interp/ast.h"
#include "interp/ops.h"
#include "interp/printer.h"
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

shapes::SymInt toSymInt(const Value& v) {
  if (v.is(Type::SymInt)) return v.as<SymIntObj>()->value;
  if (v.is(Type::Bool)) return shapes::SymInt(int64_t{v.asBool()});
  return shapes::SymInt(v.asInt());
}

int64_t concreteInt(const Value& v) {
  if (v.is(Type::SymInt)) return shapes::evaluateInt(v.as<SymIntObj>()->value);
  return v.is(Type::Bool) ? v.asBool() : v.asInt();
}

bool concreteBool(const Value& v) {
  return shapes::evaluate(v.as<SymBoolObj>()->value);
}

Value symBinary(BinaryOp op, const Value& a, const Value& b) {
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
  if (!isIntLike(a) || !isIntLike(b)) {
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
