// Printing values.
#include "interp/values/printer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "interp/syntax/ast.h"
#include "interp/values/graph_break.h"
#include "interp/values/native_object.h"
#include "interp/values/objects.h"
#include "interp/values/sym_value.h"
#include "interp/values/tensor_hooks.h"
#include "shapes/float_repr.h"

namespace tessel::interp {

std::string formatFloat(double d) {
  return shapes::floatRepr(d);
}

std::string quoteString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::vector<std::string> utf8Chars(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

namespace {

void appendRepr(std::string& out, const Value& v, int depth);

void appendItems(std::string& out, const std::vector<Value>& items, int depth) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    appendRepr(out, items[i], depth + 1);
  }
}

void appendRepr(std::string& out, const Value& v, int depth) {
  // A container that (indirectly) contains itself prints its inner occurrences as [...] or
  // {...}, like Python; the depth bound keeps absurdly deep (acyclic) nesting printable.
  thread_local std::vector<const Object*> active;
  bool container = v.is(Type::List) || v.is(Type::Dict) || v.is(Type::Tuple);
  if (container) {
    bool cycle = std::find(active.begin(), active.end(), v.asObject()) != active.end();
    if (cycle || depth > 1000) {
      out += v.is(Type::Dict) ? "{...}" : v.is(Type::List) ? "[...]" : "(...)";
      return;
    }
    active.push_back(v.asObject());
  }
  struct Pop {
    bool on;
    ~Pop() {
      if (on) active.pop_back();
    }
  } pop{container};
  switch (v.type()) {
    case Type::Undefined:
      out += "<undefined>";
      break;
    case Type::None:
      out += "none";
      break;
    case Type::Bool:
      out += v.asBool() ? "true" : "false";
      break;
    case Type::Int:
      out += std::to_string(v.asInt());
      break;
    case Type::Float:
      out += formatFloat(v.asFloat());
      break;
    case Type::Str:
      out += quoteString(v.as<StrObj>()->str);
      break;
    case Type::List:
      out += "[";
      appendItems(out, v.as<ListObj>()->items, depth);
      out += "]";
      break;
    case Type::Tuple: {
      const auto& items = v.as<TupleObj>()->items;
      out += "(";
      appendItems(out, items, depth);
      out += items.size() == 1 ? ",)" : ")";
      break;
    }
    case Type::Dict: {
      out += "{";
      bool first = true;
      for (auto& [k, val] : v.as<DictObj>()->entries) {
        if (!first) out += ", ";
        first = false;
        out += quoteString(k) + ": ";
        appendRepr(out, val, depth + 1);
      }
      out += "}";
      break;
    }
    case Type::Range: {
      auto* r = v.as<RangeObj>();
      out += "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop);
      if (r->step != 1) out += ", " + std::to_string(r->step);
      out += ")";
      break;
    }
    case Type::Function:
      out += "<fn " + v.as<FunctionObj>()->proto->name + ">";
      break;
    case Type::Builtin:
      out += (v.as<BuiltinObj>()->self.is(Type::Compiled) ? "<compiled fn " : "<built-in fn ") +
             v.as<BuiltinObj>()->name + ">";
      break;
    case Type::Compiled:
      out += "<frame>";
      break;
    case Type::Error: {
      const ScriptError& e = v.as<ErrorObj>()->error;
      out += std::string(errorKindName(e.kind())) + "(" + quoteString(e.what()) + ")";
      break;
    }
    case Type::Module:
      out += "<module " + v.as<ModuleObj>()->name + ">";
      break;
    case Type::Cell:
      out += "<cell>";
      break;
    case Type::Native:
      out += v.as<NativeObj>()->repr();
      break;
    case Type::SymInt:
      // A traced size as text would be its symbol ("s0"), which no user may see.
      if (tracing() && !v.as<SymIntObj>()->segment)
        graphBreak(ErrorKind::DataDependentError, "a traced size as text needs its value");
      if (const auto& seg = v.as<SymIntObj>()->segment)
        out += boundedSizeText(v.as<SymIntObj>()->value, seg);
      else
        out += v.as<SymIntObj>()->value.toString();
      break;
    case Type::SymFloat:
      if (tracing()) graphBreak(ErrorKind::DataDependentError, "a traced float as text needs its value");
      out += v.as<SymFloatObj>()->value.toString();
      break;
    case Type::SymBool:
      if (tracing()) graphBreak(ErrorKind::DataDependentError, "a traced condition as text needs its value");
      out += v.as<SymBoolObj>()->value.toString();
      break;
    case Type::Tensor:
    case Type::Shape:
    case Type::DType:
      out += tensorHooks().repr(v);
      break;
  }
}

}  // namespace

std::string repr(const Value& v) {
  std::string out;
  appendRepr(out, v, 0);
  return out;
}

std::string str(const Value& v) {
  if (v.is(Type::Str)) return v.as<StrObj>()->str;
  if (v.is(Type::Error)) return v.as<ErrorObj>()->error.what();  // its message, as in Python
  return repr(v);
}

std::string_view typeName(Type t) {
  switch (t) {
#define TESSEL_X(e, name) \
  case Type::e:           \
    return name;
    TESSEL_VALUE_TYPES(TESSEL_X)
#undef TESSEL_X
  }
  return "?";
}

}  // namespace tessel::interp
