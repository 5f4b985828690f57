// The interactive REPL: line editing, history, completion, multi-line input, echo,
// and the `:` commands.
#pragma once

#include <tessel/tessel.h>

#include <atomic>
#include <string>

namespace tessel::repl {

/// Whether REPL input is unfinished and the next line continues it: open brackets, a trailing
/// backslash or a decorator alone on its last line (in code, or in the expression of :type and
/// :time). The Jupyter kernel's is_complete_request asks the same.
bool inputNeedsMore(const std::string& text);

/// Runs the REPL on stdin/stdout until EOF or :quit; returns the exit status. The program's
/// SIGINT handler raises `interrupted` as well as calling vm.interrupt(): at the prompt, Ctrl-C
/// discards the line being typed.
int runRepl(Interpreter& vm, std::atomic<bool>& interrupted);

}  // namespace tessel::repl
