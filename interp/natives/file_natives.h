// The prelude's file functions: load, save, read_text, write_text, read_lines, load_csv
// (docs/tensors.md, "Files"), each checked against the interpreter's file policy.
#pragma once

#include "interp/values/objects.h"

namespace tessel::interp {

class Interpreter;

/// Adds the file functions to the prelude.
void registerFileBuiltins(Interpreter& interp, ModuleObj& prelude);

}  // namespace tessel::interp
