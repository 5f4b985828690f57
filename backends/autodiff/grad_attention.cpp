// Gradient rule of scaled_dot_product_attention: the fused backward op (Note [Fused attention]
// in backends/cpu/attention_kernel.cpp), fed the softmax statistics by attention_logsumexp.
#include <limits>

#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

// The forward's output is kept; its logsumexp [..., T] is recomputed by one pass over the
// scores without the value product (a graph value has one output, so the forward cannot hand
// it over). attention_backward gives dq, dk and dv over the broadcast batch in one flat
// tensor; each is cut out and shaped, and backward() sums broadcast batch dims down to the
// operand's shape. The mask gets no gradient (PyTorch's additive masks would get the score
// gradient; masks here are constants of the model).
// While another tape records this gradient (a second derivative: a gradient penalty, a
// Hessian-vector product), the fused ops would be constants to it (they have no gradient), so
// the softmax backward is written out in differentiable ops instead, recomputing the scores:
//   P = softmax(q k^T scale + mask),  dv = P^T g,  dP = g v^T,
//   dS = P (dP - rowsum(dP P)),  dq = dS k scale,  dk = dS^T q scale.
// It builds the [T, S] scores, as PyTorch's math path does for its double backward.
std::vector<Var> attentionGradsWrittenOut(const GradEntry& e, const Var& g) {
  const Var &q = e.inputs[0], &k = e.inputs[1], &v = e.inputs[2];
  Var scale = e.attrs.scalars.empty() ? unary(OpKind::Rsqrt, sizeScalar(q, q.size(-1)))
                                      : lit(q, e.attrs.scalars[0]);
  Var scores = mul(matmul(q, transpose(k, -2, -1)), scale);
  const double minusInf = -std::numeric_limits<double>::infinity();
  if (e.attrs.causal) {
    // Query t sees keys s <= t (the top-left aligned tril, as the fused kernels).
    Var t = unsqueeze(arange(q, q.size(-2)), 1), s = unsqueeze(arange(q, k.size(-2)), 0);
    scores = where(binary(OpKind::Le, s, t), scores, lit(q, minusInf));
  }
  if (e.inputs.size() == 4) {
    const Var& mask = e.inputs[3];
    scores = mask.dtype() == DType::Bool ? where(mask, scores, lit(q, minusInf))
                                         : add(scores, mask);
  }
  Var p = softmax(scores, -1);
  Var dv = matmul(transpose(p, -2, -1), g);
  Var dp = matmul(g, transpose(v, -2, -1));
  Var ds = mul(p, sub(dp, sum(mul(dp, p), {-1}, true)));
  Var dq = mul(matmul(ds, k), scale);
  Var dk = mul(matmul(transpose(ds, -2, -1), q), scale);
  std::vector<Var> grads = {dq, dk, dv};
  if (e.inputs.size() == 4) grads.push_back(Var());
  return grads;
}

std::vector<Var> gradAttention(const GradEntry& e, const Var& g) {
  if (g.emitter().recordedForHigherOrder()) return attentionGradsWrittenOut(e, g);
  const Var &q = e.inputs[0], &k = e.inputs[1], &v = e.inputs[2];
  const Var& out = e.outputs[0];
  Var lse = opOf(OpKind::AttentionLse, e.inputs, e.attrs);
  std::vector<Var> args = {q, k, v, out, g, lse};
  if (e.inputs.size() == 4) args.push_back(e.inputs[3]);
  Var flat = opOf(OpKind::AttentionBackward, args, e.attrs);
  const SymShape os = out.shape();
  SymShape batch(os.begin(), os.end() - 2);
  SymInt n(1);
  for (const SymInt& d : batch) n = n * d;
  const SymInt T = q.size(-2), S = k.size(-2), D = q.size(-1), Dv = v.size(-1);
  auto piece = [&](const SymInt& start, const SymInt& rows, const SymInt& cols) {
    SymShape shape = batch;
    shape.push_back(rows);
    shape.push_back(cols);
    return reshape(slice(flat, 0, start, start + n * rows * cols), shape);
  };
  const SymInt dkStart = n * T * D, dvStart = dkStart + n * S * D;
  std::vector<Var> grads = {piece(SymInt(0), T, D), piece(dkStart, S, D), piece(dvStart, S, Dv)};
  if (e.inputs.size() == 4) grads.push_back(Var());
  return grads;
}

}  // namespace tessel::backends::autodiff
