// Tracer: runs a @compile function once in the evaluator with fake tensors (compiler.md,
// "Tracing"). It is the op sink while it runs, so every tensor op becomes a graph node; it
// decides which sizes become symbols (the dynamic-shape policy) and records what the call must
// match for the entry to be reused. It traces a whole call or one region of a function with
// graph breaks; a statement it cannot put in a graph stops it with TracedBreak (regions.h).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/graph/graph_builder.h"
#include "interp/compile/compile_log.h"
#include "interp/compile/compiled_frame.h"
#include "interp/eval/evaluator.h"
#include "interp/values/graph_break.h"
#include "interp/tensors/op_sink.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/source_loc.h"

namespace tessel::interp {

class Interpreter;

/// A graph break found while tracing (interp/values/graph_break.h): the statements that were running,
/// outermost first (the traced code's own statement, then into loops, branches and callees,
/// down to the one that broke), and why.
class TracedBreak : public GraphBreak {
 public:
  TracedBreak(ErrorKind kind, std::string reason, std::vector<Stmt*> stmts, Span span)
      : GraphBreak(kind, std::move(reason)), stmts(std::move(stmts)), span(span) {}
  std::vector<Stmt*> stmts;
  Span span;  // the statement that broke
};

/// Statements [begin, end) of one block of a function, traced as one graph (a region of a
/// function with graph breaks, interp/compile/regions.h), and the frame they run in.
struct RegionTrace {
  const CBlock* block;  // the statements [begin, end) of this block (its eager form)
  uint32_t begin;
  uint32_t end;
  Frame* frame;                   // the real frame: its slots are the region's inputs
  const std::vector<bool>* reads; // the slots the statements may read before writing them
};

class Tracer final : public OpSink, public TraceHooks {
 public:
  /// `codeState`: the automatic-dynamic memory of what is traced (the frame's, or a region's).
  Tracer(Interpreter& interp, FrameObj& frame, Entry& entry, CodeState& codeState);
  ~Tracer() override;

  /// Traces the frame's function on `args` (bound to its parameters, in order) and fills the
  /// entry: plan, guards, graph executable, output template. Errors propagate unchanged; a
  /// statement that cannot be traced throws TracedBreak (without fullgraph).
  void trace(std::span<const Value> args, Span site);
  /// Traces a region: its inputs are the slots it reads, its outputs the slots it changes and
  /// how it ends (Entry::flow, Entry::slotOutputs, Entry::output for a return).
  void traceRegion(const RegionTrace& region);

  // OpSink
  Value emit(shapes::OpKind op, std::span<const Value> operands,
             const shapes::OpAttrs& attrs) override;
  // TraceHooks
  void enterStatement(Stmt* stmt, Span span) override;
  void leaveStatement() override;
  void globalRead(ModuleObj& module, uint32_t slot, const Value& value) override;
  [[noreturn]] void graphBreak(ErrorKind kind, const std::string& reason) override;
  Value captureItem(const Value& x) override;
  bool breaksAllowed() const override;

 private:
  void beginTrace();
  /// Runs `body` with this tracer as op sink and trace hooks.
  template <class F>
  void traced(F&& body);
  void finishTrace(std::chrono::steady_clock::time_point start,
                   std::chrono::steady_clock::time_point traced);  // inputs planned
  Value planArg(const Value& v, const std::string& path, ArgNode& node, const TypeAnn* ann);
  shapes::SymInt sizeSymbol(const std::string& source, int64_t hint, const DimMark& mark,
                            bool named, bool isSize);
  graph::ValueId operand(const Value& v);
  /// A symbolic float as a graph value (Note [Symbolic floats]): an input the call computes
  /// on the host, or, over unbacked sizes, ops of the graph.
  graph::ValueId floatOperand(const shapes::FloatExpr& e);
  Value fake(graph::ValueId id);
  OutputTemplate planOutput(const Value& v);
  /// A graph output holding `v` (a fake tensor, a data-dependent size).
  OutputTemplate graphOutput(const Value& v, OutputTemplate::Kind kind);
  void log(LogCategory c, const std::string& text);
  /// Where the graph runs: the named backend's device, else the inputs' device.
  backends::Device targetDevice() const;

  Interpreter& interp_;
  FrameObj& frame_;
  Entry& entry_;
  CodeState& codeState_;
  std::unique_ptr<graph::GraphBuilder> builder_;
  std::vector<Stmt*> stmts_;  // the statements running now, outermost first
  std::vector<Span> stmtSpans_;
  /// A region's input containers and objects, by identity: one that is still in a slot at the
  /// end is the input itself, not a copy (OutputTemplate::Kind::Input).
  std::unordered_map<const Object*, uint32_t> inputObjects_;
  std::vector<graph::ValueId> outputs_;
  std::vector<std::unique_ptr<shapes::ScopedSourceLoc>> locs_;
  std::vector<Value> inputFakes_;  // keeps input fakes alive for the trace
  /// tpu sizes with no declared max: bounded by a where fact, or else by their bucket (at the
  /// end of the trace, once the body's facts are known).
  std::vector<shapes::SymInt> unboundedTpuSizes_;
  void boundTpuSizes(shapes::ShapeEnv& env);
  std::optional<backends::Device> device_;  // the device of the tensor inputs seen so far
  std::unordered_map<const void*, graph::ValueId> constants_;  // one node per captured tensor
  // One node per float expression; the key keeps the expression alive, so an address is
  // never reused for another one during the trace.
  std::unordered_map<shapes::FloatExpr, graph::ValueId> floats_;
};

}  // namespace tessel::interp
