// GraphExecutable: what a backend makes of a graph. Built once per graph, run for any sizes
// its guards admit; cpu implements it here, vulkan and tpu implement the same interface.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/graph/graph.h"
#include "backends/graph/pass_pipeline.h"

namespace tessel::graph {

/// Counters of an executable, for stats() and the benchmarks. "Last run" counters describe
/// the most recent run().
struct RunStats {
  uint64_t runs = 0;
  uint64_t kernelCalls = 0;     ///< last run: ops and fused programs executed
  uint64_t allocations = 0;     ///< last run: output buffers allocated (views excluded)
  uint64_t bytesAllocated = 0;  ///< last run: their bytes
};

// Note [Prepared runs]
// Called again with inputs of the same sizes and strides, a graph runs exactly as it did: the
// symbols (bound by those sizes), the steps' signatures and attributes, and the kernels' loop
// plans all come out the same. run() still works all of that out again (it serves any sizes the
// guards admit), which on a 4-element body costs more than the arithmetic. prepare() does it
// once, for inputs laid out like the ones it is given, and returns a PreparedRun; accepts()
// tells whether a call's inputs are laid out that way (the same dtypes, devices, sizes and
// strides: a handful of compares, not the symbolic re-check of run()), and run() then goes
// straight to the kernels. Sizes pinned this way stand in for symbols only where the inputs'
// sizes bind every symbol the graph reads: one that comes with the call instead (an int
// argument's, an .item() read before the graph) gets no prepared run. A backend prepares what
// it can and returns null for the rest (cpu: graphs of one step that is not data-dependent;
// vulkan and tpu: none): callers fall back to GraphExecutable::run. The compiler's direct
// cache-hit path is the caller (Note [Direct cache-hit calls] in interp/compile/direct_call.h).
class PreparedRun {
 public:
  virtual ~PreparedRun() = default;
  /// Whether `inputs` have the dtypes, devices, sizes and strides this run was prepared for.
  virtual bool accepts(std::span<const Tensor> inputs) const = 0;
  /// Runs the graph on inputs it accepts; `outs` (cleared first) gets its outputs.
  virtual void run(std::span<const Tensor> inputs, std::vector<Tensor>& outs) = 0;
};

class GraphExecutable {
 public:
  virtual ~GraphExecutable() = default;

  /// Runs the graph on `inputs` (in Graph::inputs() order) and returns its outputs.
  /// `symbolValues` holds one value per symbol of the graph's ShapeEnv, indexed by symbol
  /// (GuardProgram::bindSymbols gives exactly that); entries of unbacked symbols are ignored,
  /// those are bound from the sizes data-dependent ops produce. When it is empty, symbols are
  /// read from the input sizes (every size that is a single symbol binds it). Input sizes that
  /// disagree with the graph's shapes under these values are a ShapeError; a failed runtime
  /// assert is an AssertionError; kernel errors are those of eager execution.
  virtual std::vector<Tensor> run(std::span<const Tensor> inputs,
                                  std::span<const int64_t> symbolValues = {}) = 0;
  std::vector<Tensor> run(std::initializer_list<Tensor> inputs,
                          std::span<const int64_t> symbolValues = {}) {
    return run(std::span<const Tensor>(inputs.begin(), inputs.size()), symbolValues);
  }

  /// A run prepared for inputs laid out like `inputs`, or null where this backend or graph
  /// has none (Note [Prepared runs]). The executable must outlive it.
  virtual std::unique_ptr<PreparedRun> prepare(std::span<const Tensor> inputs) {
    (void)inputs;
    return nullptr;
  }

  /// The optimized graph this executable runs.
  virtual const Graph& graph() const = 0;
  /// A bounded (tpu) program's upper bound of each dim of each output; null for the others.
  /// Asked at every call, so a virtual call rather than a dynamic_cast (a third of the
  /// dispatch cost of a small compiled function).
  virtual const std::vector<std::vector<int64_t>>* outputDimBounds() const { return nullptr; }
  /// Pass timings and node counts from compiling it.
  virtual const CompileStats& stats() const = 0;
  virtual const RunStats& runStats() const = 0;
  /// The optimized graph's text and the compile statistics (for explain()).
  std::string explain() const;
};

}  // namespace tessel::graph
