// Compiler collectives (compiler.md, "Compiler collectives"; docs/distributed.md): under MPI
// with config.compiler_collectives, the ranks exchange the code state each one observed when a
// frame compiles, so a source that differs across ranks is dynamic on every rank from the first
// compile, and every rank compiles the same graph (SPMD).
#pragma once

#include <string>

namespace tessel::interp {

struct CodeState;
struct FrameObj;

/// Exchanges `state` (the unit's code state, this call's values already in it) with every
/// rank, and marks dynamic every source whose value differs across ranks or is dynamic on one.
/// Nothing without config.compiler_collectives or in a world of one. Collective: every rank
/// must compile this unit at the same point, or the exchange raises (a ValueError naming what
/// each rank is in, or a DeviceError after config.dist_timeout_s).
void exchangeCodeState(FrameObj& frame, CodeState& state, int compileId, int firstLine);

}  // namespace tessel::interp
