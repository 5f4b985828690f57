// The resolver: decides once, before running, where every name lives (frame slot, cell,
// captured upvalue or module global), so the evaluator never looks names up at run time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "interp/syntax/ast.h"

namespace tessel::interp {

/// Resolves every name of `program` against `module`, whose global slots it creates as needed.
/// Top-level `let`s and `fn`s of the program bind module globals; everything inside blocks and
/// functions gets frame slots.
/// `globalSlot(name)` is the module's slot for a global, created if it is new.
void resolveProgram(Program& program, const std::function<uint32_t(const std::string&)>& globalSlot);

/// The same against a module object (ModuleObj::slotOf). A template because ModuleObj lives in
/// values/, a layer above this one (interp/README.md, "Layers").
template <class Module>
void resolveProgram(Program& program, Module& module) {
  resolveProgram(program, [&module](const std::string& name) { return module.slotOf(name); });
}

}  // namespace tessel::interp
