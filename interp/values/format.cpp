// The format-spec mini-language (Python's, which f-string users know): parsing a spec, then
// strings, ints and floats with fill, alignment, sign, grouping and precision.
#include "interp/values/format.h"

#include <cmath>
#include <cstdio>

#include "interp/values/graph_break.h"
#include "interp/values/objects.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "interp/values/tensor_hooks.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

struct Spec {
  std::string fill = " ";  // one code point
  char align = 0;          // < > ^ =, or 0 for the type's default
  char sign = '-';
  bool alternate = false;
  int64_t width = -1;
  char grouping = 0;       // , or _
  int64_t precision = -1;
  char type = 0;
};

[[noreturn]] void badSpec(std::string_view spec, const std::string& why) {
  throwUserError(ErrorKind::ValueError,
                 "bad format spec '" + std::string(spec) + "': " + why);
}

bool isAlign(char c) {
  return c == '<' || c == '>' || c == '^' || c == '=';
}

size_t utf8Length(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

Spec parseSpec(std::string_view s) {
  Spec p;
  size_t i = 0;
  size_t first = s.empty() ? 0 : 1;  // the fill may be a multibyte code point
  while (first < s.size() && (static_cast<unsigned char>(s[first]) & 0xC0) == 0x80) ++first;
  if (first < s.size() && isAlign(s[first])) {
    p.fill = std::string(s.substr(0, first));
    p.align = s[first];
    i = first + 1;
  } else if (!s.empty() && isAlign(s[0])) {
    p.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) p.sign = s[i++];
  if (i < s.size() && s[i] == '#') p.alternate = true, ++i;
  if (i < s.size() && s[i] == '0') {
    if (!p.align) p.fill = "0", p.align = '=';
    ++i;
  }
  auto number = [&](int64_t& out) {
    size_t start = i;
    int64_t v = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      v = v * 10 + (s[i++] - '0');
      if (v > 100000) badSpec(s, "too wide");
    }
    if (i > start) out = v;
    return i > start;
  };
  number(p.width);
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) p.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!number(p.precision)) badSpec(s, "expected digits after '.'");
  }
  if (i < s.size()) p.type = s[i++];
  if (i < s.size()) badSpec(s, "unexpected '" + std::string(s.substr(i)) + "'");
  if (p.type && std::string_view("sdboxXceEfFgG%").find(p.type) == std::string_view::npos)
    badSpec(s, std::string("unknown type '") + p.type + "'");
  return p;
}

std::string group(std::string digits, char sep) {
  if (!sep) return digits;
  std::string out;
  int n = 0;
  for (size_t i = digits.size(); i-- > 0;) {
    if (n && n % 3 == 0) out.insert(out.begin(), sep);
    out.insert(out.begin(), digits[i]);
    ++n;
  }
  return out;
}

// Fill and alignment; `signLength` leading characters stay left of '=' padding.
std::string pad(std::string body, const Spec& p, char defaultAlign, size_t signLength) {
  size_t len = utf8Length(body);
  if (p.width < 0 || len >= static_cast<size_t>(p.width)) return body;
  size_t gap = static_cast<size_t>(p.width) - len;
  auto fill = [&](size_t n) {
    std::string out;
    for (size_t k = 0; k < n; ++k) out += p.fill;
    return out;
  };
  switch (p.align ? p.align : defaultAlign) {
    case '<':
      return body + fill(gap);
    case '^':
      return fill(gap / 2) + body + fill(gap - gap / 2);
    case '=':
      return body.substr(0, signLength) + fill(gap) + body.substr(signLength);
    default:
      return fill(gap) + body;
  }
}

std::string signOf(bool negative, const Spec& p) {
  if (negative) return "-";
  return p.sign == '+' ? "+" : p.sign == ' ' ? " " : "";
}

std::string formatInt(int64_t v, const Spec& p, std::string_view spec) {
  if (p.precision >= 0) badSpec(spec, "precision is not allowed for ints");
  uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string digits, prefix;
  switch (p.type) {
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      int base = p.type == 'b' ? 2 : p.type == 'o' ? 8 : 16;
      const char* glyphs = p.type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
      do digits.insert(digits.begin(), glyphs[mag % base]);
      while (mag /= base);
      if (p.alternate) prefix = std::string("0") + p.type;
      break;
    }
    case 'c':
      return pad(std::string(1, static_cast<char>(v)), p, '<', 0);
    default:
      digits = group(std::to_string(mag), p.grouping);
  }
  std::string head = signOf(v < 0, p) + prefix;
  return pad(head + digits, p, '>', head.size());
}

std::string formatFloat(double v, const Spec& p) {
  bool negative = std::signbit(v) && !std::isnan(v);
  double mag = std::fabs(v);
  std::string body;
  if (!p.type && p.precision < 0) {
    body = interp::formatFloat(mag);
  } else {
    char type = p.type ? p.type : 'g';
    int64_t precision = p.precision >= 0 ? p.precision : 6;
    if (type == '%') mag *= 100;
    char conv = type == '%' ? 'f' : type == 'F' ? 'F' : type;
    char fmt[32];  // "%#.<19 digits>f": room for any int64 precision
    std::snprintf(fmt, sizeof fmt, "%%%s.%lld%c", p.alternate ? "#" : "",
                  static_cast<long long>(precision), conv);
    int n = std::snprintf(nullptr, 0, fmt, mag);
    body.resize(static_cast<size_t>(n));
    std::snprintf(body.data(), body.size() + 1, fmt, mag);
    if (type == '%') body += '%';
  }
  if (p.grouping && std::isfinite(mag)) {
    size_t end = body.find_first_not_of("0123456789");
    body = group(body.substr(0, end), p.grouping) + (end == std::string::npos ? "" : body.substr(end));
  }
  std::string head = signOf(negative, p);
  return pad(head + body, p, '>', head.size());
}

}  // namespace

