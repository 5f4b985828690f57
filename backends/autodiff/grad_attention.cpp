// Gradient rule of scaled_dot_product_attention: the fused backward op (Note [Fused attention]
// in backends/cpu/attention_kernel.cpp), fed the softmax statistics by attention_logsumexp.
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

// The forward's output is kept; its logsumexp [..., T] is recomputed by one pass over the
// scores without the value product (a graph value has one output, so the forward cannot hand
// it over). attention_backward gives dq, dk and dv over the broadcast batch in one flat
// tensor; each is cut out and shaped, and backward() sums broadcast batch dims down to the
// operand's shape. The mask gets no gradient (PyTorch's additive masks would get the score
// gradient; masks here are constants of the model).
std::vector<Var> gradAttention(const GradEntry& e, const Var& g) {
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
