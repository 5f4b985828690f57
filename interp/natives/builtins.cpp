// Core built-ins: printing, conversions, sequences, numbers and time.
#include "interp/natives/builtins.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "interp/eval/evaluator.h"
#include "interp/values/graph_break.h"
#include "interp/eval/session.h"
#include "interp/natives/errors.h"
#include "interp/natives/help.h"
#include "interp/natives/iterables.h"
#include "interp/values/native_args.h"
#include "interp/syntax/suggest.h"
#include "interp/tensors/tensor_bridge.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/format.h"
#include "interp/values/native_object.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/sorting.h"
#include "interp/values/sym_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

// stdout and stderr are modules with write() and flush(): what print's `file` takes. The
// module's `native` field tells them apart (no new value type for two objects).
char kStdoutTag, kStderrTag;

std::ostream* streamOf(Interpreter& interp, const Value& v) {
  if (v.is(Type::Module)) {
    void* tag = v.as<ModuleObj>()->native;
    if (tag == &kStdoutTag) return &interp.out();
    if (tag == &kStderrTag) return &interp.err();
  }
  return nullptr;
}

Value builtinPrint(Interpreter& interp, CallArgs& a) {
  // Traced, print would run once, at trace time, with symbolic values: it breaks the graph
  // and runs eagerly at every call.
  graphBreak(ErrorKind::ValueError, "print() is a side effect");
  std::string sep = " ", end = "\n";
  std::ostream* stream = &interp.out();
  for (size_t k = 0; k < a.kwNames.size(); ++k) {
    const std::string& kw = a.kwNames[k];
    if (kw == "sep") {
      sep = expectStr(a.kwValues[k], "print(): sep");
    } else if (kw == "end") {
      end = expectStr(a.kwValues[k], "print(): end");
    } else if (kw == "file") {
      if (a.kwValues[k].is(Type::None)) continue;
      stream = streamOf(interp, a.kwValues[k]);
      if (!stream)
        throwUserError(ErrorKind::TypeError, "print(): file must be stdout or stderr, not " +
                                                 std::string(typeName(a.kwValues[k].type())));
    } else if (kw == "flush") {
      // Every print flushes (a script's output interleaves with its errors and with other
      // ranks'), so the flag only has to be a bool.
      if (!a.kwValues[k].is(Type::Bool))
        throwUserError(ErrorKind::TypeError, "print(): flush must be a bool, not " +
                                                 std::string(typeName(a.kwValues[k].type())));
    } else {
      throwUserError(ErrorKind::TypeError, "print() got an unexpected keyword argument '" + kw +
                                               "'" +
                                               didYouMean(kw, {"sep", "end", "file", "flush"}));
    }
  }
  std::string line;
  for (size_t i = 0; i < a.positional.size(); ++i) {
    if (i) line += sep;
    line += str(a.positional[i]);
  }
  *stream << line << end;
  stream->flush();
  return Value::none();
}

// A stream's methods hold which stream they write to as `self` (0 stdout, 1 stderr) rather
// than the module itself, which would make a reference cycle.
std::ostream& streamFor(Interpreter& interp, const Value& self) {
  return self.asInt() == 0 ? interp.out() : interp.err();
}

Value streamWrite(Interpreter& interp, CallArgs& a) {
  ArgBinder b("write", a, {"text"}, 1);
  std::ostream& stream = streamFor(interp, a.self);
  stream << b.toStr(0);
  stream.flush();
  return Value::none();
}

Value streamFlush(Interpreter& interp, CallArgs& a) {
  ArgBinder b("flush", a, {}, 0);
  streamFor(interp, a.self).flush();
  return Value::none();
}

Value makeStreamModule(const char* name, char* tag, int64_t index) {
  auto* m = new ModuleObj(name);
  m->native = tag;
  m->define("write", Value::object(new BuiltinObj(std::string(name) + ".write", streamWrite,
                                                  Value::integer(index))));
  m->define("flush", Value::object(new BuiltinObj(std::string(name) + ".flush", streamFlush,
                                                  Value::integer(index))));
  return Value::object(m);
}

