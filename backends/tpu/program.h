// TpuProgram: a graph compiled for the tpu backend. Every buffer's size is fixed at compile time
// from the bounds of its symbolic shape; one arena, planned from buffer lifetimes, holds every
// intermediate; kernels run on the real sizes carried beside the padded buffers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/graph/cpu_fused.h"
#include "backends/graph/executor_base.h"
#include "backends/rng.h"
#include "backends/tpu/tpu.h"

namespace tessel::backends::tpu {

/// Per output dimension: its upper bound, or -1 for a static size.
using DimBounds = std::vector<int64_t>;

class TpuProgram final : public graph::ExecutorBase {
 public:
  /// Optimizes and plans `g`. DeviceError when a size has no upper bound under the graph's
  /// facts, or when the arena and outputs would exceed tpuConfig().memoryBytes.
  TpuProgram(const graph::Graph& g, const graph::CompileOptions& options, std::string name);
  ~TpuProgram() override;

  using GraphExecutable::run;
  /// Inputs must be on the tpu. Output buffers are made at their bounds before the first
  /// kernel; every other byte comes from the arena. The outputs have their real sizes.
  std::vector<Tensor> run(std::span<const Tensor> inputs,
                          std::span<const int64_t> symbolValues = {}) override;

  const ProgramRecord& record() const { return record_; }
  /// The random states of the next run's random ops, by OpAttrs::randomSlot (lazy segments
  /// take them when recording); ops without a slot draw from the generator as they run.
  void setRandomStates(std::vector<RngState> states) { randomStates_ = std::move(states); }
  /// The bound of each dimension of each output (what the lazy tensors it makes carry).
  const std::vector<DimBounds>& outputBounds() const { return outputBounds_; }
  const std::vector<DimBounds>* outputDimBounds() const override { return &outputBounds_; }

 private:
  struct Slot;
  class StepMemory;
  Tensor launch(size_t index, const Step& s, std::span<const Tensor> args,
                const shapes::OpSignature& sig, const shapes::OpAttrs& attrs) override;
  void plan();
  /// DeviceError when arena and outputs exceed tpuConfig().memoryBytes.
  void checkFitsTheDevice() const;

  ProgramRecord record_;
  std::vector<DimBounds> outputBounds_;
  std::vector<Slot> slots_;  ///< per step
  std::vector<std::unique_ptr<graph::CpuFusedKernel>> fused_;
  std::vector<int> outputOfStep_;  ///< per step: index of the output buffer it fills, or -1
  std::vector<uint64_t> outputBytes_;  ///< per graph output that a step fills
  uint64_t scratchOffset_ = 0, scratchBytes_ = 0;
  std::shared_ptr<std::byte> arena_;  ///< made at the first run, kept
  std::vector<Tensor> outputBuffers_;  ///< this run's
  std::vector<RngState> randomStates_;
  std::unique_ptr<StepMemory> memory_;
  uint64_t realDynamicBytes_ = 0, boundDynamicBytes_ = 0;  ///< this run's
};

/// The tpu backend's GraphExecutable for `g` (what @compile(backend = "tpu") and the lazy
/// programs use); it is also entered in tpuStats().programs.
std::unique_ptr<TpuProgram> compileForTpu(const graph::Graph& g,
                                          const graph::CompileOptions& options,
                                          const std::string& name);

}  // namespace tessel::backends::tpu
