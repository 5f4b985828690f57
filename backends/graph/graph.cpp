// Graph: value-kind names, node counts and the op classifications passes share.
#include "backends/graph/graph.h"

#include <algorithm>

#include "backends/graph/fused_program.h"
#include "backends/graph/sym_eval.h"
#include "shapes/elementwise_defs.h"
#include "shapes/expr.h"
#include "shapes/shape_env.h"

namespace tessel::graph {

const char* valueKindName(ValueKind k) {
  switch (k) {
#define TESSEL_X(kind, ...) \
  case ValueKind::kind:     \
    return #kind;
    TESSEL_VALUE_KINDS(TESSEL_X)
#undef TESSEL_X
  }
  return "?";
}

size_t Graph::numNodes() const {
  size_t n = 0;
  for (const Value& v : values_) n += v.isNode() ? 1 : 0;
  return n;
}

std::vector<uint32_t> unbackedSymbolsOf(const Value& v) {
  std::vector<uint32_t> out = unbackedSymbolsOf(v.shape);
  if (v.kind == ValueKind::Op && v.op == OpKind::Item)
    for (uint32_t s : unbackedSymbolsOf(shapes::SymShape{v.attrs.index}))
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  return out;
}

std::vector<uint8_t> unbackedSymbolsBound(const Graph& g, std::span<const uint8_t> live) {
  std::vector<uint8_t> bound(g.env() ? g.env()->numSymbols() : 0, 0);
  for (ValueId id = 0; id < g.size(); ++id)
    if (live.empty() || live[id])
      for (uint32_t s : unbackedSymbolsOf(g.value(id))) bound[s] = 1;
  return bound;
}

bool checkableWith(const shapes::SymBool& cond, std::span<const uint8_t> bound) {
  if (!cond.expr()) return true;
  const shapes::ShapeEnv* env = cond.env();
  for (uint32_t s : cond.expr()->syms)
    if (env && env->symbol(s).unbacked && (s >= bound.size() || !bound[s])) return false;
  return true;
}

bool isRandomOp(OpKind op) {
  return op == OpKind::Rand || op == OpKind::Randn || op == OpKind::Randint ||
         op == OpKind::Dropout || op == OpKind::Randperm || op == OpKind::Multinomial ||
         op == OpKind::Bernoulli;
}

shapes::SymInt randomWordCount(OpKind op, const shapes::OpAttrs& attrs,
                               const shapes::SymShape& firstInput, const shapes::SymShape& out) {
  const bool replacement = !attrs.scalars.empty() && attrs.scalars[0] != 0;
  if (op == OpKind::Multinomial && !replacement) {
    // rows * k: the rows are the output's (1 for 1-D probs), k the input's last size.
    shapes::SymShape rowsByK(out.begin(), out.end() - 1);
    rowsByK.push_back(firstInput.back());
    return shapes::product(rowsByK);
  }
  return shapes::product(out);
}

bool mayRaiseOnData(const Value& v) {
  // Integer floordiv, mod and pow check their divisors and exponents (cpu binary kernels and
  // fused programs alike); f32 follows IEEE and raises nothing.
  auto integerArithmetic = [](OpKind op, DType dtype) {
    const shapes::ElementwiseDef* d = shapes::elementwiseDef(op);
    return (op == OpKind::FloorDiv || op == OpKind::Mod || op == OpKind::Pow ||
            (d && d->intDivisor)) &&
           dtype != DType::F32;
  };
  if (v.kind == ValueKind::Fused) {
    for (const FusedInstr& i : v.fused->code)
      if (i.kind == FusedInstr::Kind::Op && integerArithmetic(i.op, i.dtype)) return true;
    return false;
  }
  if (v.kind != ValueKind::Op) return false;
  return integerArithmetic(v.op, v.dtype) || v.op == OpKind::IndexSelect ||
         v.op == OpKind::Gather || v.op == OpKind::CrossEntropy || v.op == OpKind::MaskedScatter ||
         v.op == OpKind::IndexAdd || v.op == OpKind::IndexCopy || v.op == OpKind::Scatter ||
         v.op == OpKind::ScatterAdd || v.op == OpKind::ScatterReduce;
}

bool isElementwise(OpKind op) {
  switch (shapes::opCategory(op)) {
    case shapes::OpCategory::Unary:
    case shapes::OpCategory::Binary:
    case shapes::OpCategory::Ternary:
      return true;
    default:
      return op == OpKind::Cast;
  }
}

}  // namespace tessel::graph
