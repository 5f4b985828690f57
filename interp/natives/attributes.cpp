// Methods of lists, dicts and strings (language.md), and attribute access for every type.
#include <algorithm>
#include <cctype>

#include "interp/natives/attributes.h"
#include "interp/eval/attribute_hooks.h"
#include "interp/eval/session.h"
#include "interp/natives/errors.h"
#include "interp/values/format.h"
#include "interp/values/native_object.h"
#include "interp/values/native_args.h"
#include "interp/syntax/suggest.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/sorting.h"
#include "interp/tensors/tensor_bridge.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

ListObj* self_list(CallArgs& a) {
  return a.self.as<ListObj>();
}
// The list a mutating method changes (checked against the trace running, if any).
ListObj* mutable_list(CallArgs& a) {
  ListObj* l = a.self.as<ListObj>();
  checkMutableWhileTracing(l->traceEpoch, "list");
  return l;
}

Value listAppend(Interpreter&, CallArgs& a) {
  ArgBinder b("append", a, {"value"}, 1);
  mutable_list(a)->items.push_back(b.at(0));
  return Value::none();
}
Value listPop(Interpreter&, CallArgs& a) {
  ArgBinder b("pop", a, {"index"}, 0);
  auto& items = mutable_list(a)->items;
  if (items.empty()) throwUserError(ErrorKind::IndexError, "pop from empty list");
  int64_t i = normalizeIndex(b.intOr(0, -1), static_cast<int64_t>(items.size()), "pop");
  Value v = items[i];
  items.erase(items.begin() + i);
  return v;
}
Value listExtend(Interpreter&, CallArgs& a) {
  ArgBinder b("extend", a, {"items"}, 1);
  std::vector<Value> more = iterate(b.at(0), "extend()");
  auto& items = mutable_list(a)->items;
  items.insert(items.end(), more.begin(), more.end());
  return Value::none();
}
Value listInsert(Interpreter&, CallArgs& a) {
  ArgBinder b("insert", a, {"index", "value"}, 2);
  auto& items = mutable_list(a)->items;
  int64_t n = static_cast<int64_t>(items.size());
  int64_t i = b.toInt(0);
  if (i < 0) i = std::max<int64_t>(0, i + n);
  items.insert(items.begin() + std::min(i, n), b.at(1));
  return Value::none();
}
Value listIndex(Interpreter&, CallArgs& a) {
  ArgBinder b("index", a, {"value"}, 1);
  auto& items = self_list(a)->items;
  for (size_t i = 0; i < items.size(); ++i)
    if (valuesEqual(items[i], b.at(0))) return Value::integer(static_cast<int64_t>(i));
  throwUserError(ErrorKind::ValueError, repr(b.at(0)) + " is not in list");
}
Value listCount(Interpreter&, CallArgs& a) {
  ArgBinder b("count", a, {"value"}, 1);
  int64_t n = 0;
  for (auto& v : self_list(a)->items) n += valuesEqual(v, b.at(0));
  return Value::integer(n);
}
Value listReverse(Interpreter&, CallArgs& a) {
  ArgBinder b("reverse", a, {}, 0);
  auto& items = mutable_list(a)->items;
  std::reverse(items.begin(), items.end());
  return Value::none();
}
Value listSort(Interpreter& interp, CallArgs& a) {
  ArgBinder b("sort", a, {"key", "reverse"}, 0);
  Value key = b.has(0) ? b.at(0) : Value::none();
  SortKey by;  // empty: sort by the items themselves
  if (!key.is(Type::None))
    by = [&](const Value& v) {
      Value arg[] = {v};
      return interp.call(key, arg, a.site);
    };
  sortValues(mutable_list(a)->items, by, b.has(1) && b.toBool(1));
  return Value::none();
}
Value listCopy(Interpreter&, CallArgs& a) {
  ArgBinder b("copy", a, {}, 0);
  return makeList(self_list(a)->items);
}

DictObj* self_dict(CallArgs& a) {
  return a.self.as<DictObj>();
}

