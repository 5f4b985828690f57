// GraphBuilder: what the tracer calls to record a graph, one op at a time, with each op's
// output signature computed by its shape rule (so shape errors surface at trace time).
#pragma once

#include <initializer_list>
#include <span>
#include <string>

#include "backends/graph/graph.h"

namespace tessel::graph {

class GraphBuilder {
 public:
  /// Records into the ShapeEnv installed on this thread (shapes::currentShapeEnv(); the
  /// tracer runs under a ScopedShapeEnv), or none when every size is constant.
  GraphBuilder();
  /// Records into `env` (installed around every shape rule call).
  explicit GraphBuilder(shapes::ShapeEnv* env);

  /// A placeholder for an argument tensor; `name` is its source name ("x"). The shape holds
  /// the symbols the tracer created for it (env->createSymbol("x.shape[0]", ...)).
  ValueId input(std::string name, SymShape shape, DType dtype);
  /// A concrete tensor captured at trace time.
  ValueId constant(Tensor t);
  /// Appends `op(args..., attrs)`. The output signature comes from shapes::inferShape under
  /// the builder's ShapeEnv: guards and runtime asserts go there, data-dependent ops get
  /// unbacked sizes (unless attrs.outputSize is set), and bad operands throw the rule's
  /// UserError (ShapeError, TypeError, ...) with nothing appended.
  ValueId op(OpKind op, std::span<const ValueId> args, const OpAttrs& attrs = {});
  ValueId op(OpKind op, std::initializer_list<ValueId> args, const OpAttrs& attrs = {}) {
    return this->op(op, std::span<const ValueId>(args.begin(), args.size()), attrs);
  }
  /// Marks a value as a graph output (in call order; a value may be returned twice).
  void output(ValueId v);

  const Value& value(ValueId v) const { return graph_.value(v); }
  const SymShape& shape(ValueId v) const { return graph_.value(v).shape; }
  DType dtype(ValueId v) const { return graph_.value(v).dtype; }
  size_t size() const { return graph_.size(); }
  shapes::ShapeEnv* env() const { return graph_.env_; }

  /// For passes: appends a value whose signature the caller vouches for (no shape rule runs,
  /// so no guard or symbol is created). Operands must already exist.
  ValueId append(Value v);
  /// Copies the runtime asserts of another graph (passes keep them).
  void setRuntimeAsserts(std::vector<RuntimeAssert> asserts);

  /// The finished graph. Captures the runtime asserts the ShapeEnv holds on symbols this graph
  /// binds (unless setRuntimeAsserts was called) and the ShapeEnv's symbol count.
  Graph build();

 private:
  void checkOperand(ValueId v) const;
  Graph graph_;
  bool assertsSet_ = false;
  /// Per runtime assert of the env (by its index there): the value whose rule made it, or
  /// RuntimeAssert::kNoOrigin (made before this builder, or by no op of it).
  std::vector<ValueId> assertOrigins_;
};

}  // namespace tessel::graph