Value builtinLen(Interpreter&, CallArgs& a) {
  ArgBinder b("len", a, {"value"}, 1);
  const Value& v = b.at(0);
  switch (v.type()) {
    case Type::Str:
      return Value::integer(static_cast<int64_t>(utf8Chars(v.as<StrObj>()->str).size()));
    case Type::List:
      return Value::integer(static_cast<int64_t>(v.as<ListObj>()->items.size()));
    case Type::Tuple:
      return Value::integer(static_cast<int64_t>(v.as<TupleObj>()->items.size()));
    case Type::Dict:
      return Value::integer(static_cast<int64_t>(v.as<DictObj>()->entries.size()));
    case Type::Range:
      return Value::integer(v.as<RangeObj>()->size());
    case Type::Tensor:
    case Type::Shape:
      return Value::integer(shapeLength(v));
    default:
      throwUserError(ErrorKind::TypeError,
                     "object of type '" + std::string(typeName(v.type())) + "' has no len()");
  }
}

Value builtinRange(Interpreter&, CallArgs& a) {
  ArgBinder b("range", a, {"start", "stop", "step"}, 1);
  int64_t start = 0, stop, step = 1;
  if (b.has(1)) {
    start = b.toInt(0);
    stop = b.toInt(1);
    step = b.intOr(2, 1);
  } else {
    stop = b.toInt(0);
  }
  if (step == 0) throwUserError(ErrorKind::ValueError, "range() step must not be zero");
  return Value::object(new RangeObj(start, stop, step));
}

Value builtinStr(Interpreter&, CallArgs& a) {
  ArgBinder b("str", a, {"value"}, 0);
  return b.has(0) ? makeStr(str(b.at(0))) : makeStr("");
}

Value builtinInt(Interpreter&, CallArgs& a) {
  ArgBinder b("int", a, {"value"}, 0);
  if (!b.has(0)) return Value::integer(0);
  const Value& v = b.at(0);
  switch (v.type()) {
    case Type::Int:
      return v;
    case Type::Bool:
      return Value::integer(v.asBool());
    case Type::Float: {
      double d = v.asFloat();
      if (std::isnan(d) || std::isinf(d))
        throwUserError(ErrorKind::ValueError, "cannot convert " + formatFloat(d) + " to int");
      if (d >= 9.223372036854775807e18 || d < -9.223372036854775808e18)
        throwUserError(ErrorKind::OverflowError,
                       "float " + formatFloat(d) + " does not fit in an int");
      return Value::integer(static_cast<int64_t>(std::trunc(d)));
    }
    case Type::Str: {
      std::string s = v.as<StrObj>()->str;
      size_t i = s.find_first_not_of(" \t\n"), j = s.find_last_not_of(" \t\n");
      std::string t = i == std::string::npos ? "" : s.substr(i, j - i + 1);
      try {
        size_t used = 0;
        long long r = std::stoll(t, &used, 10);
        if (used == t.size()) return Value::integer(r);
      } catch (const std::out_of_range&) {
        throwUserError(ErrorKind::OverflowError,
                       "int(): " + quoteString(s) + " does not fit in 64 bits");
      } catch (...) {
      }
      throwUserError(ErrorKind::ValueError, "invalid literal for int(): " + quoteString(s));
    }
    case Type::Tensor:
      return tensorItem(v, /*asInt=*/true);
    case Type::SymInt:  // an int already: stays symbolic; a tpu size gives its real value
      if (v.as<SymIntObj>()->segment) return Value::integer(concreteInt(v));
      return v;
    case Type::SymFloat:  // truncation has no integer expression: the float's value
      return Value::integer(static_cast<int64_t>(std::trunc(concreteFloat(v))));
    default:
      throwUserError(ErrorKind::TypeError,
                     "int() cannot convert a '" + std::string(typeName(v.type())) + "'");
  }
}

Value builtinFloat(Interpreter&, CallArgs& a) {
  ArgBinder b("float", a, {"value"}, 0);
  if (!b.has(0)) return Value::real(0.0);
  const Value& v = b.at(0);
  switch (v.type()) {
    case Type::Float:
      return v;
    case Type::Int:
      return Value::real(static_cast<double>(v.asInt()));
    case Type::Bool:
      return Value::real(v.asBool());
    case Type::Str: {
      std::string s = v.as<StrObj>()->str;
      size_t i = s.find_first_not_of(" \t\n"), j = s.find_last_not_of(" \t\n");
      std::string t = i == std::string::npos ? "" : s.substr(i, j - i + 1);
      if (t == "inf" || t == "+inf") return Value::real(INFINITY);
      if (t == "-inf") return Value::real(-INFINITY);
      if (t == "nan") return Value::real(NAN);
      try {
        size_t used = 0;
        double d = std::stod(t, &used);
        if (used == t.size()) return Value::real(d);
      } catch (...) {
      }
      throwUserError(ErrorKind::ValueError, "could not convert string to float: " + quoteString(s));
    }
    case Type::Tensor:
      return tensorItem(v, /*asInt=*/false);
    case Type::SymInt:  // a size as a float stays symbolic (Note [Symbolic floats])
    case Type::SymFloat:
      return makeSymFloat(toSymFloat(v));
    default:
      throwUserError(ErrorKind::TypeError,
                     "float() cannot convert a '" + std::string(typeName(v.type())) + "'");
  }
}

