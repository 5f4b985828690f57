// ScriptError and its rendering: `file:line:col: Kind: message`, the source line, a caret under
// the span, and the calls that led there. The evaluator attaches the span in one place.
#pragma once

#include <string>
#include <vector>

#include "interp/syntax/source.h"
#include "shapes/user_error.h"

namespace tessel::interp {

/// One call on the way to an error: the function that was running and where it was called.
struct TraceFrame {
  std::string function;
  Span callSite;
};

/// A UserError that knows where in the script it happened.
class ScriptError : public UserError {
 public:
  ScriptError(ErrorKind kind, std::string message, Span span)
      : UserError(kind, std::move(message)), span(span) {}
  Span span;
  std::vector<TraceFrame> trace;  // innermost call first
};

[[noreturn]] void raise(ErrorKind kind, std::string message, Span span);

/// Renders an error for a terminal; `color` adds ANSI highlighting.
std::string formatDiagnostic(const ScriptError& error, const SourceRegistry& sources,
                             bool color = false);

}  // namespace tessel::interp
