// GraphBuilder: appending values, shape inference under the builder's ShapeEnv, finishing.
#include "backends/graph/graph_builder.h"

#include <optional>
#include <utility>

#include "backends/graph/sym_eval.h"
#include "shapes/expr.h"
#include "shapes/shape_env.h"
#include "shapes/shape_rules.h"
#include "shapes/source_loc.h"
#include "shapes/user_error.h"

namespace tessel::graph {

GraphBuilder::GraphBuilder() : GraphBuilder(shapes::currentShapeEnv()) {}

GraphBuilder::GraphBuilder(shapes::ShapeEnv* env) {
  graph_.env_ = env;
}

void GraphBuilder::checkOperand(ValueId v) const {
  TESSEL_ASSERT(v < graph_.values_.size(), "graph operand %" + std::to_string(v) +
                                               " does not exist (values are appended in order)");
}

ValueId GraphBuilder::input(std::string name, SymShape shape, DType dtype) {
  Value v;
  v.kind = ValueKind::Input;
  v.name = std::move(name);
  v.shape = std::move(shape);
  v.dtype = dtype;
  v.inputIndex = static_cast<int>(graph_.inputs_.size());
  const ValueId id = append(std::move(v));
  graph_.inputs_.push_back(id);
  return id;
}

ValueId GraphBuilder::constant(Tensor t) {
  TESSEL_ASSERT(t.defined(), "graph constant: undefined tensor");
  Value v;
  v.kind = ValueKind::Constant;
  v.shape = SymShape(t.shape().begin(), t.shape().end());
  v.dtype = t.dtype();
  v.constant = std::move(t);
  return append(std::move(v));
}

ValueId GraphBuilder::op(OpKind op, std::span<const ValueId> args, const OpAttrs& attrs) {
  std::vector<shapes::OpSignature> sigs;
  sigs.reserve(args.size());
  for (ValueId a : args) {
    checkOperand(a);
    sigs.push_back({graph_.values_[a].shape, graph_.values_[a].dtype});
  }
  // The rule records guards, runtime asserts and unbacked symbols in the builder's env, also
  // when the caller has not installed it on this thread.
  std::optional<shapes::ScopedShapeEnv> scope;
  if (graph_.env_ && shapes::currentShapeEnv() != graph_.env_) scope.emplace(graph_.env_);
  const size_t assertsBefore = graph_.env_ ? graph_.env_->runtimeAsserts().size() : 0;
  std::vector<shapes::OpSignature> out = shapes::inferShape(op, sigs, attrs);
  TESSEL_ASSERT(out.size() == 1, "graph ops have exactly one output");
  if (graph_.env_ && graph_.env_->runtimeAsserts().size() > assertsBefore) {
    assertOrigins_.resize(assertsBefore, RuntimeAssert::kNoOrigin);
    assertOrigins_.resize(graph_.env_->runtimeAsserts().size(),
                          static_cast<ValueId>(graph_.values_.size()));
  }
  Value v;
  v.kind = ValueKind::Op;
  v.op = op;
  v.attrs = attrs;
  v.args.assign(args.begin(), args.end());
  v.shape = std::move(out[0].shape);
  v.dtype = out[0].dtype;
  return append(std::move(v));
}

void GraphBuilder::output(ValueId v) {
  checkOperand(v);
  graph_.outputs_.push_back(v);
}

ValueId GraphBuilder::append(Value v) {
  for (ValueId a : v.args) checkOperand(a);
  graph_.values_.push_back(std::move(v));
  return static_cast<ValueId>(graph_.values_.size() - 1);
}

void GraphBuilder::setRuntimeAsserts(std::vector<RuntimeAssert> asserts) {
  graph_.asserts_ = std::move(asserts);
  assertsSet_ = true;
}

Graph GraphBuilder::build() {
  shapes::ShapeEnv* env = graph_.env_;
  if (env) graph_.numSymbols_ = std::max(graph_.numSymbols_, env->numSymbols());
  if (env && !assertsSet_) {
    // Only the asserts on unbacked symbols this graph binds (an env can hold several graphs:
    // one per graph break).
    const std::vector<uint8_t> bound = unbackedSymbolsBound(graph_);
    const auto& all = env->runtimeAsserts();
    for (size_t i = 0; i < all.size(); ++i) {
      const shapes::Guard& g = all[i];
      if (!checkableWith(g.cond(), bound)) continue;
      RuntimeAssert a{g.cond(), g.text, g.failKind, g.failMessage};
      if (i < assertOrigins_.size()) a.origin = assertOrigins_[i];
      graph_.asserts_.push_back(std::move(a));
    }
  }
  return std::move(graph_);
}

}  // namespace tessel::graph
