// The optimization pipeline every backend runs before lowering a graph, with its statistics
// (stats()/TESSEL_LOGS=perf).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/graph/constant_folding.h"
#include "backends/graph/graph.h"

namespace tessel::graph {

struct CompileOptions {
  bool deadCode = true;
  bool constantFolding = true;
  bool zeroPaddedCats = true;  ///< sumZeroPaddedCats (zero_padded_cats.h)
  bool fusion = true;
  FoldOptions fold;
};

/// One pass run: how long it took and what it did to the node count.
struct PassStats {
  std::string name;  ///< "dce", "constant_folding", "zero_padded_cats", "fusion"
  double ms = 0;
  size_t nodesBefore = 0, nodesAfter = 0;
};

/// What compiling one graph did. Node counts count Op and Fused values.
struct CompileStats {
  size_t nodesBefore = 0, nodesAfter = 0;
  size_t constantsFolded = 0;  ///< ops replaced by constants
  size_t deadRemoved = 0;      ///< values dropped by DCE (both runs)
  size_t fusedGroups = 0;      ///< Fused values in the result
  size_t fusedOps = 0;         ///< ops inside them
  std::vector<PassStats> passes;
  double passesMs = 0;    ///< all passes
  double loweringMs = 0;  ///< the backend's own preparation (executor plan)
  /// "nodes 12 -> 4; dce 0.010 ms (12 -> 11), constant_folding ..., fusion ... (2 groups of
  /// 7 ops); lowering 0.020 ms"
  std::string toString() const;
};

struct OptimizedGraph {
  Graph graph;
  CompileStats stats;
};

/// DCE, constant folding, DCE again (folded operands die), sums of zero-padded cats, DCE again
/// (the cats they replaced die), elementwise fusion, DCE again (constants inlined into fused
/// programs die). The later DCE runs only when needed.
OptimizedGraph optimize(const Graph& g, const CompileOptions& options = {});

}  // namespace tessel::graph
