// Note [Bounds on one polynomial]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A loop that walks up to a size, `while j < x.shape[0] * x.shape[1]`, asks T > 0, T > 1, T > 2
// ... of one non-constant part T (here s0*s1) and records a guard each time. Whether T > j + 1
// follows from the guard T > j is a question about which values T can take (a product skips
// values), which Z3's nonlinear arithmetic answers slowly (tens of ms a query, a few seconds
// for a loop of 100) or not at all; and the answer only decides whether one more guard is
// recorded, never which way the branch goes (the hint does that). So, at trace time
// (ShapeEnv::decide): once a guard on T exists, the guards on T give it an interval; when that
// interval settles the comparison, that is the answer, and when it does not, the comparison is
// left undecided without asking Z3 and its guard is recorded. At the end, finalGuards keeps only
// the tightest upper and lower bound per T (as it always did per symbol) before Z3 prunes the
// rest, so the loop's guards shrink to a range of T. The first comparison on a T still goes to
// Z3, so guards implied by other relations are pruned as before.
#include "shapes/poly_bound.h"

#include <numeric>

namespace tessel::shapes {

std::optional<PolyBound> polyBound(ExprContext& cx, Expr e) {
  if (!e || e->kind != ExprKind::Le) return std::nullopt;
  auto p = cx.toPoly(e->args[0]);
  if (p.terms.empty()) return std::nullopt;
  int64_t g = 0;
  for (const auto& [m, k] : p.terms) g = std::gcd(g, k < 0 ? -k : k);
  const int64_t sign = p.terms[0].second > 0 ? 1 : -1;
  PolyBound b;
  for (const auto& [m, k] : p.terms) b.terms.emplace_back(m, k / (g * sign));
  // p = sign*g*T + c <= 0
  ValueRange r = rangeOfLinearLe(sign * g, p.c);
  b.upper = sign > 0;
  b.value = b.upper ? r.hi : r.lo;
  return b;
}

ValueRange intervalOf(const std::vector<PolyBound>& bounds) {
  ValueRange r = ValueRange::all();
  for (const PolyBound& b : bounds)
    r = r.intersect(b.upper ? ValueRange{ValueRange::kNegInf, b.value}
                            : ValueRange{b.value, ValueRange::kPosInf});
  return r;
}

}  // namespace tessel::shapes
