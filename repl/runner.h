// Running scripts and code strings for the `tessel` command: errors become diagnostics on
// stderr and an exit status.
#pragma once

#include <tessel/tessel.h>

#include <string>

namespace tessel::repl {

/// Runs a script file; returns the process exit status (0, 1 on error, or exit()'s status).
int runScript(Interpreter& vm, const std::string& path);
/// Runs `code` as the main module (`tessel -c`).
int runCode(Interpreter& vm, const std::string& code);
/// The first line of the last error runScript or runCode reported ("" when none): what a
/// failing rank tells the others (docs/distributed.md).
std::string lastError();
/// Runs `body` on a thread with a large stack (deep recursion reaches Tessel's own limit
/// before the native stack), and returns its result.
int runWithLargeStack(int (*body)(void*), void* arg);

}  // namespace tessel::repl
