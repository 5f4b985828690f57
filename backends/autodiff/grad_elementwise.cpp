// Gradient rules of elementwise ops (unary, binary, where, clamp) and conversions.
#include <cmath>

#include "backends/autodiff/grad_rules.h"
#include "backends/ops.h"

namespace tessel::backends::autodiff {

using namespace ops;  // NOLINT: rules read like the math
using shapes::OpKind;

namespace {
const Tensor& x0(const TapeEntry& e) {
  return e.inputs[0];
}
const Tensor& y0(const TapeEntry& e) {
  return e.outputs[0];
}
Tensor asFloat(const Tensor& b) {
  return cast(b, DType::F32);
}
bool isFloat(const Tensor& t) {
  return t.dtype() == DType::F32;
}
// The gradient for an input, or none when the input is not f32 (integer operands get none).
Tensor forInput(const Tensor& in, Tensor g) {
  return isFloat(in) ? g : Tensor();
}
}  // namespace

std::vector<Tensor> gradNeg(const TapeEntry& e, const Tensor& g) {
  return {neg(g)};
}
std::vector<Tensor> gradExp(const TapeEntry& e, const Tensor& g) {
  return {mul(g, y0(e))};
}
std::vector<Tensor> gradLog(const TapeEntry& e, const Tensor& g) {
  return {div(g, x0(e))};
}
std::vector<Tensor> gradSqrt(const TapeEntry& e, const Tensor& g) {
  return {div(mul(g, scalar(0.5)), y0(e))};
}
std::vector<Tensor> gradRsqrt(const TapeEntry& e, const Tensor& g) {
  const Tensor& y = y0(e);  // d/dx x^-1/2 = -1/2 x^-3/2 = -1/2 y^3
  return {mul(mul(g, scalar(-0.5)), mul(y, mul(y, y)))};
}
std::vector<Tensor> gradAbs(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = x0(e);  // sign(x), 0 at 0 like PyTorch
  Tensor sign =
      sub(asFloat(binary(OpKind::Gt, x, scalar(0))), asFloat(binary(OpKind::Lt, x, scalar(0))));
  return {mul(g, sign)};
}
std::vector<Tensor> gradSin(const TapeEntry& e, const Tensor& g) {
  return {mul(g, unary(OpKind::Cos, x0(e)))};
}
std::vector<Tensor> gradCos(const TapeEntry& e, const Tensor& g) {
  return {neg(mul(g, unary(OpKind::Sin, x0(e))))};
}
std::vector<Tensor> gradTanh(const TapeEntry& e, const Tensor& g) {
  const Tensor& y = y0(e);
  return {mul(g, sub(scalar(1), mul(y, y)))};
}
std::vector<Tensor> gradSigmoid(const TapeEntry& e, const Tensor& g) {
  const Tensor& y = y0(e);
  return {mul(g, mul(y, sub(scalar(1), y)))};
}
std::vector<Tensor> gradRelu(const TapeEntry& e, const Tensor& g) {
  return {mul(g, asFloat(binary(OpKind::Gt, x0(e), scalar(0))))};
}
// gelu(x) = x * Phi(x), so gelu'(x) = Phi(x) + x * phi(x); Phi(x) is read off the output as
// gelu(x) / x (1/2 at x = 0), which needs no erf op.
std::vector<Tensor> gradGelu(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = x0(e);
  Tensor isZero = binary(OpKind::Eq, x, scalar(0));
  Tensor safeX = where(isZero, scalar(1), x);
  Tensor cdf = where(isZero, scalar(0.5), div(y0(e), safeX));
  Tensor pdf = mul(unary(OpKind::Exp, mul(mul(x, x), scalar(-0.5))), scalar(0.3989422804014327));
  return {mul(g, add(cdf, mul(x, pdf)))};
}

std::vector<Tensor> gradAdd(const TapeEntry& e, const Tensor& g) {
  return {forInput(e.inputs[0], g), forInput(e.inputs[1], g)};
}
std::vector<Tensor> gradSub(const TapeEntry& e, const Tensor& g) {
  return {forInput(e.inputs[0], g), forInput(e.inputs[1], neg(g))};
}
std::vector<Tensor> gradMul(const TapeEntry& e, const Tensor& g) {
  const Tensor &a = e.inputs[0], &b = e.inputs[1];
  return {forInput(a, mul(g, b)), forInput(b, mul(g, a))};
}
std::vector<Tensor> gradDiv(const TapeEntry& e, const Tensor& g) {
  const Tensor &a = e.inputs[0], &b = e.inputs[1];
  return {forInput(a, div(g, b)), forInput(b, neg(div(mul(g, y0(e)), b)))};
}
// a % b = a - b * floor(a / b): d/da = 1, d/db = -floor(a / b).
std::vector<Tensor> gradMod(const TapeEntry& e, const Tensor& g) {
  const Tensor &a = e.inputs[0], &b = e.inputs[1];
  return {forInput(a, g), forInput(b, neg(mul(g, binary(OpKind::FloorDiv, a, b))))};
}
std::vector<Tensor> gradPow(const TapeEntry& e, const Tensor& g) {
  const Tensor &a = e.inputs[0], &b = e.inputs[1];
  if (!isFloat(y0(e))) return {Tensor(), Tensor()};
  Tensor ga = mul(g, mul(b, binary(OpKind::Pow, a, sub(b, scalar(1)))));
  // d/db a^b = a^b log a, taken as 0 where a <= 0 (PyTorch does the same at a == 0).
  Tensor positive = binary(OpKind::Gt, a, scalar(0));
  Tensor logA = unary(OpKind::Log, where(positive, a, scalar(1)));
  Tensor gb = mul(g, where(positive, mul(y0(e), logA), scalar(0)));
  return {forInput(a, ga), forInput(b, gb)};
}
// Ties split the gradient evenly between both operands, like PyTorch.
static std::vector<Tensor> gradExtreme(const TapeEntry& e, const Tensor& g, OpKind wins) {
  const Tensor &a = e.inputs[0], &b = e.inputs[1];
  Tensor share =
      add(asFloat(binary(wins, a, b)), mul(asFloat(binary(OpKind::Eq, a, b)), scalar(0.5)));
  return {forInput(a, mul(g, share)), forInput(b, mul(g, sub(scalar(1), share)))};
}
std::vector<Tensor> gradMaximum(const TapeEntry& e, const Tensor& g) {
  return gradExtreme(e, g, OpKind::Gt);
}
std::vector<Tensor> gradMinimum(const TapeEntry& e, const Tensor& g) {
  return gradExtreme(e, g, OpKind::Lt);
}

std::vector<Tensor> gradWhere(const TapeEntry& e, const Tensor& g) {
  const Tensor& c = e.inputs[0];
  Tensor zero = scalar(0);
  return {Tensor(), forInput(e.inputs[1], where(c, g, zero)),
          forInput(e.inputs[2], where(c, zero, g))};
}
// clamp(x, lo, hi) = min(max(x, lo), hi): the gradient goes to whichever operand is returned.
std::vector<Tensor> gradClamp(const TapeEntry& e, const Tensor& g) {
  const Tensor &x = e.inputs[0], &lo = e.inputs[1], &hi = e.inputs[2];
  Tensor toHi = binary(OpKind::Gt, binary(OpKind::Maximum, x, lo), hi);
  Tensor toLo =
      binary(OpKind::LogicalAnd, binary(OpKind::Lt, x, lo), unary(OpKind::LogicalNot, toHi));
  Tensor toX = unary(OpKind::LogicalNot, binary(OpKind::LogicalOr, toLo, toHi));
  Tensor zero = scalar(0);
  return {forInput(x, where(toX, g, zero)), forInput(lo, where(toLo, g, zero)),
          forInput(hi, where(toHi, g, zero))};
}

std::vector<Tensor> gradCast(const TapeEntry& e, const Tensor& g) {
  return {forInput(x0(e), g)};
}
std::vector<Tensor> gradContiguous(const TapeEntry& e, const Tensor& g) {
  return {g};
}

}  // namespace tessel::backends::autodiff
