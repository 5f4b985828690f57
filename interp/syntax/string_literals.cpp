// Escapes and f-string fields: the lexer keeps a string literal as one token; these read its
// insides.
#include "interp/syntax/string_literals.h"

#include <charconv>

#include "interp/syntax/diagnostics.h"

namespace tessel::interp {
namespace {

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

Span columnSpan(Span at, size_t offset, size_t length) {
  Span s = at;
  s.col = at.col + static_cast<uint32_t>(offset);
  s.endLine = s.line;
  s.endCol = s.col + static_cast<uint32_t>(length > 0 ? length - 1 : 0);
  return s;
}

}  // namespace

std::string unescape(std::string_view raw, Span at) {
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    char ch = raw[i];
    if (ch != '\\' || i + 1 == raw.size()) {
      out += ch;
      continue;
    }
    char e = raw[++i];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case '0':
        out += '\0';
        break;
      case '\\':
      case '"':
      case '\'':
        out += e;
        break;
      case 'x':
      case 'u': {
        size_t digits = e == 'x' ? 2 : 4;
        uint32_t cp = 0;
        const char* first = raw.data() + i + 1;
        if (i + digits >= raw.size())
          raise(ErrorKind::SyntaxError, std::string("bad \\") + e + " escape in string", at);
        auto [ptr, ec] = std::from_chars(first, first + digits, cp, 16);
        if (ec != std::errc() || ptr != first + digits)
          raise(ErrorKind::SyntaxError, std::string("bad \\") + e + " escape in string", at);
        i += digits;
        appendUtf8(out, cp);
        break;
      }
      default:  // unknown escapes are kept as written, like Python
        out += '\\';
        out += e;
    }
  }
  return out;
}

// Note [f-string fields]
// A field runs from `{` to its matching `}`. Inside it, brackets nest and quoted strings are
// skipped, so `{d['k']}` and `{f(a, {"x": 1})}` are one field; at the field's top level, `!r`
// or `!s` (not `!=`) starts the conversion and `:` the format spec, which may not hold fields
// of its own. The expression is parsed later as Tessel code at the column it was written.
std::vector<FStringPart> splitFString(std::string_view body, Span at) {
  std::vector<FStringPart> parts;
  std::string literal;  // raw text of the current literal piece
  auto flush = [&] {
    if (literal.empty()) return;
    FStringPart p;
    p.literal = unescape(literal, at);
    parts.push_back(std::move(p));
    literal.clear();
  };
  for (size_t i = 0; i < body.size(); ++i) {
    char ch = body[i];
    if (ch == '\\' && i + 1 < body.size()) {
      literal += body.substr(i, 2);
      ++i;
      continue;
    }
    if ((ch == '{' || ch == '}') && i + 1 < body.size() && body[i + 1] == ch) {
      literal += ch;
      ++i;
      continue;
    }
    if (ch == '}')
      raise(ErrorKind::SyntaxError, "f-string: single '}' is not allowed (write '}}')",
            columnSpan(at, i, 1));
    if (ch != '{') {
      literal += ch;
      continue;
    }
    flush();
    size_t start = i + 1, j = start, exprEnd = std::string_view::npos;
    int depth = 0;
    char quote = 0;
    FStringPart field;
    field.isField = true;
    for (; j < body.size(); ++j) {
      char c = body[j];
      if (quote) {
        if (c == '\\') ++j;
        else if (c == quote) quote = 0;
        continue;
      }
      if (c == '"' || c == '\'') quote = c;
      else if (c == '(' || c == '[' || c == '{') ++depth;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      else if (depth == 0 && c == '}') break;
      else if (depth == 0 && exprEnd == std::string_view::npos && c == '!' &&
               j + 1 < body.size() && body[j + 1] != '=') {
        exprEnd = j;
        field.conversion = body[j + 1];
        if (field.conversion != 'r' && field.conversion != 's')
          raise(ErrorKind::SyntaxError, "f-string: the conversion must be !r or !s",
                columnSpan(at, j, 2));
        ++j;
      } else if (depth == 0 && c == ':') {
        if (exprEnd == std::string_view::npos) exprEnd = j;
        size_t close = body.find('}', j + 1);
        size_t nested = body.find('{', j + 1);
        if (close == std::string_view::npos) break;
        if (nested < close)
          raise(ErrorKind::SyntaxError, "f-string: a format spec cannot hold fields",
                columnSpan(at, nested, 1));
        field.spec = unescape(body.substr(j + 1, close - j - 1), at);
        j = close;
        break;
      }
    }
    if (j >= body.size())
      raise(ErrorKind::SyntaxError, "f-string: '{' was never closed", columnSpan(at, i, 1));
    if (exprEnd == std::string_view::npos) exprEnd = j;
    field.expr = std::string(body.substr(start, exprEnd - start));
    if (field.expr.find_first_not_of(" \t") == std::string::npos)
      raise(ErrorKind::SyntaxError, "f-string: empty expression", columnSpan(at, i, j - i + 1));
    field.line = at.line;
    field.col = at.col + static_cast<uint32_t>(start);
    parts.push_back(std::move(field));
    i = j;
  }
  flush();
  return parts;
}

}  // namespace tessel::interp
