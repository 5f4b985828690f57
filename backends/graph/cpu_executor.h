// CpuGraphExecutor: runs an optimized graph on the host with the eager cpu kernels and the
// tiled fused-program evaluator, for any sizes its guards admit.
#pragma once

#include <memory>
#include <vector>

#include "backends/graph/cpu_fused.h"
#include "backends/graph/executable.h"
#include "backends/graph/sym_eval.h"

namespace tessel::graph {

/// Built once per graph: optimize() runs, then a plan is made of one step per node, with the
/// signatures and attributes that are static precomputed, the symbols each data-dependent op
/// binds, where each runtime assert becomes checkable, and when each intermediate dies (it is
/// released right after its last use). run() evaluates the remaining symbolic sizes under the
/// current symbol values, allocates by them, and calls the cpu kernels directly (no
/// dispatch(), no tape): results equal eager results. One run at a time per executor.
class CpuGraphExecutor final : public GraphExecutable {
 public:
  explicit CpuGraphExecutor(const Graph& g, const CompileOptions& options = {});
  ~CpuGraphExecutor() override;

  using GraphExecutable::run;
  std::vector<Tensor> run(std::span<const Tensor> inputs,
                          std::span<const int64_t> symbolValues = {}) override;
  const Graph& graph() const override { return graph_; }
  const CompileStats& stats() const override { return stats_; }
  const RunStats& runStats() const override { return runStats_; }

 private:
  struct Step;
  void bindInputs(std::span<const Tensor> inputs, std::span<const int64_t> symbolValues);
  void bindShape(const SymShape& shape, const backends::Dims& actual, const std::string& what);
  void checkAsserts(const std::vector<uint32_t>& which) const;
  Tensor execute(const Step& s, std::span<const Tensor> args);

  Graph graph_;
  CompileStats stats_;
  RunStats runStats_;
  std::vector<Step> steps_;
  std::vector<uint8_t> unbacked_;         ///< per symbol
  std::vector<uint8_t> external_;         ///< unbacked, but its value comes with the call
  std::vector<uint32_t> neededSymbols_;   ///< backed symbols the graph reads
  std::vector<uint32_t> initialAsserts_;  ///< asserts checkable once the inputs are bound
  std::vector<uint8_t> isOutput_;
  // Per-run state, kept to reuse its memory.
  SymbolValues syms_;
  std::vector<Tensor> slots_;
  std::vector<Tensor> args_;
};

/// optimize() + CpuGraphExecutor.
std::unique_ptr<GraphExecutable> compileForCpu(const Graph& g, const CompileOptions& options = {});

}  // namespace tessel::graph
