// Constant folding: ops whose operands are all constants run once, at compile time.
#pragma once

#include <cstdint>

#include "backends/graph/graph.h"

namespace tessel::graph {

struct FoldOptions {
  /// A folded result larger than this many elements, and larger than every operand, stays an
  /// op (folding `full([n, n])` or an expand would only trade a cheap op for a big constant).
  int64_t maxNewElements = 1 << 16;
};

/// Replaces every foldable op whose operands are all constants (after earlier folds) by its
/// value, computed with the eager cpu kernels (the Backend interface; no tape). Not folded:
/// random ops, data-dependent ops (their sizes bind unbacked symbols at run time), ops with
/// symbolic sizes or attributes, and ops whose kernel raises a UserError (the error is left
/// for run time, where eager execution would raise it too). Dead operands are left for DCE.
Graph foldConstants(const Graph& g, const FoldOptions& options = {});

}  // namespace tessel::graph
