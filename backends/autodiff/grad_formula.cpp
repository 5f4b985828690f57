// Gradient formulas (shapes/op_formula.h) evaluated over Vars: g is the output's gradient, out
// the op's result, and the op's arguments go by their names.
#include "backends/autodiff/grad_formula.h"

#include <array>
#include <memory>
#include <stdexcept>

#include "backends/autodiff/grad_ops.h"
#include "shapes/elementwise_defs.h"
#include "shapes/op_formula.h"
#include "shapes/user_error.h"

namespace tessel::backends::autodiff {

namespace {

using shapes::FormulaNode;

struct Env {
  const GradEntry& e;
  const Var& g;
  const shapes::ElementwiseDef& def;
};

Var eval(const FormulaNode& n, const Env& env) {
  switch (n.kind) {
    case FormulaNode::Kind::Number:
      return lit(env.g, n.number);
    case FormulaNode::Kind::Name:
      if (n.name == "g") return env.g;
      if (n.name == "out") return env.e.outputs[0];
      for (int i = 0; i < env.def.arity; ++i)
        if (n.name == env.def.args[i]) return env.e.inputs[i];
      TESSEL_ASSERT(false, "gradient formula of " + std::string(env.def.name) + ": unknown name " +
                               n.name);
      return {};
    case FormulaNode::Kind::Op: {
      std::vector<Var> xs;
      for (const FormulaNode& k : n.kids) xs.push_back(eval(k, env));
      if (n.op == OpKind::Where) return where(xs[0], xs[1], xs[2]);
      return opOf(n.op, xs, {});
    }
  }
  return {};
}

// Every formula of ops/elementwise.ops, parsed at first use: [op][argument].
using Parsed = std::array<std::array<std::unique_ptr<FormulaNode>, 3>, shapes::kNumOps>;
const Parsed& parsedFormulas() {
  static const Parsed* table = [] {
    auto* t = new Parsed();
    for (const shapes::ElementwiseDef& d : shapes::elementwiseDefs())
      for (int i = 0; i < d.arity; ++i)
        if (d.grads[i])
          (*t)[static_cast<size_t>(d.op)][i] = std::make_unique<FormulaNode>(shapes::parseFormula(d.grads[i]));
    return t;
  }();
  return *table;
}

}  // namespace

std::vector<Var> gradDefined(const GradEntry& e, const Var& g) {
  const shapes::ElementwiseDef* def = shapes::elementwiseDef(e.op);
  TESSEL_ASSERT(def, "gradDefined: not a defined op");
  const auto& formulas = parsedFormulas()[static_cast<size_t>(e.op)];
  const Env env{e, g, *def};
  std::vector<Var> out(def->arity);
  for (int i = 0; i < def->arity; ++i)
    if (formulas[i] && e.inputs[i].dtype() == DType::F32) {
      // A constant gradient (floor's 0) has g's shape, not a scalar's.
      const FormulaNode& f = *formulas[i];
      out[i] = f.kind == FormulaNode::Kind::Number ? full(g, g.shape(), f.number) : eval(f, env);
    }
  return out;
}

std::string checkGradFormula(const std::string& formula, const std::vector<std::string>& names) {
  try {
    std::vector<std::string> known = names;
    known.push_back("g");
    known.push_back("out");
    const std::string bad = shapes::unknownName(shapes::parseFormula(formula), known);
    if (!bad.empty()) return "gradient formula '" + formula + "': unknown name " + bad;
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace tessel::backends::autodiff
