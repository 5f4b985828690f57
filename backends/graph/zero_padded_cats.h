// Sums of zero-padded cats: the gradient of a value split into parts (select, slice, chunk),
// simplified before fusion.
#pragma once

#include "backends/graph/graph.h"

namespace tessel::graph {

/// Rewrites each add(a, b) of two cats along one dim whose parts, at every position, are zeros
/// (a `full` of 0) in at least one of the two into one cat of the parts that are not zeros
/// (Note [Sums of zero-padded cats]). The cats it no longer needs are left for DCE.
Graph sumZeroPaddedCats(const Graph& g);

}  // namespace tessel::graph
