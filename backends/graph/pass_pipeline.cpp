// optimize(): the passes in order, timed.
#include "backends/graph/pass_pipeline.h"

#include <chrono>
#include <cstdio>
#include <functional>

#include "backends/graph/dead_code.h"
#include "backends/graph/elementwise_fusion.h"
#include "backends/graph/fused_program.h"
#include "backends/graph/zero_padded_cats.h"

namespace tessel::graph {

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", v);
  return buf;
}

}  // namespace

std::string CompileStats::toString() const {
  std::string s = "nodes " + std::to_string(nodesBefore) + " -> " + std::to_string(nodesAfter);
  for (size_t i = 0; i < passes.size(); ++i) {
    const PassStats& p = passes[i];
    s += (i ? ", " : "; ") + p.name + " " + ms(p.ms) + " (" + std::to_string(p.nodesBefore) +
         " -> " + std::to_string(p.nodesAfter) + ")";
  }
  if (fusedGroups)
    s += "; " + std::to_string(fusedGroups) + " fused groups of " + std::to_string(fusedOps) +
         " ops";
  if (constantsFolded) s += "; " + std::to_string(constantsFolded) + " folded";
  s += "; passes " + ms(passesMs) + ", lowering " + ms(loweringMs);
  return s;
}

OptimizedGraph optimize(const Graph& g, const CompileOptions& options) {
  OptimizedGraph r{g, {}};
  r.stats.nodesBefore = g.numNodes();
  const auto start = std::chrono::steady_clock::now();
  auto run = [&](const char* name, const std::function<Graph(const Graph&)>& pass) {
    PassStats p;
    p.name = name;
    p.nodesBefore = r.graph.numNodes();
    const size_t valuesBefore = r.graph.size();
    const auto t0 = std::chrono::steady_clock::now();
    r.graph = pass(r.graph);
    p.ms = msSince(t0);
    p.nodesAfter = r.graph.numNodes();
    if (p.name == "dce") r.stats.deadRemoved += valuesBefore - r.graph.size();
    r.stats.passes.push_back(p);
  };
  if (options.deadCode) run("dce", eliminateDeadCode);
  if (options.constantFolding) {
    const size_t before = r.graph.numNodes();
    run("constant_folding", [&](const Graph& x) { return foldConstants(x, options.fold); });
    r.stats.constantsFolded = before - r.graph.numNodes();
    if (options.deadCode && r.stats.constantsFolded) run("dce", eliminateDeadCode);
  }
  if (options.zeroPaddedCats) {
    const size_t before = r.graph.numNodes();
    run("zero_padded_cats", sumZeroPaddedCats);
    // The cats and fills the rewritten sums used are dead now.
    if (options.deadCode && r.graph.numNodes() != before) run("dce", eliminateDeadCode);
  }
  if (options.fusion) {
    const size_t before = r.graph.numNodes();
    run("fusion", fuseElementwise);
    // Constants inlined as immediates are dead now.
    if (options.deadCode && r.graph.numNodes() != before) run("dce", eliminateDeadCode);
  }
  r.stats.passesMs = msSince(start);
  r.stats.nodesAfter = r.graph.numNodes();
  for (const Value& v : r.graph.values())
    if (v.kind == ValueKind::Fused) {
      ++r.stats.fusedGroups;
      r.stats.fusedOps += v.fused->numOps();
    }
  return r;
}

}  // namespace tessel::graph
