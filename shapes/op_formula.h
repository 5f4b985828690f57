// Formulas over the ops of the table, as the op definitions write them (ops/*.ops): a gradient
// (`g * cos(input)`) or a decomposition (`input * tanh(softplus(input))`). Numbers, names,
// + - * / and comparisons with the usual precedence, unary minus, parentheses and calls of ops
// by their language names (cos(x), where(c, a, b), clamp(x, lo, hi)). Parsed here, evaluated
// by whoever holds the values: autodiff over Vars (backends/autodiff/grad_formula.cpp), the
// interpreter over Values (interp/tensors/tensor_decompositions_defined.cpp).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "shapes/op_kind.h"

namespace tessel::shapes {

struct FormulaNode {
  enum class Kind { Number, Name, Op } kind = Kind::Number;
  double number = 0;
  bool integer = false;  // Number written without '.' or an exponent (a weak int, as 2 in x * 2)
  std::string name;  // Name: the variable
  OpKind op{};       // Op: the op applied to kids
  std::vector<FormulaNode> kids;
};

/// The formula's tree; std::invalid_argument naming the formula and what is wrong when it does
/// not parse or calls something that is not an op.
FormulaNode parseFormula(const std::string& text);

/// The first name the formula uses that is not in `names`, or "" when it uses only those.
std::string unknownName(const FormulaNode& n, const std::vector<std::string>& names);

}  // namespace tessel::shapes
