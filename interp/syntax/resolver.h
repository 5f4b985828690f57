// The resolver: decides once, before running, where every name lives (frame slot, cell,
// captured upvalue or module global), so the evaluator never looks names up at run time.
#pragma once

#include "interp/syntax/ast.h"
#include "interp/values/objects.h"

namespace tessel::interp {

/// Resolves every name of `program` against `module`, whose global slots it creates as needed.
/// Top-level `let`s and `fn`s of the program bind module globals; everything inside blocks and
/// functions gets frame slots.
void resolveProgram(Program& program, ModuleObj& module);

}  // namespace tessel::interp
