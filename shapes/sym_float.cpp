// Symbolic floats (Note [Symbolic floats] in sym_float.h).
#include "shapes/sym_float.h"

#include <cmath>

#include "shapes/float_repr.h"
#include "shapes/shape_env.h"
#include "shapes/source_loc.h"
#include "shapes/user_error.h"

namespace tessel::shapes {

namespace {

FloatExpr node(FloatNode n) {
  return std::make_shared<const FloatNode>(std::move(n));
}

std::string text(const FloatExpr& e, std::span<const std::string> names, bool nested) {
  switch (e->op) {
    case FloatOp::Const:
      return floatRepr(e->value);
    case FloatOp::OfInt:
      return "float(" + e->ofInt.toString() + ")";
    case FloatOp::Input:
      return e->input < names.size() ? names[e->input] : "f" + std::to_string(e->input);
    default:
      break;
  }
  if (e->op == FloatOp::Neg) return "-" + text(e->a, names, true);
  if (isUnaryFloatOp(e->op) || e->op == FloatOp::Min || e->op == FloatOp::Max) {
    std::string s = std::string(floatOpName(e->op)) + "(" + text(e->a, names, false);
    if (e->b) s += ", " + text(e->b, names, false);
    return s + ")";
  }
  std::string s = text(e->a, names, true) + " " + floatOpName(e->op) + " " + text(e->b, names, true);
  return nested ? "(" + s + ")" : s;
}

}  // namespace

bool isUnaryFloatOp(FloatOp op) {
  switch (op) {
    case FloatOp::Neg:
    case FloatOp::Sqrt:
    case FloatOp::Exp:
    case FloatOp::Log:
    case FloatOp::Abs:
    case FloatOp::Sin:
    case FloatOp::Cos:
    case FloatOp::Tanh:
      return true;
    default:
      return false;
  }
}

const char* floatOpName(FloatOp op) {
  switch (op) {
#define TESSEL_X(e, s) \
  case FloatOp::e:     \
    return s;
    TESSEL_FLOAT_OPS(TESSEL_X)
#undef TESSEL_X
  }
  return "?";
}

double applyFloatOp(FloatOp op, double a, double b) {
  switch (op) {
    case FloatOp::Neg:
      return -a;
    case FloatOp::Sqrt:
      if (a < 0) throwUserError(ErrorKind::ValueError, "math domain error: sqrt of a negative number");
      return std::sqrt(a);
    case FloatOp::Exp:
      return std::exp(a);
    case FloatOp::Log:
      if (a < 0) throwUserError(ErrorKind::ValueError, "math domain error: log of a negative number");
      return a == 0 ? -INFINITY : std::log(a);  // as math.log (natives/iterables.cpp)
    case FloatOp::Abs:
      return std::fabs(a);
    case FloatOp::Sin:
      return std::sin(a);
    case FloatOp::Cos:
      return std::cos(a);
    case FloatOp::Tanh:
      return std::tanh(a);
    case FloatOp::Add:
      return a + b;
    case FloatOp::Sub:
      return a - b;
    case FloatOp::Mul:
      return a * b;
    case FloatOp::Div:
      if (b == 0) throwUserError(ErrorKind::ZeroDivisionError, "float division by zero");
      return a / b;
    case FloatOp::Pow:
      if (a == 0 && b < 0)
        throwUserError(ErrorKind::ZeroDivisionError, "0.0 cannot be raised to a negative power");
      if (a < 0 && b != std::floor(b))
        throwUserError(ErrorKind::ValueError, "a negative number to a fractional power");
      return std::pow(a, b);
    case FloatOp::Min:
      return b < a ? b : a;
    case FloatOp::Max:
      return b > a ? b : a;
    case FloatOp::Const:
    case FloatOp::OfInt:
    case FloatOp::Input:
      break;
  }
  return a;
}

SymFloat::SymFloat(double v) {
  FloatNode n;
  n.op = FloatOp::Const;
  n.value = v;
  n.hint = v;
  e_ = node(std::move(n));
}

SymFloat SymFloat::ofInt(const SymInt& v) {
  if (auto c = v.maybeConstant()) return SymFloat(static_cast<double>(*c));
  FloatNode n;
  n.op = FloatOp::OfInt;
  n.ofInt = v;
  if (auto h = v.hint()) n.hint = static_cast<double>(*h);
  return SymFloat(node(std::move(n)));
}

SymFloat SymFloat::input(uint32_t index, double hint) {
  FloatNode n;
  n.op = FloatOp::Input;
  n.input = index;
  n.value = hint;
  n.hint = hint;
  n.hasInput = true;
  return SymFloat(node(std::move(n)));
}

SymFloat unary(FloatOp op, const SymFloat& a) {
  // Errors (sqrt of a negative hint) surface now, as they would eagerly.
  std::optional<double> h;
  if (a.hint()) h = applyFloatOp(op, *a.hint());
  if (a.isConstant()) return SymFloat(*h);
  FloatNode n;
  n.op = op;
  n.a = a.expr();
  n.hint = h;
  n.hasInput = a.expr()->hasInput;
  return SymFloat(node(std::move(n)));
}

SymFloat binary(FloatOp op, const SymFloat& a, const SymFloat& b) {
  std::optional<double> h;
  if (a.hint() && b.hint()) h = applyFloatOp(op, *a.hint(), *b.hint());
  if (a.isConstant() && b.isConstant()) return SymFloat(*h);
  // Identities that hold for every float value, signed zeros included: x * 1, x / 1, x ** 1,
  // x - 0.0 and x + -0.0 (x + 0.0 is not one: -0.0 + 0.0 is 0.0, which prints differently).
  if (auto c = b.maybeConstant()) {
    if ((*c == 1.0 && (op == FloatOp::Mul || op == FloatOp::Div || op == FloatOp::Pow)) ||
        (*c == 0.0 && ((op == FloatOp::Add && std::signbit(*c)) ||
                       (op == FloatOp::Sub && !std::signbit(*c)))))
      return a;
  }
  if (auto c = a.maybeConstant(); c && *c == 1.0 && op == FloatOp::Mul) return b;
  FloatNode n;
  n.op = op;
  n.a = a.expr();
  n.b = b.expr();
  n.hint = h;
  n.hasInput = a.expr()->hasInput || b.expr()->hasInput;
  return SymFloat(node(std::move(n)));
}

std::string SymFloat::toString(std::span<const std::string> inputNames) const {
  return text(e_, inputNames, false);
}

double evalFloat(const FloatExpr& e, const std::function<int64_t(const SymInt&)>& intValue,
                 std::span<const double> inputs) {
  switch (e->op) {
    case FloatOp::Const:
      return e->value;
    case FloatOp::OfInt:
      return static_cast<double>(intValue(e->ofInt));
    case FloatOp::Input:
      return inputs[e->input];
    default:
      break;
  }
  double a = evalFloat(e->a, intValue, inputs);
  if (isUnaryFloatOp(e->op)) return applyFloatOp(e->op, a);
  return applyFloatOp(e->op, a, evalFloat(e->b, intValue, inputs));
}

void floatLeaves(const FloatExpr& e, std::vector<SymInt>& ints, std::vector<uint32_t>& inputs) {
  switch (e->op) {
    case FloatOp::Const:
      return;
    case FloatOp::OfInt:
      ints.push_back(e->ofInt);
      return;
    case FloatOp::Input:
      inputs.push_back(e->input);
      return;
    default:
      floatLeaves(e->a, ints, inputs);
      if (e->b) floatLeaves(e->b, ints, inputs);
  }
}

bool compareFloats(FloatCmp cmp, double a, double b) {
  switch (cmp) {
    case FloatCmp::Eq: return a == b;
    case FloatCmp::Ne: return a != b;
    case FloatCmp::Lt: return a < b;
    case FloatCmp::Le: return a <= b;
    case FloatCmp::Gt: return a > b;
    case FloatCmp::Ge: return a >= b;
  }
  return false;
}

const char* floatCmpName(FloatCmp cmp) {
  static const char* const names[] = {"==", "!=", "<", "<=", ">", ">="};
  return names[static_cast<int>(cmp)];
}

double evaluateFloat(const SymFloat& v) {
  if (auto c = v.maybeConstant()) return *c;
  std::vector<SymInt> ints;
  std::vector<uint32_t> inputs;
  floatLeaves(v.expr(), ints, inputs);
  ShapeEnv* env = currentShapeEnv();
  if (!v.hint()) {
    std::string names;
    for (const SymInt& i : ints)
      if (i.hasUnbacked()) names += (names.empty() ? "" : ", ") + i.toString();
    throwUserError(ErrorKind::DataDependentError,
                   "could not specialize the data-dependent float " + v.toString() + " (of " +
                       names + ")");
  }
  // Each integer leaf becomes its hint (a specialization guard, logged); each float input
  // is guarded equal to its value.
  for (const SymInt& i : ints) evaluateInt(i);
  if (env) {
    for (uint32_t in : inputs) env->specializeFloat(in);
    env->noteFloatSpecialized(v.toString(env->floatInputNames()), *v.hint());
  }
  return *v.hint();
}

}  // namespace tessel::shapes
