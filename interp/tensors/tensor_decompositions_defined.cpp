// The built-ins of the decompositions of ops/elementwise.ops (selu, hardtanh, ...): each call
// binds PyTorch's arguments (tensors, and numbers with their defaults) and evaluates the
// definition's formula with emitOp, so the result is a chain of ordinary ops: eager on every
// device, fused under @compile, differentiated through the ops' own rules.
#include <array>
#include <utility>

#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "shapes/elementwise_defs.h"
#include "shapes/op_formula.h"

namespace tessel::interp {

namespace {

using shapes::DecompositionDef;
using shapes::FormulaNode;

// The formula over the bound arguments: values[i] is argument d.args[i] (at most 4, so a scan
// of the names beats building a map at every call).
Value eval(const FormulaNode& n, const DecompositionDef& d, const std::array<Value, 4>& values) {
  switch (n.kind) {
    case FormulaNode::Kind::Number:
      return n.integer ? Value::integer(static_cast<int64_t>(n.number)) : compose::real(n.number);
    case FormulaNode::Kind::Name:
      for (size_t i = 0; i < d.numArgs; ++i)
        if (n.name == d.args[i]) return values[i];
      TESSEL_ASSERT(false, std::string(d.name) + ": the formula names no argument " + n.name);
      return Value();
    case FormulaNode::Kind::Op: {
      std::vector<Value> xs;
      for (const FormulaNode& k : n.kids) xs.push_back(eval(k, d, values));
      return emitOp(n.op, xs);
    }
  }
  return Value();
}

Value callDecomposition(const DecompositionDef& d, const FormulaNode& formula, CallArgs& raw) {
  SelfArgs s(raw);
  size_t required = 0;
  while (required < d.numArgs && d.defaults[required] == shapes::kTensorArg) ++required;
  const char* const* n = d.args;
  const ArgBinder b(NativeSignature{d.name, n, d.numArgs, required, d.numArgs, false, nullptr},
                    s.args());
  std::array<Value, 4> values;
  std::vector<Value> tensors;
  bool defaults = true;
  for (size_t i = 0; i < d.numArgs; ++i) {
    if (d.defaults[i] == shapes::kTensorArg) {
      values[i] = tensorArg(b.at(i), std::string(d.name) + "(): " + n[i]);
      tensors.push_back(values[i]);
    } else {
      const double v = b.has(i) ? b.toFloat(i) : d.defaults[i];
      defaults = defaults && v == d.defaults[i];
      values[i] = compose::real(v);
    }
  }
  if (d.op && defaults) return emitOp(*d.op, tensors);
  return eval(formula, d, values);
}

template <size_t I>
Value decompositionNative(Interpreter&, CallArgs& raw) {
  static const DecompositionDef& d = shapes::decompositionDefs()[I];
  static const FormulaNode formula = shapes::parseFormula(d.formula);
  return callDecomposition(d, formula, raw);
}

// How many decompositions the table has, known when this file compiles: one native each.
constexpr size_t kCount =
#include "ops_gen/decompositions_count.inc"
    ;

template <size_t... I>
std::array<TensorNative, kCount> natives(std::index_sequence<I...>) {
  return {TensorNative{shapes::decompositionDefs()[I].name, decompositionNative<I>, true}...};
}

}  // namespace

std::span<const TensorNative> tensorDecompositionDefinedNatives() {
  static const std::array<TensorNative, kCount> table = natives(std::make_index_sequence<kCount>());
  return table;
}

}  // namespace tessel::interp
