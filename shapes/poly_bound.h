// A comparison read as a bound on its non-constant part (Note [Bounds on one polynomial]).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "shapes/expr.h"
#include "shapes/value_range.h"

namespace tessel::shapes {

/// Le(k*T + c) as T <= value (upper) or T >= value, where T is the comparison's non-constant
/// part with its gcd divided out and its first coefficient made positive, so that every
/// comparison of the same T (an upper or a lower bound, any constant) has the same `terms`.
struct PolyBound {
  std::vector<std::pair<Expr, int64_t>> terms;
  bool upper;
  int64_t value;
};

/// The bound `e` states, or nullopt when e is not an Le with at least one term.
std::optional<PolyBound> polyBound(ExprContext& cx, Expr e);

/// The values of T that `bounds` (each of the same T) leave.
ValueRange intervalOf(const std::vector<PolyBound>& bounds);

}  // namespace tessel::shapes
