// Gradient rules of the elementwise ops written by hand (binary, where, clamp) and conversions;
// the ops of ops/elementwise.ops have formulas there.
#include <cmath>

#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

namespace {
const Var& x0(const GradEntry& e) {
  return e.inputs[0];
}
const Var& y0(const GradEntry& e) {
  return e.outputs[0];
}
bool isFloat(const Var& t) {
  return t.dtype() == DType::F32;
}
// The gradient for an input, or none when the input is not f32 (integer operands get none).
Var forInput(const Var& in, Var g) {
  return isFloat(in) ? g : Var();
}
}  // namespace

// d/dg g * gelu'(x) = gelu'(x); d/dx = g * gelu''(x), gelu''(x) = phi(x) * (2 - x^2).
std::vector<Var> gradGeluBackward(const GradEntry& e, const Var& gy) {
  const Var &g = e.inputs[0], &x = e.inputs[1];
  Var pdf = mul(unary(OpKind::Exp, mul(mul(x, x), lit(gy, -0.5))), lit(gy, 0.3989422804014327));
  Var second = mul(pdf, sub(lit(gy, 2), mul(x, x)));
  return {forInput(g, binary(OpKind::GeluBackward, gy, x)), forInput(x, mul(gy, mul(g, second)))};
}

std::vector<Var> gradAdd(const GradEntry& e, const Var& g) {
  return {forInput(e.inputs[0], g), forInput(e.inputs[1], g)};
}
std::vector<Var> gradSub(const GradEntry& e, const Var& g) {
  return {forInput(e.inputs[0], g), forInput(e.inputs[1], neg(g))};
}
std::vector<Var> gradMul(const GradEntry& e, const Var& g) {
  const Var &a = e.inputs[0], &b = e.inputs[1];
  return {forInput(a, mul(g, b)), forInput(b, mul(g, a))};
}
std::vector<Var> gradDiv(const GradEntry& e, const Var& g) {
  const Var &a = e.inputs[0], &b = e.inputs[1];
  return {forInput(a, div(g, b)), forInput(b, neg(div(mul(g, y0(e)), b)))};
}
// a % b = a - b * floor(a / b): d/da = 1, d/db = -floor(a / b).
std::vector<Var> gradMod(const GradEntry& e, const Var& g) {
  const Var &a = e.inputs[0], &b = e.inputs[1];
  return {forInput(a, g), forInput(b, neg(mul(g, binary(OpKind::FloorDiv, a, b))))};
}
std::vector<Var> gradPow(const GradEntry& e, const Var& g) {
  const Var &a = e.inputs[0], &b = e.inputs[1];
  if (!isFloat(y0(e))) return {Var(), Var()};
  Var zero = lit(g, 0);
  // d/da a^b = b a^(b-1), taken as 0 where b == 0 (0 * 0^-1 would be NaN at a == 0), and
  // d/db a^b = a^b log a, taken as 0 where a == 0 and b >= 0 (0 * log 0): PyTorch's masks. A
  // negative base keeps log's NaN, as in PyTorch.
  Var ga = where(binary(OpKind::Eq, b, zero), zero,
                 mul(g, mul(b, binary(OpKind::Pow, a, sub(b, lit(g, 1))))));
  Var atZero = binary(OpKind::LogicalAnd, binary(OpKind::Eq, a, zero), binary(OpKind::Ge, b, zero));
  Var gb = where(atZero, zero, mul(g, mul(y0(e), unary(OpKind::Log, a))));
  return {forInput(a, ga), forInput(b, gb)};
}
// PyTorch's formula (derivatives.yaml): each operand gets g, halved at a tie, and nothing
// where it loses; at a NaN neither loses, so both get g. Selected with where() (gradRelu's
// note: inf * 0 would be NaN). `wins` is Gt for maximum, Lt for minimum.
static std::vector<Var> gradExtreme(const GradEntry& e, const Var& g, OpKind wins) {
  const Var &a = e.inputs[0], &b = e.inputs[1];
  Var zero = lit(g, 0);
  Var shared = where(binary(OpKind::Eq, a, b), mul(g, lit(g, 0.5)), g);
  Var ga = where(binary(wins, b, a), zero, shared);
  Var gb = where(binary(wins, a, b), zero, shared);
  return {forInput(a, ga), forInput(b, gb)};
}
std::vector<Var> gradMaximum(const GradEntry& e, const Var& g) {
  return gradExtreme(e, g, OpKind::Gt);
}
std::vector<Var> gradMinimum(const GradEntry& e, const Var& g) {
  return gradExtreme(e, g, OpKind::Lt);
}

std::vector<Var> gradWhere(const GradEntry& e, const Var& g) {
  const Var& c = e.inputs[0];
  Var zero = lit(g, 0);
  return {Var(), forInput(e.inputs[1], where(c, g, zero)),
          forInput(e.inputs[2], where(c, zero, g))};
}
// clamp(x, lo, hi) = min(max(x, lo), hi): the gradient goes to whichever operand is returned,
// with PyTorch's masks (clamp_backward, clamp_backward_min_max): x where lo <= x <= hi (so not
// at a NaN x), lo where x < lo < hi, hi where x > hi or hi < lo.
std::vector<Var> gradClamp(const GradEntry& e, const Var& g) {
  const Var &x = e.inputs[0], &lo = e.inputs[1], &hi = e.inputs[2];
  Var toHi = binary(OpKind::LogicalOr, binary(OpKind::Gt, x, hi), binary(OpKind::Lt, hi, lo));
  Var toLo = binary(OpKind::LogicalAnd, binary(OpKind::Lt, x, lo), binary(OpKind::Lt, lo, hi));
  Var toX = binary(OpKind::LogicalAnd, binary(OpKind::Ge, x, lo), binary(OpKind::Le, x, hi));
  Var zero = lit(g, 0);
  return {forInput(x, where(toX, g, zero)), forInput(lo, where(toLo, g, zero)),
          forInput(hi, where(toHi, g, zero))};
}

std::vector<Var> gradCast(const GradEntry& e, const Var& g) {
  return {forInput(x0(e), g)};
}
std::vector<Var> gradContiguous(const GradEntry& e, const Var& g) {
  return {g};
}

}  // namespace tessel::backends::autodiff