std::string formatValue(const Value& v, std::string_view spec) {
  if (spec.empty()) return str(v);
  Spec p = parseSpec(spec);
  bool intType = p.type && std::string_view("dboxXc").find(p.type) != std::string_view::npos;
  Value x = v.is(Type::Tensor) ? tensorHooks().item(v, intType) : v;
  auto unknown = [&](const char* what) -> std::string {
    throwUserError(ErrorKind::ValueError, std::string("unknown format code '") + p.type +
                                              "' for " + what);
  };
  switch (x.type()) {
    case Type::Str:
      if (p.type && p.type != 's') return unknown("str");
      if (p.sign != '-' || p.alternate || p.grouping || p.align == '=')
        badSpec(spec, "sign, '#', grouping and '=' are for numbers");
      return pad(p.precision >= 0 ? str(x).substr(0, static_cast<size_t>(p.precision)) : str(x),
                 p, '<', 0);
    case Type::Bool:
    case Type::Int:
    case Type::SymInt: {
      if (x.is(Type::SymInt) && tracing())  // as str() of it: text needs the size's value
        graphBreak(ErrorKind::DataDependentError, "a traced size as text needs its value");
      int64_t n = x.is(Type::Bool)  ? x.asBool()
                  : x.is(Type::Int) ? x.asInt()
                                    : shapes::evaluateInt(toSymInt(x));
      if (p.type == 's') return unknown("int");
      if (!p.type && x.is(Type::Bool)) return pad(str(x), p, '<', 0);
      if (p.type && !intType) return formatFloat(static_cast<double>(n), p);
      return formatInt(n, p, spec);
    }
    case Type::SymFloat:
      if (tracing())  // as str() of it
        graphBreak(ErrorKind::DataDependentError, "a traced float as text needs its value");
      [[fallthrough]];
    case Type::Float:
      if (p.type == 's' || intType) return unknown("float");
      return formatFloat(concreteFloat(x), p);
    default:
      throwUserError(ErrorKind::TypeError, "a '" + std::string(typeName(x.type())) +
                                               "' takes no format spec ('" + std::string(spec) +
                                               "')");
  }
}

std::string formatTemplate(std::string_view t, std::span<const Value> positional,
                           std::span<const std::string> names, std::span<const Value> named) {
  std::string out;
  int autoIndex = 0;  // -1 once a field was numbered by hand
  for (size_t i = 0; i < t.size(); ++i) {
    char ch = t[i];
    if ((ch == '{' || ch == '}') && i + 1 < t.size() && t[i + 1] == ch) {
      out += ch;
      ++i;
      continue;
    }
    if (ch == '}') throwUserError(ErrorKind::ValueError, "single '}' in a format string");
    if (ch != '{') {
      out += ch;
      continue;
    }
    size_t close = t.find('}', i);
    if (close == std::string_view::npos)
      throwUserError(ErrorKind::ValueError, "'{' was never closed in a format string");
    std::string_view field = t.substr(i + 1, close - i - 1);
    std::string_view spec;
    if (size_t colon = field.find(':'); colon != std::string_view::npos) {
      spec = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    char conversion = 0;
    if (size_t bang = field.find('!'); bang != std::string_view::npos) {
      if (bang + 2 != field.size() || (field[bang + 1] != 'r' && field[bang + 1] != 's'))
        throwUserError(ErrorKind::ValueError, "the conversion must be !r or !s");
      conversion = field[bang + 1];
      field = field.substr(0, bang);
    }
    const Value* value = nullptr;
    if (field.empty() || std::isdigit(static_cast<unsigned char>(field[0]))) {
      int64_t index;
      if (field.empty()) {
        if (autoIndex < 0)
          throwUserError(ErrorKind::ValueError, "cannot mix {} and {0} fields in one format string");
        index = autoIndex++;
      } else {
        if (autoIndex > 0)
          throwUserError(ErrorKind::ValueError, "cannot mix {} and {0} fields in one format string");
        autoIndex = -1;
        index = std::stoll(std::string(field));
      }
      if (index >= static_cast<int64_t>(positional.size()))
        throwUserError(ErrorKind::IndexError, "format field {" + std::to_string(index) +
                                                  "} but " + std::to_string(positional.size()) +
                                                  " positional arguments");
      value = &positional[static_cast<size_t>(index)];
    } else {
      for (size_t k = 0; k < names.size(); ++k)
        if (names[k] == field) value = &named[k];
      if (!value)
        throwUserError(ErrorKind::KeyError, "format field {" + std::string(field) +
                                                "} has no argument of that name");
    }
    std::string text = conversion == 'r' ? repr(*value) : conversion == 's' ? str(*value) : "";
    out += conversion ? formatValue(makeStr(text), spec) : formatValue(*value, spec);
    i = close;
  }
  return out;
}

}  // namespace tessel::interp
