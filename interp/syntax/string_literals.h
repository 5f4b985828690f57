// The insides of string literals: escapes, and the fields of f-strings (language.md,
// "Strings").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "interp/syntax/source.h"

namespace tessel::interp {

/// The text between a string literal's quotes with its escapes decoded (`\n \t \r \0 \\ \" \'
/// \xHH \uXXXX`; unknown escapes are kept as written, like Python). A bad `\x`/`\u` is a
/// SyntaxError at `at`.
std::string unescape(std::string_view body, Span at);

/// One piece of an f-string: literal text, or a replacement field `{expr!conv:spec}`.
struct FStringPart {
  std::string literal;        // decoded; empty for a field
  bool isField = false;
  std::string expr;           // the field's expression, as written
  uint32_t line = 0, col = 0; // where that expression starts
  char conversion = 0;        // 'r', 's' or 0
  std::string spec;           // the format spec after ':', decoded
};
/// The pieces of an f-string whose text between the quotes is `body`, starting at `bodyAt`
/// (`{{` and `}}` are braces). Malformed fields are SyntaxErrors at the field.
std::vector<FStringPart> splitFString(std::string_view body, Span bodyAt);

}  // namespace tessel::interp
