// Running REPL input: errors become diagnostics on stderr and the session goes on; the value
// of a trailing expression statement is echoed.
#pragma once

#include <tessel/tessel.h>

#include <functional>
#include <string>

namespace tessel::repl {

/// The display name REPL input gets in diagnostics.
inline constexpr const char* kInputName = "<stdin>";

/// Runs `body`; a script or user error, or an internal error (a bug in Tessel), is printed
/// (with color when stderr is a terminal) and false returned, and the session goes on.
/// exit()'s Error (kind "SystemExit") passes through.
bool reportErrors(const std::function<void()>& body);

/// Prints `value` as the REPL echoes it: repr, nothing for none.
void echoValue(const Value& value);

/// Runs `text` in the session's main module and echoes its value.
void evalAndEcho(Interpreter& vm, const std::string& text);

}  // namespace tessel::repl
