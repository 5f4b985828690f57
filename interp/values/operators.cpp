// Value operators with Python semantics.
#include "interp/values/operators.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "interp/values/objects.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "interp/values/tensor_hooks.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

[[noreturn]] void operandError(const char* op, const Value& a, const Value& b) {
  throwUserError(ErrorKind::TypeError, std::string("unsupported operand types for ") + op + ": '" +
                                           std::string(typeName(a.type())) + "' and '" +
                                           std::string(typeName(b.type())) + "'");
}

int64_t powInt(int64_t base, int64_t exp) {
  int64_t result = 1;
  while (exp > 0) {
    if (exp & 1) result = checkedMul(result, base);
    exp >>= 1;
    if (exp) base = checkedMul(base, base);
  }
  return result;
}

double floatFloorMod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

Value arithNumbers(BinaryOp op, const Value& a, const Value& b) {
  if (a.is(Type::Int) && b.is(Type::Int)) {
    int64_t x = a.asInt(), y = b.asInt();
    switch (op) {
      case BinaryOp::Add:
        return Value::integer(checkedAdd(x, y));
      case BinaryOp::Sub:
        return Value::integer(checkedSub(x, y));
      case BinaryOp::Mul:
        return Value::integer(checkedMul(x, y));
      case BinaryOp::Div:
        if (y == 0) throwUserError(ErrorKind::ZeroDivisionError, "division by zero");
        return Value::real(static_cast<double>(x) / static_cast<double>(y));
      case BinaryOp::FloorDiv:
        return Value::integer(floorDiv(x, y));
      case BinaryOp::Mod:
        return Value::integer(floorMod(x, y));
      case BinaryOp::Pow:
        if (y < 0) {
          if (x == 0)
            throwUserError(ErrorKind::ZeroDivisionError, "0 cannot be raised to a negative power");
          return Value::real(std::pow(static_cast<double>(x), static_cast<double>(y)));
        }
        return Value::integer(powInt(x, y));
      case BinaryOp::MatMul:
        break;
    }
    operandError("@", a, b);
  }
  double x = a.toDouble(), y = b.toDouble();
  switch (op) {
    case BinaryOp::Add:
      return Value::real(x + y);
    case BinaryOp::Sub:
      return Value::real(x - y);
    case BinaryOp::Mul:
      return Value::real(x * y);
    case BinaryOp::Div:
      if (y == 0) throwUserError(ErrorKind::ZeroDivisionError, "float division by zero");
      return Value::real(x / y);
    case BinaryOp::FloorDiv:
      if (y == 0) throwUserError(ErrorKind::ZeroDivisionError, "float floor division by zero");
      return Value::real(std::floor(x / y));
    case BinaryOp::Mod:
      if (y == 0) throwUserError(ErrorKind::ZeroDivisionError, "float modulo by zero");
      return Value::real(floatFloorMod(x, y));
    case BinaryOp::Pow: {
      if (x == 0 && y < 0)
        throwUserError(ErrorKind::ZeroDivisionError, "0.0 cannot be raised to a negative power");
      double r = std::pow(x, y);
      if (std::isnan(r) && !std::isnan(x) && !std::isnan(y))
        throwUserError(ErrorKind::ValueError,
                       "negative number cannot be raised to a fractional power");
      return Value::real(r);
    }
    case BinaryOp::MatMul:
      break;
  }
  operandError("@", a, b);
}

Value repeatSeq(const Value& seq, int64_t n) {
  n = std::max<int64_t>(n, 0);
  if (seq.is(Type::Str)) {
    const std::string& s = seq.as<StrObj>()->str;
    if (!s.empty() && n > (int64_t{1} << 30) / static_cast<int64_t>(s.size()))
      throwUserError(ErrorKind::LimitError, "string repetition too large");
    std::string out;
    out.reserve(s.size() * n);
    for (int64_t i = 0; i < n; ++i) out += s;
    return makeStr(std::move(out));
  }
  const auto& items = seq.is(Type::List) ? seq.as<ListObj>()->items : seq.as<TupleObj>()->items;
  if (!items.empty() && n > (int64_t{1} << 28) / static_cast<int64_t>(items.size()))
    throwUserError(ErrorKind::LimitError, "sequence repetition too large");
  std::vector<Value> out;
  out.reserve(items.size() * n);
  for (int64_t i = 0; i < n; ++i) out.insert(out.end(), items.begin(), items.end());
  return seq.is(Type::List) ? makeList(std::move(out)) : makeTuple(std::move(out));
}

