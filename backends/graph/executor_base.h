// ExecutorBase: the backend-neutral half of a GraphExecutable (the plan of steps and the run
// loop); a backend adds only how one step's kernel is launched.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/graph/executable.h"
#include "backends/graph/sym_eval.h"
#include "shapes/shape_rules.h"

namespace tessel::graph {

// Note [Captured items]
// ~~~~~~~~~~~~~~~~~~~~~
// With config.capture_scalar_outputs, `x.item()` of an int tensor inside a compiled function
// is an unbacked symbol u (PyTorch's unbacked SymInt), not a 0-d tensor, so it can size a
// value (`zeros([(n - 1) // 2])`), feed check() under fullgraph and shape arithmetic exactly
// as a data-dependent size can. Other unbacked symbols bind from the shape a data-dependent
// kernel gives its output; u has no shape to bind from, so the item op (op_list.def) carries
// u in attrs.index and the step that runs it reads its one element back (a host read on a
// device, as a data-dependent size's count is) and binds u before any later step evaluates a
// size or attribute that mentions it. Dead-code elimination and the plan find that binder
// through unbackedSymbolsOf(Value) (graph.h), like the shape binders.

/// Built once per graph: optimize() runs, then a plan is made of one step per node, with the
/// signatures and attributes that are static precomputed, the symbols each data-dependent op
/// binds, where each runtime assert becomes checkable, and when each intermediate dies (it is
/// released right after its last use). runSteps() binds the symbols from the call, checks the
/// asserts as they become checkable, evaluates the remaining symbolic sizes and attributes,
/// and hands each step to the backend's launch(). One run at a time per executor.
class ExecutorBase : public GraphExecutable {
 public:
  ~ExecutorBase() override;

  const Graph& graph() const override { return graph_; }
  const CompileStats& stats() const override { return stats_; }
  const RunStats& runStats() const override { return runStats_; }
  /// The symbol values of the last run (unbacked ones as data-dependent ops bound them).
  std::span<const int64_t> lastSymbolValues() const { return syms_.values(); }

 protected:
  /// One node of the graph, in run order.
  struct Step {
    ValueId id = 0;
    const Value* value = nullptr;
    shapes::OpCategory cat = shapes::OpCategory::Unary;
    bool staticSig = false;    ///< output shape is constant: `sig` is ready
    bool staticAttrs = false;  ///< no symbolic attribute: value->attrs is used as is
    shapes::OpSignature sig;
    bool binds = false;             ///< its output shape mentions unbacked symbols it binds
    int64_t itemSymbol = -1;        ///< a captured item(): the symbol its value binds
    std::vector<uint32_t> asserts;  ///< runtime asserts checkable after this step
    std::vector<ValueId> release;   ///< intermediates whose last use is this step
  };

  /// optimize(g) and the plan; stats().loweringMs covers the plan (a backend adds its part).
  ExecutorBase(const Graph& g, const CompileOptions& options);

  /// Counts a run and checks the inputs: their number, defined, dtypes, and that each is on
  /// `device` (a DeviceError "graph input X is not on <where>" otherwise).
  void beginRun(std::span<const Tensor> inputs, backends::Device device, const std::string& where);
  /// Binds the symbols, runs every step through launch() and returns the outputs.
  std::vector<Tensor> runSteps(std::span<const Tensor> inputs,
                               std::span<const int64_t> symbolValues);
  /// The symbol values the sizes of `inputs` bind on their own (no values come with them),
  /// with the runtime asserts checkable then checked: what stays fixed for inputs of exactly
  /// these sizes (Note [Prepared runs]). Throws as run() does where they bind too little.
  const SymbolValues& bindFromInputs(std::span<const Tensor> inputs);

  /// Runs step `index` on `args` with its signature and attributes evaluated for this run
  /// (for a data-dependent op `sig` has no meaning: it sizes its output itself).
  virtual Tensor launch(size_t index, const Step& s, std::span<const Tensor> args,
                        const shapes::OpSignature& sig, const shapes::OpAttrs& attrs) = 0;
  /// The value of a Constant node as the backend's kernels take it.
  virtual const Tensor& constant(ValueId id) const { return graph_.value(id).constant; }

  const std::vector<Step>& steps() const { return steps_; }

  Graph graph_;
  CompileStats stats_;
  RunStats runStats_;

 private:
  void bindInputs(std::span<const Tensor> inputs, std::span<const int64_t> symbolValues);
  /// Binds the symbols of `shape` from `actual`. `what` + `name` names the value in errors
  /// (joined only when one is thrown: this runs for every input of every call).
  void bindShape(const SymShape& shape, const backends::Dims& actual, std::string_view what,
                 std::string_view name = {});
  void checkAsserts(const std::vector<uint32_t>& which) const;

  std::vector<Step> steps_;
  std::vector<uint8_t> unbacked_;         ///< per symbol
  std::vector<uint8_t> external_;         ///< unbacked, but its value comes with the call
  std::vector<int> bindStepOf_;           ///< per symbol: the step binding it (-1: the call)
  std::vector<uint32_t> neededSymbols_;   ///< backed symbols the graph reads
  std::vector<uint32_t> initialAsserts_;  ///< asserts checkable once the inputs are bound
  std::vector<uint8_t> isOutput_;
  // Per-run state, kept to reuse its memory.
  SymbolValues syms_;
  std::vector<Tensor> slots_;
  std::vector<Tensor> args_;
};

}  // namespace tessel::graph
