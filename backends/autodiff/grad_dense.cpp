// Gradient rules of the dense-model elementwise ops (erf ... softplus), as PyTorch's derivatives.
// The step functions (floor, ceil, round, trunc, sign) have a zero gradient, as in PyTorch;
// isnan/isinf/isfinite give bool and have none.
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

namespace {
const Var& x0(const GradEntry& e) {
  return e.inputs[0];
}
std::vector<Var> zeroGrad(const GradEntry& e, const Var& g) {
  // An integer input gets none (as every rule); a float one zeros of its shape (not g * 0,
  // which is NaN where g is infinite).
  if (x0(e).dtype() != DType::F32) return {Var()};
  return {full(g, g.shape(), 0.0)};
}
}  // namespace

std::vector<Var> gradErf(const GradEntry& e, const Var& g) {
  const Var& x = x0(e);  // 2 / sqrt(pi) * exp(-x^2)
  return {mul(g, mul(unary(OpKind::Exp, neg(mul(x, x))), lit(g, 1.1283791670955126)))};
}
std::vector<Var> gradFloor(const GradEntry& e, const Var& g) {
  return zeroGrad(e, g);
}
std::vector<Var> gradCeil(const GradEntry& e, const Var& g) {
  return zeroGrad(e, g);
}
std::vector<Var> gradRound(const GradEntry& e, const Var& g) {
  return zeroGrad(e, g);
}
std::vector<Var> gradTrunc(const GradEntry& e, const Var& g) {
  return zeroGrad(e, g);
}
std::vector<Var> gradSign(const GradEntry& e, const Var& g) {
  return zeroGrad(e, g);
}
std::vector<Var> gradLog1p(const GradEntry& e, const Var& g) {
  return {div(g, add(x0(e), lit(g, 1)))};
}
std::vector<Var> gradExpm1(const GradEntry& e, const Var& g) {
  return {mul(g, add(e.outputs[0], lit(g, 1)))};
}
// silu'(x) = s (1 + x (1 - s)) with s = sigmoid(x).
std::vector<Var> gradSilu(const GradEntry& e, const Var& g) {
  const Var& x = x0(e);
  Var s = unary(OpKind::Sigmoid, x);
  return {mul(g, mul(s, add(lit(g, 1), mul(x, sub(lit(g, 1), s)))))};
}
// softplus'(x) = sigmoid(x), and 1 above the threshold where the op is the identity.
std::vector<Var> gradSoftplus(const GradEntry& e, const Var& g) {
  const Var& x = x0(e);
  return {where(binary(OpKind::Gt, x, lit(g, 20)), g, mul(g, unary(OpKind::Sigmoid, x)))};
}

}  // namespace tessel::backends::autodiff