Value builtinBool(Interpreter&, CallArgs& a) {
  ArgBinder b("bool", a, {"value"}, 0);
  return Value::boolean(b.has(0) && truthy(b.at(0)));
}

// min/max of two or more numbers of which one is symbolic, with no key: an expression, no
// guard (PyTorch's sym_min/sym_max), so `topk(x, min(1000, n))` of a data-dependent n asks no
// guard and a tpu size stays bounded; floats of sizes give a symbolic float.
std::optional<Value> symbolicExtremum(std::span<const Value> args, bool wantMax) {
  if (args.size() < 2) return std::nullopt;
  bool symbolic = false, floats = false;
  std::shared_ptr<backends::tpu::Segment> segment;
  for (const Value& v : args) {
    if (!isScalarLike(v) || v.is(Type::Bool)) return std::nullopt;
    if (v.is(Type::SymInt)) {
      symbolic = true;
      if (!segment) segment = v.as<SymIntObj>()->segment;
    }
    symbolic |= v.is(Type::SymFloat);
    floats |= v.is(Type::Float) || v.is(Type::SymFloat);
  }
  if (!symbolic) return std::nullopt;
  if (floats) {
    if (segment) return std::nullopt;  // a tpu size among floats: its real value
    // Python returns the winning item itself: an int stays an int only if it wins, which a
    // symbolic expression cannot say; mixed min/max is a float here.
    shapes::SymFloat r = toSymFloat(args[0]);
    for (size_t i = 1; i < args.size(); ++i)
      r = shapes::binary(wantMax ? shapes::FloatOp::Max : shapes::FloatOp::Min, r,
                         toSymFloat(args[i]));
    return makeSymFloat(r);
  }
  shapes::SymInt r = toSymInt(args[0]);
  for (size_t i = 1; i < args.size(); ++i)
    r = wantMax ? shapes::max(r, toSymInt(args[i])) : shapes::min(r, toSymInt(args[i]));
  return segment ? makeBoundedSize(r, segment) : makeSymInt(r);
}

// min/max over arguments or one iterable, with an optional key, like Python.
Value extremum(Interpreter& interp, CallArgs& a, const char* name, bool wantMax) {
  if (a.positional.size() == 1 && a.positional[0].is(Type::Tensor) && a.kwNames.empty())
    return tensorReduceBuiltin(interp, name, a);
  // max(a, b) with a tensor among the two is torch.max(a, b): the elementwise maximum.
  if (a.positional.size() == 2 && a.kwNames.empty() &&
      (a.positional[0].is(Type::Tensor) || a.positional[1].is(Type::Tensor)))
    return tensorReduceBuiltin(interp, wantMax ? "maximum" : "minimum", a);
  Value key = Value::none();
  Value dflt = Value::undefined();
  for (size_t k = 0; k < a.kwNames.size(); ++k) {
    if (a.kwNames[k] == "key")
      key = a.kwValues[k];
    else if (a.kwNames[k] == "default")
      dflt = a.kwValues[k];
    else if (a.positional.size() == 1 && a.positional[0].is(Type::Tensor))
      return tensorReduceBuiltin(interp, name, a);
    else
      throwUserError(
          ErrorKind::TypeError,
          std::string(name) + "() got an unexpected keyword argument '" + a.kwNames[k] + "'");
  }
  // min(n, 1000) of sizes stays an expression (topk(x, min(k, n))), as do floats of them;
  // with a key or a default the items are compared.
  if (key.is(Type::None) && dflt.is(Type::Undefined))
    if (auto r = symbolicExtremum(a.positional, wantMax)) return *r;
  std::vector<Value> items;
  if (a.positional.size() == 1)
    items = iterate(a.positional[0], std::string(name) + "()");
  else
    items.assign(a.positional.begin(), a.positional.end());
  if (items.empty()) {
    if (!dflt.is(Type::Undefined)) return dflt;
    throwUserError(ErrorKind::ValueError, std::string(name) + "() of an empty sequence");
  }
  size_t best = 0;
  Value bestKey;
  for (size_t i = 0; i < items.size(); ++i) {
    Value k = items[i];
    if (!key.is(Type::None)) {
      Value arg[] = {items[i]};
      k = interp.call(key, arg, a.site);
    }
    if (i == 0 || compareValues(wantMax ? CompareOp::Gt : CompareOp::Lt, k, bestKey)) {
      best = i;
      bestKey = k;
    }
  }
  return items[best];
}
Value builtinMin(Interpreter& interp, CallArgs& a) {
  return extremum(interp, a, "min", false);
}
Value builtinMax(Interpreter& interp, CallArgs& a) {
  return extremum(interp, a, "max", true);
}