Value dictKeys(Interpreter&, CallArgs& a) {
  ArgBinder b("keys", a, {}, 0);
  std::vector<Value> out;
  for (auto& [k, v] : self_dict(a)->entries) out.push_back(makeStr(k));
  return makeList(std::move(out));
}
Value dictValues(Interpreter&, CallArgs& a) {
  ArgBinder b("values", a, {}, 0);
  std::vector<Value> out;
  for (auto& [k, v] : self_dict(a)->entries) out.push_back(v);
  return makeList(std::move(out));
}
Value dictItems(Interpreter&, CallArgs& a) {
  ArgBinder b("items", a, {}, 0);
  std::vector<Value> out;
  for (auto& [k, v] : self_dict(a)->entries) out.push_back(makeTuple({makeStr(k), v}));
  return makeList(std::move(out));
}
Value dictGet(Interpreter&, CallArgs& a) {
  ArgBinder b("get", a, {"key", "default"}, 1);
  if (!b.at(0).is(Type::Str)) return b.has(1) ? b.at(1) : Value::none();
  Value* v = self_dict(a)->find(b.toStr(0));
  if (v) return *v;
  return b.has(1) ? b.at(1) : Value::none();
}

const std::string& self_str(CallArgs& a) {
  return a.self.as<StrObj>()->str;
}

