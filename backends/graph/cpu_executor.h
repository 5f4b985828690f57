// CpuGraphExecutor: runs an optimized graph on the host with the eager cpu kernels and the
// tiled fused-program evaluator, for any sizes its guards admit.
#pragma once

#include <memory>
#include <vector>

#include "backends/graph/cpu_fused.h"
#include "backends/graph/executor_base.h"

namespace tessel::graph {

/// The plan and run loop of ExecutorBase, with each step launched on the host by the eager cpu
/// kernels (called directly: no dispatch(), no tape) or the tiled fused-program evaluator:
/// results equal eager results. One run at a time per executor.
class CpuGraphExecutor final : public ExecutorBase {
 public:
  explicit CpuGraphExecutor(const Graph& g, const CompileOptions& options = {});
  ~CpuGraphExecutor() override;

  using GraphExecutable::run;
  std::vector<Tensor> run(std::span<const Tensor> inputs,
                          std::span<const int64_t> symbolValues = {}) override;
  /// For graphs of one step with constant shapes (cpu_prepared.cpp).
  std::unique_ptr<PreparedRun> prepare(std::span<const Tensor> inputs) override;

 private:
  class PreparedStep;

  Tensor launch(size_t index, const Step& s, std::span<const Tensor> args,
                const shapes::OpSignature& sig, const shapes::OpAttrs& attrs) override;

  std::vector<std::unique_ptr<CpuFusedKernel>> fused_;  ///< per step, for Fused values
  /// Per step: for an attention whose logsumexp a later step computes, that step (else -1);
  /// the logsumexp its run left for that step (Note [Attention and its logsumexp in one pass]).
  std::vector<int> lseStep_;
  std::vector<Tensor> lseReady_;
};

/// Runs one node of an optimized graph on the host: the eager cpu kernel of its op (called
/// directly: no dispatch(), no tape) or, for a Fused value, `fused`. What CpuGraphExecutor
/// launches, and the tpu backend's programs too.
Tensor runNodeOnCpu(const Value& v, std::span<const Tensor> args, const shapes::OpSignature& sig,
                    const shapes::OpAttrs& attrs, CpuFusedKernel* fused);

/// optimize() + CpuGraphExecutor.
std::unique_ptr<GraphExecutable> compileForCpu(const Graph& g, const CompileOptions& options = {});

}  // namespace tessel::graph
