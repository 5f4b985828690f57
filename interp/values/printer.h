// How values print (language.md): repr for containers, bare strings at top level, floats as
// the shortest text that reads back to the same value.
#pragma once

#include <string>
#include <vector>

#include "interp/values/value.h"

namespace tessel::interp {

/// The form print() uses for a top-level value (strings bare).
std::string str(const Value& v);
/// The form used inside containers and by the REPL's echo (strings quoted).
std::string repr(const Value& v);
/// Shortest round-trip text, Python style: 9.0, 0.1, 1e-05, 1e+16, inf, nan.
std::string formatFloat(double d);
/// A string literal with double quotes and escapes.
std::string quoteString(const std::string& s);
/// The UTF-8 characters of a string (one code point each).
std::vector<std::string> utf8Chars(const std::string& s);

}  // namespace tessel::interp
