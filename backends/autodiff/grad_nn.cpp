// Gradient rules of matmul and the neural-network ops.
#include "backends/autodiff/grad_rules.h"
#include "backends/ops.h"

namespace tessel::backends::autodiff {

using namespace ops;  // NOLINT: rules read like the math
using shapes::OpKind;

namespace {
int64_t wrap(int64_t d, int64_t rank) {
  return d < 0 ? d + rank : d;
}
Tensor mT(const Tensor& t) {
  return transpose(t, -1, -2);
}
}  // namespace

// With 1-D operands promoted as in the kernel (a -> [1, K], b -> [K, 1]):
// dA = dY @ B^T and dB = A^T @ dY, summed over broadcast batch dims by gradients().
std::vector<Tensor> gradMatmul(const TapeEntry& e, const Tensor& g) {
  const Tensor &a = e.inputs[0], &b = e.inputs[1];
  if (e.outputs[0].dtype() != DType::F32) return {Tensor(), Tensor()};
  Tensor a2 = a.ndim() == 1 ? unsqueeze(a, 0) : a;
  Tensor b2 = b.ndim() == 1 ? unsqueeze(b, 1) : b;
  Tensor g2 = g;
  if (a.ndim() == 1) g2 = unsqueeze(g2, g2.ndim() - (b.ndim() == 1 ? 0 : 1));
  if (b.ndim() == 1) g2 = unsqueeze(g2, g2.ndim());
  Tensor ga = matmul(g2, mT(b2));
  Tensor gb = matmul(mT(a2), g2);
  ga = reshape(sumToShape(ga, a2.shape()), a.shape());
  gb = reshape(sumToShape(gb, b2.shape()), b.shape());
  return {ga, gb};
}

std::vector<Tensor> gradSoftmax(const TapeEntry& e, const Tensor& g) {
  const Tensor& y = e.outputs[0];
  const int64_t dim = wrap(e.attrs.dim, std::max<int64_t>(y.ndim(), 1));
  if (y.ndim() == 0) return {mul(g, scalar(0))};
  return {mul(y, sub(g, sum(mul(g, y), {dim}, true)))};
}
std::vector<Tensor> gradLogSoftmax(const TapeEntry& e, const Tensor& g) {
  const Tensor& y = e.outputs[0];
  if (y.ndim() == 0) return {mul(g, scalar(0))};
  const int64_t dim = wrap(e.attrs.dim, y.ndim());
  return {sub(g, mul(unary(OpKind::Exp, y), sum(g, {dim}, true)))};
}

// Recomputes the normalized input, then the standard layer-norm backward:
// dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) over the normalized dims.
std::vector<Tensor> gradLayerNorm(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = e.inputs[0];
  const int64_t k = static_cast<int64_t>(e.attrs.shape.size());
  Dims dims;
  for (int64_t d = x.ndim() - k; d < x.ndim(); ++d) dims.push_back(d);
  Tensor xc = sub(x, mean(x, dims, true));
  Tensor rstd = unary(OpKind::Rsqrt, add(mean(mul(xc, xc), dims, true), scalar(e.attrs.eps)));
  Tensor xhat = mul(xc, rstd);
  Tensor dxhat = e.inputs.size() > 1 ? mul(g, e.inputs[1]) : g;
  Tensor dx = mul(rstd, sub(sub(dxhat, mean(dxhat, dims, true)),
                            mul(xhat, mean(mul(dxhat, xhat), dims, true))));
  std::vector<Tensor> out = {dx};
  if (e.inputs.size() > 1) out.push_back(sumToShape(mul(g, xhat), e.inputs[1].shape()));
  if (e.inputs.size() > 2) out.push_back(sumToShape(g, e.inputs[2].shape()));
  return out;
}

// y = x @ w^T + b over x's leading dims.
std::vector<Tensor> gradLinear(const TapeEntry& e, const Tensor& g) {
  const Tensor &x = e.inputs[0], &w = e.inputs[1];
  const int64_t in = w.size(1), out = w.size(0);
  Tensor g2 = reshape(g, {g.numel() / std::max<int64_t>(out, 1), out});
  Tensor x2 = reshape(x, {g2.size(0), in});
  std::vector<Tensor> grads = {matmul(g, w), matmul(mT(g2), x2)};
  if (e.inputs.size() > 2) grads.push_back(sum(g2, {0}));
  return grads;
}

std::vector<Tensor> gradMseLoss(const TapeEntry& e, const Tensor& g) {
  const Tensor &a = e.inputs[0], &b = e.inputs[1];
  Tensor d = sub(a, b);
  Tensor scaled = mul(d, mul(g, scalar(2.0 / double(std::max<int64_t>(d.numel(), 1)))));
  return {scaled, neg(scaled)};
}

// d/dlogits mean_i(lse_i - logit[i, y_i]) = (softmax(logits) - onehot(y)) / N.
std::vector<Tensor> gradCrossEntropy(const TapeEntry& e, const Tensor& g) {
  const Tensor& logits = e.inputs[0];
  const int64_t n = logits.ndim() == 1 ? 1 : logits.size(0);
  const int64_t classes = logits.size(logits.ndim() - 1);
  Tensor labels = cast(e.inputs[1], DType::I32);
  Tensor hot = cast(binary(OpKind::Eq, unsqueeze(labels, -1), arange(classes)), DType::F32);
  if (logits.ndim() == 1) hot = reshape(hot, {classes});
  Tensor d = sub(softmax(logits, -1), hot);
  return {mul(d, div(g, scalar(double(n)))), Tensor()};
}

// Replays the dropout's random words (same counters) to rebuild its keep mask.
std::vector<Tensor> gradDropout(const TapeEntry& e, const Tensor& g) {
  const double p = e.attrs.p;
  if (p >= 1) return {mul(g, scalar(0))};
  RngState now = rngState();
  setRngState(e.rng);
  shapes::OpAttrs a;
  a.shape = shapes::SymShape(g.shape().begin(), g.shape().end());
  Tensor u = call(OpKind::Rand, {}, a);
  setRngState(now);
  Tensor keep = cast(binary(OpKind::Ge, u, scalar(p)), DType::F32);
  return {mul(g, mul(keep, scalar(1.0 / (1.0 - p))))};
}

}  // namespace tessel::backends::autodiff