Value builtinAbs(Interpreter& interp, CallArgs& a) {
  ArgBinder b("abs", a, {"value"}, 1);
  const Value& v = b.at(0);
  if (v.is(Type::Int)) return Value::integer(v.asInt() < 0 ? checkedSub(0, v.asInt()) : v.asInt());
  if (v.is(Type::Float)) return Value::real(std::fabs(v.asFloat()));
  if (v.is(Type::Bool)) return Value::integer(v.asBool());
  if (v.is(Type::Tensor)) return tensorReduceBuiltin(interp, "abs", a);
  if (v.is(Type::SymInt)) {  // |n| = max(n, -n): an expression, no guard
    if (v.as<SymIntObj>()->segment) {  // a tpu size: its real value
      const int64_t x = concreteInt(v);
      return Value::integer(x < 0 ? checkedSub(0, x) : x);
    }
    const shapes::SymInt x = toSymInt(v);
    return makeSymInt(shapes::max(x, shapes::SymInt(0) - x));
  }
  if (v.is(Type::SymFloat)) return symUnaryFloat(shapes::FloatOp::Abs, v);
  throwUserError(ErrorKind::TypeError,
                 "bad operand type for abs(): '" + std::string(typeName(v.type())) + "'");
}

// torch.round(x, decimals = n): x scaled by 10^n, rounded half to even and scaled back, as
// PyTorch computes it (dividing by 10^-n for negative n, so round(1250.0, -2) is exactly 1200).
// Integer tensors with decimals are a TypeError, as in PyTorch.
Value roundTensor(Interpreter& interp, const Value& x, const ArgBinder& b) {
  Value only[] = {x};
  CallArgs one{only, {}, {}, Value(), {}};
  const int64_t decimals = b.has(1) && !b.at(1).is(Type::None) ? b.toInt(1) : 0;
  if (decimals == 0) return tensorReduceBuiltin(interp, "round", one);
  if (const DType dtype = dtypeOf(x); dtype != DType::F32)
    throwUserError(ErrorKind::TypeError, "round(): decimals need a float tensor, got " +
                                             std::string(shapes::name(dtype)) +
                                             " (as torch.round)");
  // Past f32's exponent range the scale would be inf: every f32 already has fewer decimals
  // (tensors are immutable, so x itself is the result), and every f32 rounds to 0 at a
  // negative power that large.
  if (decimals > 38) return x;
  if (decimals < -38) return tensorBinary(BinaryOp::Mul, x, Value::real(0.0));
  const Value scale = Value::real(std::pow(10.0, static_cast<double>(std::abs(decimals))));
  const bool up = decimals > 0;
  only[0] = tensorBinary(up ? BinaryOp::Mul : BinaryOp::Div, x, scale);
  return tensorBinary(up ? BinaryOp::Div : BinaryOp::Mul, tensorReduceBuiltin(interp, "round", one),
                      scale);
}

