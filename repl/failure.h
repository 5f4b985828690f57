// What a tessel::Error reports, as the `tessel` command, the REPL and the Jupyter kernel tell
// failures apart: each shows a script's errors, exit(), running out of memory and Tessel's own
// bugs its own way.
#pragma once

#include <tessel/tessel.h>

namespace tessel::repl {

enum class Failure {
  Exit,         ///< the script called exit(n): not an error, Error::exitStatus() is n
  Script,       ///< an error at a place in the code: what() shows the line and a caret
  User,         ///< an error without a place (a script file that cannot be opened, ...)
  OutOfMemory,  ///< the host ran out of memory outside any statement
  Internal,     ///< a bug in Tessel (a failed internal assertion)
};

inline Failure failureOf(const Error& e) {
  if (e.kind() == "SystemExit") return Failure::Exit;
  if (e.line() > 0) return Failure::Script;
  if (e.kind() == "InternalError") return Failure::Internal;
  // Inside a statement this is a script error; outside (a final expression's value) the
  // allocation failure itself reached the API.
  if (e.kind() == "DeviceError" && e.message() == "out of memory") return Failure::OutOfMemory;
  return Failure::User;
}

}  // namespace tessel::repl
