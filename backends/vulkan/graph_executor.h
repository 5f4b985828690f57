// VulkanGraphExecutor: runs an optimized graph on the vulkan device. Ops run with the eager
// vulkan kernels (called directly: no dispatch(), no tape); every Fused value runs as ONE
// dispatch of a GLSL kernel generated from its FusedProgram (fused_codegen.h), compiled with
// shaderc and cached in memory and on disk (fused_cache.h). docs/vulkan_graphs.md.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "backends/graph/executor_base.h"

namespace tessel::backends::vulkan {

/// Per-run counters of a VulkanGraphExecutor (last run) on top of graph::RunStats.
struct VulkanGraphRunStats {
  uint64_t dispatches = 0;      ///< kernels recorded by the last run (eager ops + fused)
  uint64_t submits = 0;         ///< command buffers submitted during the last run
  uint64_t barriers = 0;        ///< barriers recorded by the last run (Note [Barrier elision])
  uint64_t fusedKernels = 0;    ///< fused values run as one generated kernel
  uint64_t fusedFallbacks = 0;  ///< fused values run op by op with eager kernels (see .cpp)
  uint64_t fusedLinear = 0;     ///< of fusedKernels, run on the linear path (4 words a step)
};

/// Built once per graph: the plan of ExecutorBase (static signatures, which unbacked symbols
/// each data-dependent op binds, where runtime asserts become checkable, when intermediates
/// die), constants uploaded to the device once, and one pipeline per fused value (from the
/// kernel cache). run() takes device tensors and returns device tensors; all work is recorded
/// into the stream's one command buffer, which is submitted only when a data-dependent op
/// needs a count or the host reads a result.
class VulkanGraphExecutor final : public graph::ExecutorBase {
 public:
  /// DeviceError when there is no vulkan device.
  explicit VulkanGraphExecutor(const graph::Graph& g, const graph::CompileOptions& options = {});
  ~VulkanGraphExecutor() override;

  using GraphExecutable::run;
  std::vector<Tensor> run(std::span<const Tensor> inputs,
                          std::span<const int64_t> symbolValues = {}) override;
  const VulkanGraphRunStats& vulkanRunStats() const { return vkStats_; }
  /// Fused values of the graph that have a generated kernel (the others run op by op).
  size_t generatedKernels() const;
  /// The GLSL of the i-th fused value ("" when it has none), for tests and explain.
  std::string kernelSource(size_t i) const;

 private:
  struct FusedStep;
  Tensor launch(size_t index, const Step& s, std::span<const Tensor> args,
                const shapes::OpSignature& sig, const shapes::OpAttrs& attrs) override;
  const Tensor& constant(graph::ValueId id) const override { return constants_[id]; }
  Tensor runFused(const FusedStep& s, const graph::Value& v, std::span<const Tensor> args,
                  const Dims& shape);

  VulkanGraphRunStats vkStats_;
  std::vector<FusedStep> fused_;   ///< per step: generated kernels of Fused values
  std::vector<Tensor> constants_;  ///< device copies, by value id
};

/// optimize() + VulkanGraphExecutor (what compile(backend="vulkan") uses).
std::unique_ptr<graph::GraphExecutable> compileForVulkan(const graph::Graph& g,
                                                         const graph::CompileOptions& options = {});

/// Runs a fused program op by op with the eager vulkan kernels (the reference the generated
/// kernel must equal, and the path for programs codegen does not take).
Tensor runFusedEager(const graph::FusedProgram& p, std::span<const Tensor> args,
                     const Dims& shape, shapes::DType dtype);

}  // namespace tessel::backends::vulkan