bool isSeq(const Value& v) {
  return v.is(Type::Str) || v.is(Type::List) || v.is(Type::Tuple);
}

int compareSeq(const std::vector<Value>& a, const std::vector<Value>& b);

// Three-way comparison for ordered types; TypeError for unordered pairs.
int threeWay(const Value& a, const Value& b) {
  if (a.isNumber() && b.isNumber()) {
    if (a.is(Type::Int) && b.is(Type::Int))
      return a.asInt() < b.asInt() ? -1 : a.asInt() > b.asInt();
    double x = a.toDouble(), y = b.toDouble();
    return x < y ? -1 : x > y;
  }
  if (a.is(Type::Bool) && b.is(Type::Bool)) return int(a.asBool()) - int(b.asBool());
  if (a.is(Type::Str) && b.is(Type::Str)) {
    int c = a.as<StrObj>()->str.compare(b.as<StrObj>()->str);
    return c < 0 ? -1 : c > 0;
  }
  if (a.is(Type::List) && b.is(Type::List))
    return compareSeq(a.as<ListObj>()->items, b.as<ListObj>()->items);
  if (a.is(Type::Tuple) && b.is(Type::Tuple))
    return compareSeq(a.as<TupleObj>()->items, b.as<TupleObj>()->items);
  throwUserError(ErrorKind::TypeError, "'<' not supported between '" +
                                           std::string(typeName(a.type())) + "' and '" +
                                           std::string(typeName(b.type())) + "'");
}

int compareSeq(const std::vector<Value>& a, const std::vector<Value>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (valuesEqual(a[i], b[i])) continue;
    return threeWay(a[i], b[i]);
  }
  return a.size() < b.size() ? -1 : a.size() > b.size();
}

}  // namespace

