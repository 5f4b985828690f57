// Gradient rules of the scans along one dim: cumsum and cumprod.
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

namespace {

int64_t wrap(int64_t d, int64_t rank) {
  return d < 0 ? d + rank : d;
}
// v reversed along dim (index_select with n-1, ..., 0).
Var flip(const Var& v, int64_t dim) {
  const SymInt n = v.size(dim);
  Var last = sizeScalar(v, n - SymInt(1), DType::I32);
  return indexSelect(v, dim, sub(last, arange(v, n)));
}
// The reversed inclusive sum along dim, out[i] = sum_{j >= i} v[j], as PyTorch's
// flip(cumsum(flip(v))): total - cumsum + v would be NaN everywhere on a row with an
// infinity (inf - inf), where only the sums that include it are infinite.
Var reverseCumsum(const Var& v, int64_t dim) {
  return flip(scan(OpKind::Cumsum, flip(v, dim), dim), dim);
}

}  // namespace

std::vector<Var> gradCumsum(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  if (x.dtype() != DType::F32) return {Var()};
  if (x.ndim() == 0) return {g};
  return {reverseCumsum(g, wrap(e.attrs.dim, x.ndim()))};
}

// Note [Cumprod gradient]
// dL/dx[i] = sum_{j >= i} g[j] * prod_{k <= j, k != i} x[k], computed as PyTorch's first-order
// cumprod_backward does, in three parts of each row split at its first zero z:
// - before z, reverseCumsum(g * y)[i] / x[i], with g * y taken as 0 from z on (y is 0 there,
//   or NaN where an infinity met the zero, which must not reach the earlier elements);
// - at z, prod(x[..z]) * sum_{j >= z, no other zero up to j} g[j] * prod(x[z+1..j]): the
//   prefix multiplies the sum last, so an infinite prefix times a finite sum is infinite,
//   not inf * 0 = NaN inside the sum;
// - after z, 0 (every product holds x[z] = 0).
// All of it is built from existing ops, so it also runs in a traced graph. A scan over a dim
// of size 1 is the identity, and its gradient g itself (the formula would give g * inf / inf
// = NaN at an infinite x); the size is a guard while tracing.
std::vector<Var> gradCumprod(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  const Var& y = e.outputs[0];
  if (x.dtype() != DType::F32) return {Var()};
  if (x.ndim() == 0) return {g};
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  const SymInt n = x.size(dim);
  if (shapes::evaluate(n == SymInt(1))) return {g};
  const Var zero = lit(g, 0);
  const Var isZero = binary(OpKind::Eq, x, lit(x, 0));
  const Var zerosSoFar = scan(OpKind::Cumsum, isZero, dim);
  const Var before = binary(OpKind::Eq, zerosSoFar, lit(zerosSoFar, 0, DType::I32));
  const Var oneZero = binary(OpKind::Eq, zerosSoFar, lit(zerosSoFar, 1, DType::I32));
  const Var first = binary(OpKind::LogicalAnd, isZero, oneZero);
  const Var away = div(reverseCumsum(where(before, mul(g, y), zero), dim), x);
  const Var between = binary(OpKind::LogicalAnd, oneZero, unary(OpKind::LogicalNot, isZero));
  const Var one = lit(x, 1);
  const Var suffix = scan(OpKind::Cumprod, where(between, x, one), dim);
  const Var sumAfter = sum(mul(suffix, where(oneZero, g, zero)), {dim}, true);
  const Var prefix = slice(scan(OpKind::Cumprod, where(before, x, one), dim), dim, n - SymInt(1), n);
  const Var atFirst = mul(prefix, sumAfter);
  return {where(before, away, where(first, atFirst, zero))};
}

}  // namespace tessel::backends::autodiff
