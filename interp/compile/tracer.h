// Tracer: runs a @compile function once in the evaluator with fake tensors (compiler.md,
// "Tracing"). It is the op sink while it runs, so every tensor op becomes a graph node; it
// decides which sizes become symbols (the dynamic-shape policy) and records what the call must
// match for the entry to be reused.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/graph/graph_builder.h"
#include "interp/compile/compile_log.h"
#include "interp/compile/compiled_frame.h"
#include "interp/evaluator.h"
#include "interp/op_sink.h"
#include "interp/tensor_value.h"
#include "shapes/source_loc.h"

namespace tessel::interp {

class Interpreter;

class Tracer final : public OpSink, public TraceHooks {
 public:
  Tracer(Interpreter& interp, FrameObj& frame, Entry& entry);
  ~Tracer() override;

  /// Traces the frame's function on `args` (bound to its parameters, in order) and fills the
  /// entry: plan, guards, graph executable, output template. Errors propagate unchanged.
  void trace(std::span<const Value> args, Span site);

  // OpSink
  Value emit(shapes::OpKind op, std::span<const Value> operands,
             const shapes::OpAttrs& attrs) override;
  // TraceHooks
  void enterStatement(Span span) override;
  void leaveStatement() override;
  void globalRead(ModuleObj& module, uint32_t slot, const Value& value) override;

 private:
  Value planArg(const Value& v, const std::string& path, ArgNode& node, const TypeAnn* ann);
  shapes::SymInt sizeSymbol(const std::string& source, int64_t hint, const DimMark& mark,
                            bool named, bool isSize);
  graph::ValueId operand(const Value& v);
  Value fake(graph::ValueId id);
  OutputTemplate planOutput(const Value& v);
  void log(LogCategory c, const std::string& text);
  /// Where the graph runs: the named backend's device, else the inputs' device.
  backends::Device targetDevice() const;

  Interpreter& interp_;
  FrameObj& frame_;
  Entry& entry_;
  std::unique_ptr<graph::GraphBuilder> builder_;
  std::vector<graph::ValueId> outputs_;
  std::vector<std::unique_ptr<shapes::ScopedSourceLoc>> locs_;
  std::vector<Value> inputFakes_;  // keeps input fakes alive for the trace
  /// tpu sizes with no declared max: bounded by a where fact, or else by their bucket (at the
  /// end of the trace, once the body's facts are known).
  std::vector<shapes::SymInt> unboundedTpuSizes_;
  void boundTpuSizes(shapes::ShapeEnv& env);
  std::optional<backends::Device> device_;  // the device of the tensor inputs seen so far
  std::unordered_map<const void*, graph::ValueId> constants_;  // one node per captured tensor
};

}  // namespace tessel::interp
