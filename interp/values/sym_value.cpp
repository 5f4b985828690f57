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

Value makeSymFloat(const shapes::SymFloat& v) {
  if (auto c = v.maybeConstant()) return Value::real(*c);
  return Value::object(new SymFloatObj(v));
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

shapes::SymFloat toSymFloat(const Value& v) {
  switch (v.type()) {
    case Type::SymFloat:
      return v.as<SymFloatObj>()->value;
    case Type::Float:
      return shapes::SymFloat(v.asFloat());
    case Type::SymInt:  // a tpu size's arithmetic is bounded ints only: its real value
      if (isBounded(v)) return shapes::SymFloat(static_cast<double>(concreteInt(v)));
      return shapes::SymFloat::ofInt(toSymInt(v));
    default:
      return shapes::SymFloat(static_cast<double>(concreteInt(v)));
  }
}

double concreteFloat(const Value& v) {
  switch (v.type()) {
    case Type::SymFloat:
      return shapes::evaluateFloat(v.as<SymFloatObj>()->value);
    case Type::Float:
      return v.asFloat();
    case Type::SymBool:
      return concreteBool(v);
    default:
      return static_cast<double>(concreteInt(v));
  }
}

Value symUnaryFloat(shapes::FloatOp op, const Value& a) {
  if (a.is(Type::SymFloat) || (a.is(Type::SymInt) && !isBounded(a)))
    return makeSymFloat(shapes::unary(op, toSymFloat(a)));
  return Value::real(shapes::applyFloatOp(op, concreteFloat(a)));
}

namespace {

// Float arithmetic where an operand is symbolic: a SymFloat (Note [Symbolic floats]); floor
// division and modulo of floats need values.
Value floatBinary(BinaryOp op, const Value& a, const Value& b) {
  shapes::FloatOp f;
  switch (op) {
    case BinaryOp::Add:
      f = shapes::FloatOp::Add;
      break;
    case BinaryOp::Sub:
      f = shapes::FloatOp::Sub;
      break;
    case BinaryOp::Mul:
      f = shapes::FloatOp::Mul;
      break;
    case BinaryOp::Div:
      f = shapes::FloatOp::Div;
      break;
    case BinaryOp::Pow:
      f = shapes::FloatOp::Pow;
      break;
    default:
      return binaryOp(op, Value::real(concreteFloat(a)), Value::real(concreteFloat(b)));
  }
  return makeSymFloat(shapes::binary(f, toSymFloat(a), toSymFloat(b)));
}

}  // namespace

Value symBinary(BinaryOp op, const Value& a, const Value& b) {
  if ((isBounded(a) || isBounded(b)) && isIntLike(a) && isIntLike(b)) return boundedBinary(op, a, b);
  if (!isScalarLike(a) || !isScalarLike(b)) {
    // Not a number (a list repeated n times, a string): the symbol's value.
    auto concrete = [](const Value& v) {
      if (v.is(Type::SymInt)) return Value::integer(concreteInt(v));
      if (v.is(Type::SymFloat)) return Value::real(concreteFloat(v));
      return v;
    };
    return binaryOp(op, concrete(a), concrete(b));
  }
  if (!isIntLike(a) || !isIntLike(b)) return floatBinary(op, a, b);
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
    case BinaryOp::Div:
      // True division gives a float: a symbolic one.
      return floatBinary(op, a, b);
    case BinaryOp::Pow: {
      int64_t e = concreteInt(b);
      if (e < 0) return floatBinary(op, a, b);
      shapes::SymInt r = 1;
      for (int64_t i = 0; i < e; ++i) r = r * x;
      return makeSymInt(r);
    }
    case BinaryOp::MatMul:
      break;
  }
  throwUserError(ErrorKind::TypeError, "unsupported operand types for @: 'int' and 'int'");
}

namespace {

// `lr == 5.0`, `5.0 < lr`: a float input of the call against a plain number. The branch is
// guarded on the outcome and the input stays symbolic (ShapeEnv::FloatGuard), as PyTorch
// guards an unspecialized float; any other float comparison needs the value.
std::optional<bool> guardedFloatCompare(CompareOp op, const Value& a, const Value& b) {
  if (op == CompareOp::In || op == CompareOp::NotIn) return std::nullopt;
  const bool inputLeft = a.is(Type::SymFloat);
  const Value& sym = inputLeft ? a : b;
  const Value& num = inputLeft ? b : a;
  if (!sym.is(Type::SymFloat) || !(num.is(Type::Float) || num.is(Type::Int))) return std::nullopt;
  const shapes::FloatExpr& e = sym.as<SymFloatObj>()->value.expr();
  shapes::ShapeEnv* env = shapes::currentShapeEnv();
  if (e->op != shapes::FloatOp::Input || !env) return std::nullopt;
  // CompareOp and FloatCmp list Eq..Ge in the same order; a constant on the left mirrors.
  static const shapes::FloatCmp mirrored[] = {shapes::FloatCmp::Eq, shapes::FloatCmp::Ne,
                                              shapes::FloatCmp::Gt, shapes::FloatCmp::Ge,
                                              shapes::FloatCmp::Lt, shapes::FloatCmp::Le};
  const auto cmp = inputLeft ? static_cast<shapes::FloatCmp>(op) : mirrored[static_cast<int>(op)];
  return env->guardFloatCompare(e->input, cmp, num.toDouble());
}

}  // namespace

Value symCompare(CompareOp op, const Value& a, const Value& b) {
  if (auto guarded = guardedFloatCompare(op, a, b)) return Value::boolean(*guarded);
  if (!isIntLike(a) || !isIntLike(b) || isBounded(a) || isBounded(b)) {
    // A float's comparison needs its value (Note [Symbolic floats]: specialized, logged).
    auto concrete = [](const Value& v) {
      if (v.is(Type::SymInt)) return Value::integer(concreteInt(v));
      if (v.is(Type::SymFloat)) return Value::real(concreteFloat(v));
      return v;
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