Value strSplit(Interpreter&, CallArgs& a) {
  ArgBinder b("split", a, {"sep"}, 0);
  const std::string& s = self_str(a);
  std::vector<Value> out;
  if (!b.has(0) || b.at(0).is(Type::None)) {  // runs of whitespace, like Python
    size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      size_t j = i;
      while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j > i) out.push_back(makeStr(s.substr(i, j - i)));
      i = j;
    }
    return makeList(std::move(out));
  }
  const std::string& sep = b.toStr(0);
  if (sep.empty()) throwUserError(ErrorKind::ValueError, "split(): empty separator");
  size_t start = 0, pos;
  while ((pos = s.find(sep, start)) != std::string::npos) {
    out.push_back(makeStr(s.substr(start, pos - start)));
    start = pos + sep.size();
  }
  out.push_back(makeStr(s.substr(start)));
  return makeList(std::move(out));
}
Value strJoin(Interpreter&, CallArgs& a) {
  ArgBinder b("join", a, {"items"}, 1);
  std::string out;
  bool first = true;
  for (const Value& v : iterate(b.at(0), "join()")) {
    if (!first) out += self_str(a);
    first = false;
    out += expectStr(v, "join() item");
  }
  return makeStr(std::move(out));
}
// `"{} {name:>5}".format(x, name = y)` (values/format.h).
Value strFormat(Interpreter&, CallArgs& a) {
  return makeStr(formatTemplate(self_str(a), a.positional, a.kwNames, a.kwValues));
}
Value strUpper(Interpreter&, CallArgs& a) {
  ArgBinder b("upper", a, {}, 0);
  std::string s = self_str(a);
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return makeStr(std::move(s));
}
Value strLower(Interpreter&, CallArgs& a) {
  ArgBinder b("lower", a, {}, 0);
  std::string s = self_str(a);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return makeStr(std::move(s));
}
Value strStartswith(Interpreter&, CallArgs& a) {
  ArgBinder b("startswith", a, {"prefix"}, 1);
  return Value::boolean(self_str(a).starts_with(b.toStr(0)));
}
Value strEndswith(Interpreter&, CallArgs& a) {
  ArgBinder b("endswith", a, {"suffix"}, 1);
  return Value::boolean(self_str(a).ends_with(b.toStr(0)));
}
// strip/lstrip/rstrip(chars = whitespace).
template <bool Left, bool Right>
Value strStripSides(Interpreter&, CallArgs& a) {
  ArgBinder b(Left && Right ? "strip" : Left ? "lstrip" : "rstrip", a, {"chars"}, 0);
  const std::string& s = self_str(a);
  std::string chars = b.has(0) && !b.at(0).is(Type::None) ? b.toStr(0) : " \t\r\n\f\v";
  size_t i = Left ? s.find_first_not_of(chars) : 0;
  if (i == std::string::npos) return makeStr("");
  size_t j = Right ? s.find_last_not_of(chars) : s.size() - 1;
  return makeStr(s.substr(i, j - i + 1));
}
// find(sub) (the code-point index, or -1) and count(sub) (non-overlapping).
Value strFind(Interpreter&, CallArgs& a) {
  ArgBinder b("find", a, {"sub"}, 1);
  const std::string& s = self_str(a);
  size_t at = s.find(b.toStr(0));
  return Value::integer(at == std::string::npos ? -1
                                                : static_cast<int64_t>(utf8Chars(s.substr(0, at)).size()));
}
Value strCount(Interpreter&, CallArgs& a) {
  ArgBinder b("count", a, {"sub"}, 1);
  const std::string& s = self_str(a);
  const std::string& sub = b.toStr(0);
  if (sub.empty()) return Value::integer(static_cast<int64_t>(utf8Chars(s).size()) + 1);
  int64_t n = 0;
  for (size_t at = s.find(sub); at != std::string::npos; at = s.find(sub, at + sub.size())) ++n;
  return Value::integer(n);
}
// isalpha/isdigit/isspace: ASCII classes, false for the empty string, as in Python.
template <int (*Class)(int)>
Value strIs(Interpreter&, CallArgs& a) {
  ArgBinder b("is...", a, {}, 0);
  const std::string& s = self_str(a);
  bool all = !s.empty();
  for (unsigned char c : s) all = all && Class(c);
  return Value::boolean(all);
}
Value strTitle(Interpreter&, CallArgs& a) {
  ArgBinder b("title", a, {}, 0);
  std::string s = self_str(a);
  bool start = true;
  for (char& c : s) {
    auto u = static_cast<unsigned char>(c);
    c = static_cast<char>(start ? std::toupper(u) : std::tolower(u));
    start = !std::isalpha(u);
  }
  return makeStr(std::move(s));
}
// ljust/rjust(width, fill = " ") and zfill(width), counting code points.
template <char Side>
Value strJustify(Interpreter&, CallArgs& a) {
  ArgBinder b(Side == 'l' ? "ljust" : Side == 'r' ? "rjust" : "zfill", a, {"width", "fill"},
              1);
  const std::string& s = self_str(a);
  std::string fill = Side == 'z' ? "0" : b.has(1) ? b.toStr(1) : " ";
  if (utf8Chars(fill).size() != 1)
    throwUserError(ErrorKind::TypeError, "the fill character must be exactly one character");
  int64_t len = static_cast<int64_t>(utf8Chars(s).size());
  std::string pad;
  for (int64_t k = len; k < b.toInt(0); ++k) pad += fill;
  if (Side == 'l') return makeStr(s + pad);
  if (Side == 'z' && !s.empty() && (s[0] == '-' || s[0] == '+'))
    return makeStr(s.substr(0, 1) + pad + s.substr(1));
  return makeStr(pad + s);
}
Value strReplace(Interpreter&, CallArgs& a) {
  ArgBinder b("replace", a, {"old", "new"}, 2);
  const std::string& from = b.toStr(0);
  const std::string& to = b.toStr(1);
  std::string s = self_str(a);
  if (from.empty()) return makeStr(s);
  std::string out;
  size_t start = 0, pos;
  while ((pos = s.find(from, start)) != std::string::npos) {
    out += s.substr(start, pos - start) + to;
    start = pos + from.size();
  }
  return makeStr(out + s.substr(start));
}

struct MethodEntry {
  Type type;
  const char* name;
  NativeFn fn;
};