int64_t checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    throwUserError(ErrorKind::OverflowError,
                   "integer overflow in " + std::to_string(a) + " + " + std::to_string(b));
  return r;
}
int64_t checkedSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r))
    throwUserError(ErrorKind::OverflowError,
                   "integer overflow in " + std::to_string(a) + " - " + std::to_string(b));
  return r;
}
int64_t checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    throwUserError(ErrorKind::OverflowError,
                   "integer overflow in " + std::to_string(a) + " * " + std::to_string(b));
  return r;
}
int64_t floorDiv(int64_t a, int64_t b) {
  if (b == 0) throwUserError(ErrorKind::ZeroDivisionError, "integer division by zero");
  if (a == INT64_MIN && b == -1)
    throwUserError(ErrorKind::OverflowError, "integer overflow in floor division");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floorMod(int64_t a, int64_t b) {
  if (b == 0) throwUserError(ErrorKind::ZeroDivisionError, "integer modulo by zero");
  if (b == -1) return 0;
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

Value binaryOp(BinaryOp op, const Value& a, const Value& b) {
  if (a.is(Type::Tensor) || b.is(Type::Tensor)) return tensorHooks().binary(op, a, b);
  if (a.is(Type::SymInt) || b.is(Type::SymInt) || a.is(Type::SymFloat) || b.is(Type::SymFloat))
    return symBinary(op, a, b);
  if (a.is(Type::SymBool) || b.is(Type::SymBool))
    return binaryOp(op, a.is(Type::SymBool) ? Value::boolean(concreteBool(a)) : a,
                    b.is(Type::SymBool) ? Value::boolean(concreteBool(b)) : b);
  auto numeric = [](const Value& v) { return v.isNumber() || v.is(Type::Bool); };
  auto asNumber = [](const Value& v) { return v.is(Type::Bool) ? Value::integer(v.asBool()) : v; };
  if (numeric(a) && numeric(b)) return arithNumbers(op, asNumber(a), asNumber(b));
  if (op == BinaryOp::Add) {
    if (a.is(Type::Str) && b.is(Type::Str))
      return makeStr(a.as<StrObj>()->str + b.as<StrObj>()->str);
    if (a.is(Type::List) && b.is(Type::List)) {
      std::vector<Value> out = a.as<ListObj>()->items;
      out.insert(out.end(), b.as<ListObj>()->items.begin(), b.as<ListObj>()->items.end());
      return makeList(std::move(out));
    }
    if (a.is(Type::Tuple) && b.is(Type::Tuple)) {
      std::vector<Value> out = a.as<TupleObj>()->items;
      out.insert(out.end(), b.as<TupleObj>()->items.begin(), b.as<TupleObj>()->items.end());
      return makeTuple(std::move(out));
    }
  }
  if (op == BinaryOp::Mul) {
    if (isSeq(a) && b.is(Type::Int)) return repeatSeq(a, b.asInt());
    if (a.is(Type::Int) && isSeq(b)) return repeatSeq(b, a.asInt());
  }
  operandError(binaryOpSymbol(op), a, b);
}

Value unaryOp(UnaryOp op, const Value& a) {
  if (a.is(Type::Tensor)) return tensorHooks().unary(op, a);
  // -n is 0 - n, so a bounded size stays bounded.
  if (a.is(Type::SymInt))
    return op == UnaryOp::Neg ? symBinary(BinaryOp::Sub, Value::integer(0), a) : a;
  if (a.is(Type::SymFloat)) return op == UnaryOp::Neg ? symUnaryFloat(shapes::FloatOp::Neg, a) : a;
  if (a.is(Type::SymBool)) return unaryOp(op, Value::boolean(concreteBool(a)));
  if (a.is(Type::Int) || a.is(Type::Bool)) {
    int64_t v = a.is(Type::Bool) ? a.asBool() : a.asInt();
    if (op == UnaryOp::Neg && v == INT64_MIN)
      throwUserError(ErrorKind::OverflowError, "integer overflow in -(" + std::to_string(v) + ")");
    return Value::integer(op == UnaryOp::Neg ? -v : v);
  }
  if (a.is(Type::Float)) return Value::real(op == UnaryOp::Neg ? -a.asFloat() : a.asFloat());
  throwUserError(ErrorKind::TypeError, std::string("bad operand type for unary ") +
                                           (op == UnaryOp::Neg ? "-" : "+") + ": '" +
                                           std::string(typeName(a.type())) + "'");
}

bool sameFloat(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

bool valuesEqual(const Value& a, const Value& b) {
  if (a.is(Type::SymInt) || b.is(Type::SymInt) || a.is(Type::SymBool) || b.is(Type::SymBool) ||
      a.is(Type::SymFloat) || b.is(Type::SymFloat)) {
    auto concrete = [](const Value& v) {
      if (v.is(Type::SymInt)) return Value::integer(concreteInt(v));
      if (v.is(Type::SymFloat)) return Value::real(concreteFloat(v));
      if (v.is(Type::SymBool)) return Value::boolean(concreteBool(v));
      return v;
    };
    return valuesEqual(concrete(a), concrete(b));
  }
  if (a.isNumber() && b.isNumber()) {
    if (a.is(Type::Int) && b.is(Type::Int)) return a.asInt() == b.asInt();
    return a.toDouble() == b.toDouble();
  }
  // bool is numeric in arithmetic (true + 1 == 2), so it compares like Python: true == 1.
  if (a.is(Type::Bool) && b.isNumber()) return valuesEqual(Value::integer(a.asBool()), b);
  if (b.is(Type::Bool) && a.isNumber()) return valuesEqual(a, Value::integer(b.asBool()));
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Type::None:
      return true;
    case Type::Bool:
      return a.asBool() == b.asBool();
    case Type::Str:
      return a.as<StrObj>()->str == b.as<StrObj>()->str;
    case Type::List:
    case Type::Tuple: {
      const auto& x = a.is(Type::List) ? a.as<ListObj>()->items : a.as<TupleObj>()->items;
      const auto& y = b.is(Type::List) ? b.as<ListObj>()->items : b.as<TupleObj>()->items;
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!valuesEqual(x[i], y[i])) return false;
      return true;
    }
    case Type::Dict: {
      auto* x = a.as<DictObj>();
      auto* y = b.as<DictObj>();
      if (x->entries.size() != y->entries.size()) return false;
      for (auto& [k, v] : x->entries) {
        Value* other = y->find(k);
        if (!other || !valuesEqual(v, *other)) return false;
      }
      return true;
    }
    case Type::Range: {
      auto* x = a.as<RangeObj>();
      auto* y = b.as<RangeObj>();
      return x->start == y->start && x->stop == y->stop && x->step == y->step;
    }
    case Type::Shape:
    case Type::DType:
      return tensorHooks().objectsEqual(a, b);
    default:
      return a.asObject() == b.asObject();
  }
}

bool compareValues(CompareOp op, const Value& a, const Value& b) {
  if ((a.is(Type::SymInt) || b.is(Type::SymInt) || a.is(Type::SymFloat) || b.is(Type::SymFloat)) &&
      op != CompareOp::In && op != CompareOp::NotIn)
    return truthy(symCompare(op, a, b));
  switch (op) {
    case CompareOp::Eq:
      return valuesEqual(a, b);
    case CompareOp::Ne:
      return !valuesEqual(a, b);
    case CompareOp::In:
      return contains(b, a);
    case CompareOp::NotIn:
      return !contains(b, a);
    case CompareOp::Lt:
      return threeWay(a, b) < 0;
    case CompareOp::Le:
      return threeWay(a, b) <= 0;
    case CompareOp::Gt:
      return threeWay(a, b) > 0;
    case CompareOp::Ge:
      return threeWay(a, b) >= 0;
  }
  return false;
}

bool truthy(const Value& v) {
  switch (v.type()) {
    case Type::None:
      return false;
    case Type::Bool:
      return v.asBool();
    case Type::Int:
      return v.asInt() != 0;
    case Type::Float:
      return v.asFloat() != 0.0;
    case Type::Str:
      return !v.as<StrObj>()->str.empty();
    case Type::List:
      return !v.as<ListObj>()->items.empty();
    case Type::Tuple:
      return !v.as<TupleObj>()->items.empty();
    case Type::Dict:
      return !v.as<DictObj>()->entries.empty();
    case Type::Range:
      return v.as<RangeObj>()->size() > 0;
    case Type::Tensor:
      return tensorHooks().truthy(v);
    case Type::Shape:
      return tensorHooks().shapeLength(v) > 0;
    case Type::SymBool:
      return concreteBool(v);
    case Type::SymFloat:
      return concreteFloat(v) != 0.0;
    case Type::SymInt:
      if (v.as<SymIntObj>()->segment) return concreteInt(v) != 0;  // a tpu size: its real value
      return shapes::evaluate(toSymInt(v) != 0);
    default:
      return true;
  }
}

bool contains(const Value& c, const Value& item) {
  switch (c.type()) {
    case Type::Str:
      if (!item.is(Type::Str))
        throwUserError(ErrorKind::TypeError, "'in <str>' requires a str on the left, not '" +
                                                 std::string(typeName(item.type())) + "'");
      return c.as<StrObj>()->str.find(item.as<StrObj>()->str) != std::string::npos;
    case Type::List:
    case Type::Tuple: {
      const auto& items = c.is(Type::List) ? c.as<ListObj>()->items : c.as<TupleObj>()->items;
      for (const Value& v : items)
        if (valuesEqual(v, item)) return true;
      return false;
    }
    case Type::Dict:
      return item.is(Type::Str) && c.as<DictObj>()->find(item.as<StrObj>()->str) != nullptr;
    case Type::Range: {
      if (!item.is(Type::Int)) return false;
      auto* r = c.as<RangeObj>();
      int64_t x = item.asInt();
      if (r->step > 0 ? (x < r->start || x >= r->stop) : (x > r->start || x <= r->stop))
        return false;
      return (x - r->start) % r->step == 0;
    }
    case Type::Shape:
      return tensorHooks().shapeContains(c, item);
    default:
      throwUserError(ErrorKind::TypeError, "argument of type '" + std::string(typeName(c.type())) +
                                               "' does not support 'in'");
  }
}

int64_t normalizeIndex(int64_t index, int64_t size, const char* what) {
  int64_t i = index < 0 ? index + size : index;
  if (i < 0 || i >= size)
    throwUserError(ErrorKind::IndexError, std::string(what) + " index " + std::to_string(index) +
                                              " out of range for length " + std::to_string(size));
  return i;
}

SliceBounds resolveSlice(std::optional<int64_t> lo, std::optional<int64_t> hi,
                         std::optional<int64_t> stepOpt, int64_t size) {
  int64_t step = stepOpt.value_or(1);
  if (step == 0) throwUserError(ErrorKind::ValueError, "slice step cannot be zero");
  auto clampBound = [&](std::optional<int64_t> b, int64_t dflt) {
    if (!b) return dflt;
    int64_t v = *b;
    if (v < 0) v += size;
    if (step > 0) return std::clamp<int64_t>(v, 0, size);
    return std::clamp<int64_t>(v, -1, size - 1);
  };
  int64_t start = clampBound(lo, step > 0 ? 0 : size - 1);
  int64_t stop = clampBound(hi, step > 0 ? size : -1);
  int64_t length = 0;
  if (step > 0 && start < stop) length = (stop - start + step - 1) / step;
  if (step < 0 && start > stop) length = (start - stop - step - 1) / -step;
  return {start, stop, step, length};
}

Value getIndex(const Value& object, const Value& index) {
  if (index.is(Type::SymInt)) return getIndex(object, Value::integer(concreteInt(index)));
  switch (object.type()) {
    case Type::List:
    case Type::Tuple: {
      const auto& items =
          object.is(Type::List) ? object.as<ListObj>()->items : object.as<TupleObj>()->items;
      if (!index.is(Type::Int))
        throwUserError(ErrorKind::TypeError, std::string(typeName(object.type())) +
                                                 " indices must be int, not '" +
                                                 std::string(typeName(index.type())) + "'");
      return items[normalizeIndex(index.asInt(), static_cast<int64_t>(items.size()),
                                  object.is(Type::List) ? "list" : "tuple")];
    }
    case Type::Str: {
      if (!index.is(Type::Int))
        throwUserError(ErrorKind::TypeError, "str indices must be int, not '" +
                                                 std::string(typeName(index.type())) + "'");
      std::vector<std::string> chars = utf8Chars(object.as<StrObj>()->str);
      return makeStr(
          chars[normalizeIndex(index.asInt(), static_cast<int64_t>(chars.size()), "str")]);
    }
    case Type::Dict: {
      if (!index.is(Type::Str))
        throwUserError(ErrorKind::TypeError,
                       "dict keys are str, not '" + std::string(typeName(index.type())) + "'");
      Value* v = object.as<DictObj>()->find(index.as<StrObj>()->str);
      if (!v) throwUserError(ErrorKind::KeyError, "key " + repr(index) + " not in dict");
      return *v;
    }
    case Type::Range: {
      if (!index.is(Type::Int)) throwUserError(ErrorKind::TypeError, "range indices must be int");
      auto* r = object.as<RangeObj>();
      int64_t i = normalizeIndex(index.asInt(), r->size(), "range");
      return Value::integer(r->start + i * r->step);
    }
    case Type::Shape:
      return tensorHooks().shapeIndex(object, index);
    default:
      throwUserError(ErrorKind::TypeError,
                     "'" + std::string(typeName(object.type())) + "' is not subscriptable");
  }
}

Value getSlice(const Value& object, std::optional<int64_t> lo, std::optional<int64_t> hi,
               std::optional<int64_t> step) {
  if (object.is(Type::Str)) {
    std::vector<std::string> chars = utf8Chars(object.as<StrObj>()->str);
    SliceBounds b = resolveSlice(lo, hi, step, static_cast<int64_t>(chars.size()));
    std::string out;
    for (int64_t i = 0, k = b.start; i < b.length; ++i, k += b.step) out += chars[k];
    return makeStr(std::move(out));
  }
  if (object.is(Type::List) || object.is(Type::Tuple)) {
    const auto& items =
        object.is(Type::List) ? object.as<ListObj>()->items : object.as<TupleObj>()->items;
    SliceBounds b = resolveSlice(lo, hi, step, static_cast<int64_t>(items.size()));
    std::vector<Value> out;
    out.reserve(b.length);
    for (int64_t i = 0, k = b.start; i < b.length; ++i, k += b.step) out.push_back(items[k]);
    return object.is(Type::List) ? makeList(std::move(out)) : makeTuple(std::move(out));
  }
  if (object.is(Type::Shape)) return tensorHooks().shapeSlice(object, lo, hi, step);
  throwUserError(ErrorKind::TypeError,
                 "'" + std::string(typeName(object.type())) + "' cannot be sliced");
}

void setIndex(const Value& object, const Value& index, Value v) {
  if (index.is(Type::SymInt))
    return setIndex(object, Value::integer(concreteInt(index)), std::move(v));
  if (object.is(Type::List)) {
    if (!index.is(Type::Int))
      throwUserError(ErrorKind::TypeError,
                     "list indices must be int, not '" + std::string(typeName(index.type())) + "'");
    checkMutableWhileTracing(object.as<ListObj>()->traceEpoch, "list");
    auto& items = object.as<ListObj>()->items;
    items[normalizeIndex(index.asInt(), static_cast<int64_t>(items.size()), "list")] = std::move(v);
    return;
  }
  if (object.is(Type::Dict)) {
    if (!index.is(Type::Str))
      throwUserError(ErrorKind::TypeError,
                     "dict keys are str, not '" + std::string(typeName(index.type())) + "'");
    checkMutableWhileTracing(object.as<DictObj>()->traceEpoch, "dict");
    object.as<DictObj>()->set(index.as<StrObj>()->str, std::move(v));
    return;
  }
  if (object.is(Type::Tensor))
    throwUserError(ErrorKind::TypeError,
                   "tensors are immutable: build a new one (e.g. with where(mask, v, x))");
  throwUserError(ErrorKind::TypeError,
                 "'" + std::string(typeName(object.type())) + "' does not support item assignment");
}

}  // namespace tessel::interp
