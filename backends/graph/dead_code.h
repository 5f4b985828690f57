// Dead-code elimination: drops values no output needs.
#pragma once

#include "backends/graph/graph.h"

namespace tessel::graph {

/// Keeps the inputs (the call signature), the values the outputs depend on, random ops (they
/// advance the random stream, so later random results must stay those of eager execution),
/// and the op that binds each unbacked symbol a kept value's shape or attributes, or a
/// runtime assert, mentions. Everything else is dropped.
Graph eliminateDeadCode(const Graph& g);

}  // namespace tessel::graph