const MethodEntry kMethods[] = {
    {Type::List, "append", listAppend},   {Type::List, "pop", listPop},
    {Type::List, "extend", listExtend},   {Type::List, "insert", listInsert},
    {Type::List, "index", listIndex},     {Type::List, "count", listCount},
    {Type::List, "reverse", listReverse}, {Type::List, "sort", listSort},
    {Type::List, "copy", listCopy},       {Type::Dict, "keys", dictKeys},
    {Type::Dict, "values", dictValues},   {Type::Dict, "items", dictItems},
    {Type::Dict, "get", dictGet},         {Type::Str, "split", strSplit},
    {Type::Str, "join", strJoin},         {Type::Str, "upper", strUpper},
    {Type::Str, "lower", strLower},       {Type::Str, "startswith", strStartswith},
    {Type::Str, "endswith", strEndswith}, {Type::Str, "strip", strStripSides<true, true>},
    {Type::Str, "replace", strReplace},   {Type::Str, "format", strFormat},
    {Type::Str, "lstrip", strStripSides<true, false>},
    {Type::Str, "rstrip", strStripSides<false, true>},
    {Type::Str, "find", strFind},         {Type::Str, "count", strCount},
    {Type::Str, "isalpha", strIs<::isalpha>},
    {Type::Str, "isdigit", strIs<::isdigit>},
    {Type::Str, "isspace", strIs<::isspace>},
    {Type::Str, "title", strTitle},       {Type::Str, "ljust", strJustify<'l'>},
    {Type::Str, "rjust", strJustify<'r'>}, {Type::Str, "zfill", strJustify<'z'>},
};

}  // namespace

std::vector<std::string> methodNames(Type type) {
  if (type == Type::Tensor) return tensorMethodNames();
  std::vector<std::string> names;
  for (const MethodEntry& m : kMethods)
    if (m.type == type) names.push_back(m.name);
  return names;
}

NativeFn findMethod(Type type, const std::string& name) {
  if (type == Type::Tensor) return findTensorMethod(name);
  for (const MethodEntry& m : kMethods)
    if (m.type == type && name == m.name) return m.fn;
  return nullptr;
}

Value getAttribute(Interpreter& interp, const Value& object, const std::string& name) {
  if (object.is(Type::Module)) {
    auto* m = object.as<ModuleObj>();
    if (Value* v = m->lookup(name)) return *v;
    std::vector<std::string> names;
    for (auto& [n, slot] : m->globalIndex)
      if (!m->globals[slot].is(Type::Undefined)) names.push_back(n);
    std::sort(names.begin(), names.end());
    throwUserError(ErrorKind::NameError, "module '" + m->name + "' has no name '" + name + "'" +
                                             didYouMean(name, names));
  }
  if (object.is(Type::Tensor) || object.is(Type::Shape)) {
    Value v;
    if (tensorProperty(object, name, v)) return v;
  }
  if (object.is(Type::Error)) {
    Value v;
    if (errorAttribute(interp, object, name, v)) return v;
  }
  if (object.is(Type::Native)) {
    const NativeObj* native = object.as<NativeObj>();
    if (NativeFn fn = native->method(name))
      return Value::object(new BuiltinObj(name, fn, object));
    throwUserError(ErrorKind::TypeError, "'" + std::string(native->kind()) +
                                             "' has no attribute '" + name + "'" +
                                             didYouMean(name, native->methodNames()));
  }
  if (NativeFn fn = findMethod(object.type(), name))
    return Value::object(new BuiltinObj(name, fn, object));
  std::vector<std::string> methods;
  for (const MethodEntry& m : kMethods)
    if (m.type == object.type()) methods.push_back(m.name);
  throwUserError(ErrorKind::TypeError, "'" + std::string(typeName(object.type())) +
                                           "' has no attribute '" + name + "'" +
                                           didYouMean(name, methods));
}

void installAttributeHooks() {
  static const bool installed = [] {
    setAttributeHooks(AttributeHooks{findMethod, getAttribute, setAttribute});
    return true;
  }();
  (void)installed;
}

void setAttribute(Interpreter& interp, const Value& object, const std::string& name, Value v) {
  if (object.is(Type::Module)) {
    auto* m = object.as<ModuleObj>();
    if (m->setField) {
      m->setField(*m, name, std::move(v));
      return;
    }
    if (!m->lookup(name))
      throwUserError(ErrorKind::NameError, "module '" + m->name + "' has no name '" + name + "'");
    m->define(name, std::move(v));
    return;
  }
  throwUserError(ErrorKind::TypeError, "cannot set attribute '" + name + "' on a '" +
                                           std::string(typeName(object.type())) + "'");
}

}  // namespace tessel::interp
