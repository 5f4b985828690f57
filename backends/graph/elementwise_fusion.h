// Elementwise fusion: chains and DAGs of elementwise ops become one Fused value.
#pragma once

#include "backends/graph/graph.h"

namespace tessel::graph {

// Note [Fusion groups]
// A group grows backwards from a root (the last elementwise op of a chain, in reverse
// topological order): an operand joins when it is an elementwise op (graph.h, isElementwise)
// of exactly the root's shape (structurally, so no guard is needed), not a graph output, and
// every one of its uses is inside the group. The last rule means nothing outside needs an
// intermediate, so the fused value is the group's only result, and no path leaves the group
// and comes back (no cycles). The same-shape rule means every temporary is computed once per
// output element: a producer that is broadcast later ([8] into [n, 8]) stays outside and is
// loaded with stride 0 instead of being recomputed n times. One-element constants become
// immediates of the program. Groups of one op stay plain ops.

/// Returns the graph with every group of two or more elementwise ops replaced by one Fused
/// value (graph/fused_program.h) at the root's position.
Graph fuseElementwise(const Graph& g);

}  // namespace tessel::graph