Value builtinRound(Interpreter& interp, CallArgs& a) {
  ArgBinder b("round", a, {"value", "ndigits"}, 1);
  const Value& v = b.at(0);
  if (v.is(Type::Tensor)) return roundTensor(interp, v, b);
  if (v.is(Type::Int) || v.is(Type::Bool)) return Value::integer(b.toInt(0));
  // round(n) of a size is the size (no guard); round of a symbolic float needs its value.
  if (v.is(Type::SymInt) && !v.as<SymIntObj>()->segment &&
      (!b.has(1) || b.at(1).is(Type::None)))
    return v;
  double x = b.toFloat(0);
  if (!b.has(1) || b.at(1).is(Type::None)) {
    if (std::isnan(x) || std::isinf(x))
      throwUserError(ErrorKind::ValueError, "cannot round " + formatFloat(x) + " to an int");
    return Value::integer(static_cast<int64_t>(std::nearbyint(x)));  // half to even, like Python
  }
  int64_t nd = b.toInt(1);
  if (!std::isfinite(x)) return Value::real(x);
  if (nd >= 0 && nd <= 300) {
    // Correctly rounded from the exact binary value, like Python: round(2.675, 2) is 2.67
    // because 2.675 is stored as 2.67499999...
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(nd), x);
    return Value::real(std::strtod(buf, nullptr));
  }
  double scale = std::pow(10.0, static_cast<double>(nd));
  double r = std::nearbyint(x * scale) / scale;
  return Value::real(std::isfinite(r) ? r : x);
}

Value builtinSum(Interpreter& interp, CallArgs& a) {
  if (!a.positional.empty() && a.positional[0].is(Type::Tensor))
    return tensorReduceBuiltin(interp, "sum", a);
  ArgBinder b("sum", a, {"items", "start"}, 1);
  Value total = b.has(1) ? b.at(1) : Value::integer(0);
  for (const Value& v : iterate(b.at(0), "sum()")) total = binaryOp(BinaryOp::Add, total, v);
  return total;
}

Value builtinType(Interpreter&, CallArgs& a) {
  ArgBinder b("type", a, {"value"}, 1);
  return makeStr(kindName(b.at(0)));
}

// isinstance(v, T): T is a type name ("int"), a conversion built-in (int), or a tuple/list of
// those.
bool matchesType(const Value& v, const Value& t) {
  if (t.is(Type::Tuple) || t.is(Type::List)) {
    for (const Value& x : iterate(t, "isinstance()"))
      if (matchesType(v, x)) return true;
    return false;
  }
  std::string name;
  if (t.is(Type::Str))
    name = t.as<StrObj>()->str;
  else if (t.is(Type::Builtin))
    name = t.as<BuiltinObj>()->name;
  else
    throwUserError(ErrorKind::TypeError,
                   "isinstance(): the type must be a type name or a built-in like int");
  if (name == "fn") name = "function";
  return kindName(v) == name;
}
Value builtinIsinstance(Interpreter&, CallArgs& a) {
  ArgBinder b("isinstance", a, {"value", "type"}, 2);
  return Value::boolean(matchesType(b.at(0), b.at(1)));
}

Value builtinList(Interpreter&, CallArgs& a) {
  ArgBinder b("list", a, {"items"}, 0);
  return makeList(b.has(0) ? iterate(b.at(0), "list()") : std::vector<Value>{});
}
Value builtinTuple(Interpreter&, CallArgs& a) {
  ArgBinder b("tuple", a, {"items"}, 0);
  return makeTuple(b.has(0) ? iterate(b.at(0), "tuple()") : std::vector<Value>{});
}
Value builtinDict(Interpreter&, CallArgs& a) {
  Ref<DictObj> d = make<DictObj>();
  if (a.positional.size() > 1)
    throwUserError(ErrorKind::TypeError, "dict() takes at most 1 positional argument");
  if (a.positional.size() == 1) {
    const Value& src = a.positional[0];
    if (src.is(Type::Dict)) {
      for (auto& [k, v] : src.as<DictObj>()->entries) d->set(k, v);
    } else {
      for (const Value& pair : iterate(src, "dict()")) {
        std::vector<Value> kv = iterate(pair, "dict() item");
        if (kv.size() != 2)
          throwUserError(ErrorKind::ValueError, "dict() items must be (key, value) pairs");
        d->set(expectStr(kv[0], "dict key"), kv[1]);
      }
    }
  }
  for (size_t k = 0; k < a.kwNames.size(); ++k) d->set(a.kwNames[k], a.kwValues[k]);
  return d.value();
}

Value builtinSorted(Interpreter& interp, CallArgs& a) {
  ArgBinder b("sorted", a, {"items", "key", "reverse"}, 1);
  std::vector<Value> items = iterate(b.at(0), "sorted()");
  Value key = b.has(1) ? b.at(1) : Value::none();
  SortKey by;  // empty: sort by the items themselves
  if (!key.is(Type::None))
    by = [&](const Value& v) {
      Value arg[] = {v};
      return interp.call(key, arg, a.site);
    };
  sortValues(items, by, b.has(2) && b.toBool(2));
  return makeList(std::move(items));
}

