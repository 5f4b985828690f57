// Built-in modules and built-ins that live above the core (tensors, config, compiler controls)
// plug in here, so interpreter.cpp does not depend on each of them.
#pragma once

#include "interp/objects.h"

namespace tessel::interp {

class Interpreter;

/// Adds every non-core built-in (tensor functions, ...) to the prelude.
void registerNativeBuiltins(Interpreter& interp, ModuleObj& prelude);
/// A built-in module by name (`config`), or none.
Value findNativeModule(Interpreter& interp, const std::string& name);

}  // namespace tessel::interp
