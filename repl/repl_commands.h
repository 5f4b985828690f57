// The REPL's `:` commands: :help, :quit, :load FILE, :reset, :type EXPR, :time EXPR.
#pragma once

#include <tessel/tessel.h>

#include <string>
#include <string_view>
#include <vector>

namespace tessel::repl {

enum class CommandOutcome { Continue, Quit };

/// Whether the input is a command (its first non-blank character is ':').
bool isCommand(std::string_view input);
/// Command names without the colon, in help order.
std::vector<std::string> commandNames();
/// Whether the command in `input` takes an expression (:type, :time), which may span lines.
bool commandTakesExpression(std::string_view input);
/// The argument text of a command input (after the name, trimmed).
std::string commandArgument(std::string_view input);
/// What :help prints.
std::string helpText();

/// Runs a command. Unknown commands and usage mistakes are reported on stderr; errors from the
/// code a command runs are reported as diagnostics. exit() passes through (an Error of kind
/// "SystemExit").
CommandOutcome runCommand(Interpreter& vm, std::string_view input);

}  // namespace tessel::repl
