// Gradient rules of matmul and the neural-network ops.
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

namespace {
int64_t wrap(int64_t d, int64_t rank) {
  return d < 0 ? d + rank : d;
}
Var mT(const Var& t) {
  return transpose(t, -1, -2);
}
}  // namespace

// With 1-D operands promoted as in the kernel (a -> [1, K], b -> [K, 1]):
// dA = dY @ B^T and dB = A^T @ dY, summed over broadcast batch dims by backward().
std::vector<Var> gradMatmul(const GradEntry& e, const Var& g) {
  const Var &a = e.inputs[0], &b = e.inputs[1];
  if (e.outputs[0].dtype() != DType::F32) return {Var(), Var()};
  Var a2 = a.ndim() == 1 ? unsqueeze(a, 0) : a;
  Var b2 = b.ndim() == 1 ? unsqueeze(b, 1) : b;
  Var g2 = g;
  if (a.ndim() == 1) g2 = unsqueeze(g2, g2.ndim() - (b.ndim() == 1 ? 0 : 1));
  if (b.ndim() == 1) g2 = unsqueeze(g2, g2.ndim());
  Var ga = matmul(g2, mT(b2));
  Var gb = matmul(mT(a2), g2);
  ga = reshape(sumToShape(ga, a2.shape()), a.shape());
  gb = reshape(sumToShape(gb, b2.shape()), b.shape());
  return {ga, gb};
}

std::vector<Var> gradSoftmax(const GradEntry& e, const Var& g) {
  const Var& y = e.outputs[0];
  if (y.ndim() == 0) return {mul(g, 0.0)};
  const int64_t dim = wrap(e.attrs.dim, y.ndim());
  return {mul(y, sub(g, sum(mul(g, y), {dim}, true)))};
}
std::vector<Var> gradLogSoftmax(const GradEntry& e, const Var& g) {
  const Var& y = e.outputs[0];
  if (y.ndim() == 0) return {mul(g, 0.0)};
  const int64_t dim = wrap(e.attrs.dim, y.ndim());
  return {sub(g, mul(unary(OpKind::Exp, y), sum(g, {dim}, true)))};
}

// The standard layer-norm backward, recomputing the normalized input:
// dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) over the normalized dims.
// It is one op, layer_norm_backward (Note [Layer norm rows] in backends/cpu/norm_rows.cpp),
// except while another tape records these gradients (a second derivative): that op has no
// gradient of its own, so the formula is then written out in ops that have.
std::vector<Var> gradLayerNorm(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  if (!g.emitter().recordedForHigherOrder()) {
    std::vector<Var> args = {g, x};
    if (e.inputs.size() > 1) args.push_back(e.inputs[1]);
    Var flat = opOf(OpKind::LayerNormBackward, args, e.attrs);
    const SymInt total = x.numel();
    std::vector<Var> out = {reshape(slice(flat, 0, SymInt(0), total), x.shape())};
    if (e.inputs.size() > 1) {
      const SymShape& ws = e.inputs[1].shape();
      const SymInt n = e.inputs[1].numel();
      out.push_back(reshape(slice(flat, 0, total, total + n), ws));
      if (e.inputs.size() > 2) out.push_back(reshape(slice(flat, 0, total + n, total + n + n), ws));
    }
    return out;
  }
  const int64_t k = static_cast<int64_t>(e.attrs.shape.size());
  Dims dims;
  for (int64_t d = x.ndim() - k; d < x.ndim(); ++d) dims.push_back(d);
  Var xc = sub(x, mean(x, dims, true));
  Var rstd = unary(OpKind::Rsqrt, add(mean(mul(xc, xc), dims, true), lit(g, e.attrs.eps)));
  Var xhat = mul(xc, rstd);
  Var dxhat = e.inputs.size() > 1 ? mul(g, e.inputs[1]) : g;
  Var dx = mul(rstd, sub(sub(dxhat, mean(dxhat, dims, true)),
                         mul(xhat, mean(mul(dxhat, xhat), dims, true))));
  std::vector<Var> out = {dx};
  if (e.inputs.size() > 1) out.push_back(sumToShape(mul(g, xhat), e.inputs[1].shape()));
  if (e.inputs.size() > 2) out.push_back(sumToShape(g, e.inputs[2].shape()));
  return out;
}

// y = x @ w^T + b over x's leading dims.
std::vector<Var> gradLinear(const GradEntry& e, const Var& g) {
  const Var &x = e.inputs[0], &w = e.inputs[1];
  const SymInt in = w.size(1), out = w.size(0);
  // The rows are x's leading dims (g's too); counting them from g's numel would lose them
  // when out (or in) is 0.
  SymInt rows = 1;
  for (int64_t d = 0; d + 1 < x.ndim(); ++d) rows = rows * x.size(d);
  Var g2 = reshape(g, {rows, out});
  Var x2 = reshape(x, {rows, in});
  std::vector<Var> grads = {matmul(g, w), matmul(mT(g2), x2)};
  if (e.inputs.size() > 2) grads.push_back(sum(g2, {0}));
  return grads;
}

std::vector<Var> gradMseLoss(const GradEntry& e, const Var& g) {
  const Var &a = e.inputs[0], &b = e.inputs[1];
  Var d = sub(a, b);
  Var count = sizeScalar(g, shapes::max(d.numel(), SymInt(1)));
  Var scaled = mul(d, div(mul(g, 2.0), count));
  return {scaled, neg(scaled)};
}

// d/dlogits mean_i(lse_i - logit[i, y_i]) = (softmax(logits) - onehot(y)) / N.
std::vector<Var> gradCrossEntropy(const GradEntry& e, const Var& g) {
  const Var& logits = e.inputs[0];
  const SymInt n = logits.ndim() == 1 ? SymInt(1) : logits.size(0);
  const SymInt classes = logits.size(-1);
  Var labels = cast(e.inputs[1], DType::I32);
  Var hot = cast(binary(OpKind::Eq, unsqueeze(labels, -1), arange(g, classes)), DType::F32);
  if (logits.ndim() == 1) hot = reshape(hot, {classes});
  Var d = sub(softmax(logits, -1), hot);
  if (e.attrs.scalars.empty()) return {mul(d, div(g, sizeScalar(g, n))), Var()};
  // With an ignore index, those rows get no gradient and the mean is over the others.
  Var kept = cast(binary(OpKind::Ne, labels, lit(g, e.attrs.scalars[0], DType::I32)), DType::F32);
  Var rowScale = div(kept, reduce(OpKind::Sum, kept));
  if (logits.ndim() > 1) rowScale = unsqueeze(rowScale, -1);
  return {mul(d, mul(rowScale, g)), Var()};
}

// Replays the dropout's random words (same counters) to rebuild its keep mask.
std::vector<Var> gradDropout(const GradEntry& e, const Var& g) {
  const double p = e.attrs.p;
  if (p >= 1) return {mul(g, 0.0)};
  Emitter& em = g.emitter();
  Var u(&em, em.replayRand(e.rng, g.shape(), g.handle()));
  Var keep = cast(binary(OpKind::Ge, u, lit(g, p)), DType::F32);
  return {mul(g, mul(keep, 1.0 / (1.0 - p)))};
}

}  // namespace tessel::backends::autodiff
