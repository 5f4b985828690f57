// Shape rules of fused attention: scaled_dot_product_attention, its logsumexp and its backward
// (op_list.def). T, S, D and Dv stay symbolic, so one graph serves every sequence length.
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {

constexpr std::string_view kName = "scaled_dot_product_attention";

struct Parts {
  SymShape batch;  ///< broadcast batch dims of q, k, v
  SymInt T, S, D, Dv;
};

SymShape concat(SymShape a, std::initializer_list<SymInt> tail) {
  a.insert(a.end(), tail.begin(), tail.end());
  return a;
}

// Checks q [..., T, D], k [..., S, D], v [..., S, Dv] and the mask (when given).
Parts check(const OpSignature& q, const OpSignature& k, const OpSignature& v,
            const OpSignature* mask) {
  const char* names[] = {"query", "key", "value"};
  const OpSignature* qkv[] = {&q, &k, &v};
  for (int i = 0; i < 3; ++i) {
    if (qkv[i]->shape.size() < 2)
      fail(ErrorKind::ShapeError, kName,
           std::string(names[i]) + " needs at least 2 dims [..., L, E], got " +
               str(qkv[i]->shape));
    if (qkv[i]->dtype != DType::F32)
      fail(ErrorKind::TypeError, kName,
           std::string(names[i]) + " must be f32, got " + std::string(name(qkv[i]->dtype)));
  }
  const SymShape &qs = q.shape, &ks = k.shape, &vs = v.shape;
  requireEq(qs.back(), ks.back(), kName,
            "query " + str(qs) + " and key " + str(ks) + " disagree on the embedding size");
  requireEq(ks[ks.size() - 2], vs[vs.size() - 2], kName,
            "key " + str(ks) + " and value " + str(vs) + " disagree on the sequence length");
  Parts p;
  p.batch = broadcastShapes(broadcastShapes(SymShape(qs.begin(), qs.end() - 2),
                                            SymShape(ks.begin(), ks.end() - 2), kName),
                            SymShape(vs.begin(), vs.end() - 2), kName);
  p.T = qs[qs.size() - 2];
  p.S = ks[ks.size() - 2];
  p.D = qs.back();
  p.Dv = vs.back();
  if (mask) {
    if (mask->dtype != DType::Bool && mask->dtype != DType::F32)
      fail(ErrorKind::TypeError, kName,
           "attn_mask must be bool or f32, got " + std::string(name(mask->dtype)));
    const SymShape target = concat(p.batch, {p.T, p.S});
    const std::string what = "attn_mask " + str(mask->shape) +
                             " does not broadcast to the scores' shape " + str(target);
    const SymShape& ms = mask->shape;
    if (ms.size() > target.size()) fail(ErrorKind::ShapeError, kName, what);
    // Right-aligned, each mask size is 1 or the scores' size.
    for (size_t i = 1; i <= ms.size(); ++i) {
      const SymInt& d = ms[ms.size() - i];
      if (d.maybeConstant() == int64_t{1}) continue;
      requireEq(d, target[target.size() - i], kName, what);
    }
  }
  return p;
}

}  // namespace

Outputs attentionOp(OpKind op, Inputs in, const OpAttrs& a) {
  if (op == OpKind::AttentionBackward) {
    arity(op, in, 6, 7);
    const Parts p = check(in[0], in[1], in[2], in.size() == 7 ? &in[6] : nullptr);
    const std::string_view nm = opName(op);
    requireShape(in[3].shape, concat(p.batch, {p.T, p.Dv}), nm, "out");
    requireShape(in[4].shape, concat(p.batch, {p.T, p.Dv}), nm, "dout");
    requireShape(in[5].shape, concat(p.batch, {p.T}), nm, "lse");
    SymInt n(1);
    for (const SymInt& d : p.batch) n = n * d;
    // One statement per product: the operands of one expression are made in an order the
    // compiler picks, and a sum prints its terms in the order they were made.
    const SymInt dq = p.T * p.D;
    const SymInt dk = p.S * p.D;
    const SymInt dv = p.S * p.Dv;
    return {{{n * (dq + dk + dv)}, DType::F32}};
  }
  arity(op, in, 3, 4);
  const Parts p = check(in[0], in[1], in[2], in.size() == 4 ? &in[3] : nullptr);
  if (op == OpKind::AttentionLse) return {{concat(p.batch, {p.T}), DType::F32}};
  return {{concat(p.batch, {p.T, p.Dv}), DType::F32}};
}

}  // namespace tessel::shapes::rules
