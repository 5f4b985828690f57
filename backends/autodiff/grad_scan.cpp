// Gradient rules of the scans along one dim: cumsum and cumprod.
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

namespace {

int64_t wrap(int64_t d, int64_t rank) {
  return d < 0 ? d + rank : d;
}
// The reversed inclusive sum along dim, out[i] = sum_{j >= i} v[j], as total - cumsum + v
// (there is no flip op; this costs one scan and one reduction).
Var reverseCumsum(const Var& v, int64_t dim) {
  return sub(add(v, sum(v, {dim}, true)), scan(OpKind::Cumsum, v, dim));
}

}  // namespace

std::vector<Var> gradCumsum(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  if (x.dtype() != DType::F32) return {Var()};
  if (x.ndim() == 0) return {g};
  return {reverseCumsum(g, wrap(e.attrs.dim, x.ndim()))};
}

// Note [Cumprod gradient]
// dL/dx[i] = sum_{j >= i} g[j] * prod_{k <= j, k != i} x[k]. Where x[i] != 0 that is
// reverseCumsum(g * y)[i] / x[i] (y the output; every y[j] past a zero is 0, which is right).
// At the first zero z of a row the division fails, but prod_{k <= j, k != z} x[k] is the
// cumprod of x with its zeros replaced by 1, for exactly the j whose prefix holds one zero:
// dx[z] = sum_j [zeros in x[..j] == 1] * g[j] * cumprod(x with 1 for 0)[j]. Every later zero
// gets 0. All of it is built from existing ops, so it also runs in a traced graph.
std::vector<Var> gradCumprod(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  const Var& y = e.outputs[0];
  if (x.dtype() != DType::F32) return {Var()};
  if (x.ndim() == 0) return {g};
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  Var isZero = binary(OpKind::Eq, x, lit(x, 0));
  Var safeX = where(isZero, lit(x, 1), x);
  Var away = div(reverseCumsum(mul(g, y), dim), safeX);
  Var zerosSoFar = scan(OpKind::Cumsum, isZero, dim);
  Var oneZero = binary(OpKind::Eq, zerosSoFar, lit(zerosSoFar, 1, DType::I32));
  Var filled = scan(OpKind::Cumprod, safeX, dim);
  Var atFirst = sum(where(oneZero, mul(g, filled), lit(g, 0)), {dim}, true);
  Var first = binary(OpKind::LogicalAnd, isZero, oneZero);
  return {where(isZero, where(first, atFirst, lit(g, 0)), away)};
}

}  // namespace tessel::backends::autodiff
