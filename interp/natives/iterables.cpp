// any/all/map/filter/reversed on lists, tuples, strings, ranges and dicts; ord/chr; the math
// module. Tessel has no lazy iterators: map, filter and reversed build lists.
#include "interp/natives/iterables.h"

#include <cmath>
#include <numbers>

#include "interp/eval/session.h"
#include "interp/values/native_args.h"
#include "interp/tensors/tensor_bridge.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"

namespace tessel::interp {
namespace {

// The items of any iterable a loop takes (strings by character, dicts by key).
std::vector<Value> itemsOf(const Value& v, const char* fn) {
  if (v.is(Type::Str)) {
    std::vector<Value> out;
    for (auto& ch : utf8Chars(v.as<StrObj>()->str)) out.push_back(makeStr(ch));
    return out;
  }
  if (v.is(Type::Dict)) {
    std::vector<Value> out;
    for (auto& [k, x] : v.as<DictObj>()->entries) out.push_back(makeStr(k));
    return out;
  }
  return iterate(v, std::string(fn) + "()");
}

// any(xs) / all(xs) of an iterable; of a tensor, the tensor reductions.
template <bool All>
Value anyAll(Interpreter& interp, CallArgs& a) {
  const char* name = All ? "all" : "any";
  if (!a.positional.empty() && a.positional[0].is(Type::Tensor))
    return tensorReduceBuiltin(interp, name, a);
  ArgBinder b(name, a, {"items"}, 1);
  for (const Value& v : itemsOf(b.at(0), name))
    if (truthy(v) != All) return Value::boolean(!All);
  return Value::boolean(All);
}

Value nativeMap(Interpreter& interp, CallArgs& a) {
  ArgBinder b("map", a, {"fn", "items"}, 2);
  std::vector<Value> out;
  for (Value v : itemsOf(b.at(1), "map")) out.push_back(interp.call(b.at(0), {&v, 1}, a.site));
  return makeList(std::move(out));
}

// filter(fn, xs); filter(none, xs) keeps the true items.
Value nativeFilter(Interpreter& interp, CallArgs& a) {
  ArgBinder b("filter", a, {"fn", "items"}, 2);
  std::vector<Value> out;
  for (const Value& v : itemsOf(b.at(1), "filter")) {
    Value arg = v;
    if (truthy(b.at(0).is(Type::None) ? v : interp.call(b.at(0), {&arg, 1}, a.site)))
      out.push_back(v);
  }
  return makeList(std::move(out));
}

Value nativeReversed(Interpreter&, CallArgs& a) {
  ArgBinder b("reversed", a, {"items"}, 1);
  std::vector<Value> items = itemsOf(b.at(0), "reversed");
  return makeList(std::vector<Value>(items.rbegin(), items.rend()));
}

Value nativeOrd(Interpreter&, CallArgs& a) {
  ArgBinder b("ord", a, {"char"}, 1);
  std::vector<std::string> chars = utf8Chars(b.toStr(0));
  if (chars.size() != 1)
    throwUserError(ErrorKind::TypeError, "ord() expected one character, got a string of length " +
                                             std::to_string(chars.size()));
  const auto* s = reinterpret_cast<const unsigned char*>(chars[0].data());
  size_t n = chars[0].size();
  uint32_t cp = n == 1 ? s[0]
                : n == 2 ? (s[0] & 0x1Fu) << 6 | (s[1] & 0x3Fu)
                : n == 3 ? (s[0] & 0x0Fu) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu)
                         : (s[0] & 0x07u) << 18 | (s[1] & 0x3Fu) << 12 | (s[2] & 0x3Fu) << 6 |
                               (s[3] & 0x3Fu);
  return Value::integer(cp);
}

Value nativeChr(Interpreter&, CallArgs& a) {
  ArgBinder b("chr", a, {"code"}, 1);
  int64_t cp = b.toInt(0);
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    throwUserError(ErrorKind::ValueError, "chr() arg not in range(0x110000): " + std::to_string(cp));
  std::string out;
  auto c = static_cast<uint32_t>(cp);
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return makeStr(std::move(out));
}

// The math module's functions of one number: what each gives (a float, an int, a bool).
struct MathFn {
  const char* name;
  double (*f)(double);
  char gives;  // 'f', 'i' or 'b'
  shapes::FloatOp sym = shapes::FloatOp::Const;  // 'f': the op on a symbolic float
};
const MathFn kMath[] = {
    {"sqrt", [](double x) { return std::sqrt(x); }, 'f', shapes::FloatOp::Sqrt},
    {"exp", [](double x) { return std::exp(x); }, 'f', shapes::FloatOp::Exp},
    {"log", [](double x) { return x == 0 ? -INFINITY : std::log(x); }, 'f', shapes::FloatOp::Log},
    {"sin", [](double x) { return std::sin(x); }, 'f', shapes::FloatOp::Sin},
    {"cos", [](double x) { return std::cos(x); }, 'f', shapes::FloatOp::Cos},
    {"tanh", [](double x) { return std::tanh(x); }, 'f', shapes::FloatOp::Tanh},
    {"floor", [](double x) { return std::floor(x); }, 'i'},
    {"ceil", [](double x) { return std::ceil(x); }, 'i'},
    {"isnan", [](double x) { return std::isnan(x) ? 1.0 : 0.0; }, 'b'},
    {"isinf", [](double x) { return std::isinf(x) ? 1.0 : 0.0; }, 'b'},
    {"isfinite", [](double x) { return std::isfinite(x) ? 1.0 : 0.0; }, 'b'},
};

// math.f(x) for a number x, as Python's math module gives it; the built-in's bound value is the
// function's index in kMath.
Value mathCall(Interpreter&, CallArgs& a) {
  const MathFn& fn = kMath[a.self.asInt()];
  ArgBinder b(fn.name, a, {"x"}, 1);
  if (b.at(0).is(Type::Tensor))
    throwUserError(ErrorKind::TypeError, std::string("math.") + fn.name +
                                             " takes numbers; for tensors use " + fn.name + "(x)");
  // A size or a float of sizes stays symbolic (Note [Symbolic floats]).
  const Value& v = b.at(0);
  if (fn.gives == 'f' && (v.is(Type::SymFloat) || v.is(Type::SymInt)))
    return symUnaryFloat(fn.sym, v);
  double x = b.toFloat(0);
  double r = fn.f(x);
  if (fn.gives == 'b') return Value::boolean(r != 0);
  if (fn.gives == 'i') {
    if (!std::isfinite(r))
      throwUserError(ErrorKind::ValueError, "cannot convert " + formatFloat(x) + " to an int");
    return Value::integer(static_cast<int64_t>(r));
  }
  if (std::isnan(r) && !std::isnan(x))
    throwUserError(ErrorKind::ValueError, "math domain error (" + formatFloat(x) + ")");
  return Value::real(r);
}

}  // namespace

void registerIterableBuiltins(ModuleObj& prelude) {
  static const std::pair<const char*, NativeFn> kBuiltins[] = {
      {"any", anyAll<false>},    {"all", anyAll<true>}, {"map", nativeMap},
      {"filter", nativeFilter},  {"reversed", nativeReversed},
      {"ord", nativeOrd},        {"chr", nativeChr},
  };
  for (auto& [name, fn] : kBuiltins) prelude.define(name, Value::object(new BuiltinObj(name, fn)));
  prelude.define("math", makeMathModule());
}

Value makeMathModule() {
  auto* m = new ModuleObj("math");
  for (size_t i = 0; i < std::size(kMath); ++i)
    m->define(kMath[i].name,
              Value::object(new BuiltinObj(std::string("math.") + kMath[i].name, mathCall,
                                           Value::integer(static_cast<int64_t>(i)))));
  m->define("pi", Value::real(std::numbers::pi));
  m->define("e", Value::real(std::numbers::e));
  m->define("inf", Value::real(INFINITY));
  m->define("nan", Value::real(NAN));
  return Value::object(m);
}

}  // namespace tessel::interp
