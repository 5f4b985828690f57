// The interactive REPL (issue 2): line editing, history, completion, multi-line input, echo,
// and the `:` commands.
#pragma once

namespace tessel::interp {
class Interpreter;
}

namespace tessel::repl {

/// Runs the REPL on stdin/stdout until EOF or :quit; returns the exit status.
int runRepl(interp::Interpreter& interp);

}  // namespace tessel::repl