Value builtinEnumerate(Interpreter&, CallArgs& a) {
  ArgBinder b("enumerate", a, {"items", "start"}, 1);
  int64_t i = b.intOr(1, 0);
  std::vector<Value> out;
  for (Value& v : iterate(b.at(0), "enumerate()"))
    out.push_back(makeTuple({Value::integer(i++), v}));
  return makeList(std::move(out));
}

Value builtinZip(Interpreter&, CallArgs& a) {
  if (!a.kwNames.empty()) throwUserError(ErrorKind::TypeError, "zip() takes no keyword arguments");
  std::vector<std::vector<Value>> seqs;
  size_t n = SIZE_MAX;
  for (Value& v : a.positional) {
    seqs.push_back(iterate(v, "zip()"));
    n = std::min(n, seqs.back().size());
  }
  if (seqs.empty()) n = 0;
  std::vector<Value> out;
  for (size_t i = 0; i < n; ++i) {
    std::vector<Value> row;
    for (auto& s : seqs) row.push_back(s[i]);
    out.push_back(makeTuple(std::move(row)));
  }
  return makeList(std::move(out));
}

Value builtinNowMs(Interpreter&, CallArgs& a) {
  ArgBinder b("now_ms", a, {}, 0);
  auto t = std::chrono::steady_clock::now().time_since_epoch();
  return Value::real(std::chrono::duration<double, std::milli>(t).count());
}

// env(name, default = none): an environment variable, so benchmark and example scripts can be
// configured from the shell.
Value builtinEnv(Interpreter&, CallArgs& a) {
  ArgBinder b("env", a, {"name", "default"}, 1);
  if (!b.at(0).is(Type::Str))
    throwUserError(ErrorKind::TypeError, "env(): name must be a str, not '" +
                                             std::string(typeName(b.at(0).type())) + "'");
  if (const char* v = std::getenv(b.at(0).as<StrObj>()->str.c_str())) return makeStr(v);
  return b.has(1) ? b.at(1) : Value::none();
}

Value builtinExit(Interpreter&, CallArgs& a) {
  ArgBinder b("exit", a, {"status"}, 0);
  throw ExitRequest{static_cast<int>(b.intOr(0, 0))};
}

// format(value, spec = ""): the value as an f-string field with that spec shows it.
Value builtinFormat(Interpreter&, CallArgs& a) {
  ArgBinder b("format", a, {"value", "spec"}, 1);
  return makeStr(formatValue(b.at(0), b.has(1) ? b.toStr(1) : ""));
}

Value builtinRepr(Interpreter&, CallArgs& a) {
  ArgBinder b("repr", a, {"value"}, 1);
  return makeStr(repr(b.at(0)));
}

}  // namespace

void registerCoreBuiltins(ModuleObj& prelude) {
  static const std::pair<const char*, NativeFn> kBuiltins[] = {
      {"print", builtinPrint},
      {"len", builtinLen},
      {"range", builtinRange},
      {"str", builtinStr},
      {"int", builtinInt},
      {"float", builtinFloat},
      {"bool", builtinBool},
      {"min", builtinMin},
      {"max", builtinMax},
      {"abs", builtinAbs},
      {"round", builtinRound},
      {"sum", builtinSum},
      {"type", builtinType},
      {"isinstance", builtinIsinstance},
      {"list", builtinList},
      {"tuple", builtinTuple},
      {"dict", builtinDict},
      {"sorted", builtinSorted},
      {"enumerate", builtinEnumerate},
      {"zip", builtinZip},
      {"now_ms", builtinNowMs},
      {"env", builtinEnv},
      {"exit", builtinExit},
      {"format", builtinFormat},
      {"repr", builtinRepr},
  };
  for (auto& [name, fn] : kBuiltins) defineNative(prelude, name, fn);
  prelude.define("stdout", makeStreamModule("stdout", &kStdoutTag, 0));
  prelude.define("stderr", makeStreamModule("stderr", &kStderrTag, 1));
  registerErrorKinds(prelude);
  registerIterableBuiltins(prelude);
  registerHelpBuiltins(prelude);
}

}  // namespace tessel::interp
