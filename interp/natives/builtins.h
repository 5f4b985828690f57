// The prelude: built-in functions every module sees (language.md, "Built-in functions").
#pragma once

#include "interp/values/objects.h"

namespace tessel::interp {

/// Thrown by exit(): ends the script (or the REPL) with a status; not an error.
struct ExitRequest {
  int status;
};

/// Adds the core built-ins (print, len, range, ...) to `prelude`.
void registerCoreBuiltins(ModuleObj& prelude);

}  // namespace tessel::interp
