// Dead-code elimination: drops values no output needs.
#pragma once

#include <span>

#include "backends/graph/graph.h"

namespace tessel::graph {

/// Keeps the inputs (the call signature), the values the outputs depend on, random ops (they
/// advance the random stream, so later random results must stay those of eager execution),
/// and the op that binds each unbacked symbol a kept value's shape or attributes, or a
/// runtime assert, mentions. Everything else is dropped.
Graph eliminateDeadCode(const Graph& g);

/// The part of `g` that computes only the outputs numbered `which`: what they need, and only
/// their runtime asserts: those made by the ops kept, or (origin unknown) those on symbols
/// that part binds. An assert of another output's op is not theirs to fail: how the tpu keeps
/// a program's good results when one result's assert fails.
Graph keepOutputs(const Graph& g, std::span<const size_t> which);

}  // namespace tessel::graph
