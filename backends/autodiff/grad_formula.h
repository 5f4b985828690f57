// Gradient rules written as formulas in the op definitions (ops/elementwise.ops: `grad input:
// g * cos(input)`), parsed once and evaluated over Vars, so they run eagerly, in traced graphs
// and under higher-order differentiation like the hand-written rules.
#pragma once

#include <string>
#include <vector>

#include "backends/autodiff/emitter.h"

namespace tessel::backends::autodiff {

/// The rule of every differentiable op of ops/elementwise.ops: each argument's gradient from its
/// formula (none for an argument without one, or whose dtype is not f32).
std::vector<Var> gradDefined(const GradEntry& e, const Var& g);

/// Checks that formula parses and names only known ops and `names` (for the op sweep);
/// returns the error, or "" when it is well formed.
std::string checkGradFormula(const std::string& formula, const std::vector<std::string>& names);

}  // namespace tessel::backends::autodiff
