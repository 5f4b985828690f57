// Shape rules of neural-network ops: matmul (torch.matmul semantics), softmax, layer_norm,
// linear, losses, dropout.
#include "shapes/pool_geometry.h"
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {

Outputs matmul(Inputs in) {
  const SymShape &a = in[0].shape, &b = in[1].shape;
  if (a.empty() || b.empty())
    fail(ErrorKind::ShapeError, "matmul",
         "both arguments need at least 1 dimension, got " + str(a) + " and " + str(b));
  if (in[0].dtype == DType::Bool || in[1].dtype == DType::Bool)
    fail(ErrorKind::TypeError, "matmul", "not supported for bool tensors");
  DType t = promote(in[0].dtype, in[1].dtype);
  SymShape x = a, y = b;
  bool dropRow = x.size() == 1, dropCol = y.size() == 1;
  if (dropRow) x.insert(x.begin(), SymInt(1));
  if (dropCol) y.push_back(SymInt(1));
  const SymInt& k1 = x.back();
  const SymInt& k2 = y[y.size() - 2];
  require(k1 == k2, ErrorKind::ShapeError, [&] {
    return "matmul: shapes " + str(a) + " and " + str(b) + " are incompatible (" + sizeStr(k1) +
           " != " + sizeStr(k2) + ")";
  });
  SymShape batchA(x.begin(), x.end() - 2), batchB(y.begin(), y.end() - 2);
  SymShape out = broadcastShapes(batchA, batchB, "matmul");
  if (!dropRow) out.push_back(x[x.size() - 2]);
  if (!dropCol) out.push_back(y.back());
  return {{out, t}};
}

}  // namespace

Outputs nnOp(OpKind op, Inputs in, const OpAttrs& a) {
  std::string_view nm = opName(op);
  switch (op) {
    case OpKind::Matmul:
      arity(op, in, 2, 2);
      return matmul(in);
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
      arity(op, in, 1, 1);
      normalizeDim(a.dim, rank(in[0].shape), nm);
      return {{in[0].shape, DType::F32}};
    case OpKind::LayerNormBackward: {
      arity(op, in, 2, 3);
      requireShape(in[0].shape, in[1].shape, nm, "grad");
      // The rest is layer_norm's rule over [x, (weight)].
      nnOp(OpKind::LayerNorm, in.subspan(1), a);
      SymInt n(1), total(1);
      for (const SymInt& d : a.shape) n = n * d;
      for (const SymInt& d : in[1].shape) total = total * d;
      if (in.size() == 3) total = total + n + n;
      return {{{total}, DType::F32}};
    }
    case OpKind::LayerNorm: {
      arity(op, in, 1, 3);
      const SymShape& x = in[0].shape;
      const SymShape& ns = a.shape;
      if (ns.size() > x.size())
        fail(ErrorKind::ShapeError, nm,
             "normalized_shape " + str(ns) + " is longer than input " + str(x));
      size_t off = x.size() - ns.size();
      for (size_t i = 0; i < ns.size(); ++i)
        requireEq(x[off + i], ns[i], nm,
                  "input " + str(x) + " does not end with normalized_shape " + str(ns));
      for (size_t k = 1; k < in.size(); ++k) {
        const SymShape& w = in[k].shape;
        if (w.size() != ns.size())
          fail(ErrorKind::ShapeError, nm,
               (k == 1 ? "weight " : "bias ") + str(w) + " must have shape " + str(ns));
        for (size_t i = 0; i < ns.size(); ++i)
          requireEq(w[i], ns[i], nm,
                    (k == 1 ? "weight " : "bias ") + str(w) + " must have shape " + str(ns));
      }
      return {{x, DType::F32}};
    }
    case OpKind::Linear: {
      arity(op, in, 2, 3);
      const SymShape &x = in[0].shape, &w = in[1].shape;
      if (x.empty() || w.size() != 2)
        fail(ErrorKind::ShapeError, nm,
             "expects input [..., in] and weight [out, in], got " + str(x) + " and " + str(w));
      require(x.back() == w[1], ErrorKind::ShapeError, [&] {
        return "linear: input " + str(x) + " and weight " + str(w) + " are incompatible (" +
               sizeStr(x.back()) + " != " + sizeStr(w[1]) + ")";
      });
      SymShape out(x.begin(), x.end() - 1);
      out.push_back(w[0]);
      if (in.size() == 3) {
        const SymShape& b = in[2].shape;
        if (b.size() != 1) fail(ErrorKind::ShapeError, nm, "bias must be 1-D [out], got " + str(b));
        requireEq(b[0], w[0], nm, "bias " + str(b) + " does not match weight " + str(w));
      }
      return {{out, DType::F32}};
    }
    case OpKind::MseLoss:
      arity(op, in, 2, 2);
      broadcastShapes(in[0].shape, in[1].shape, nm);
      return {{{}, DType::F32}};
    case OpKind::CrossEntropy: {
      arity(op, in, 2, 2);
      const SymShape &l = in[0].shape, &y = in[1].shape;
      if (l.size() != 2 || y.size() != 1)
        fail(ErrorKind::ShapeError, nm,
             "expects logits [N, C] and labels [N], got " + str(l) + " and " + str(y));
      if (in[1].dtype != DType::I32)
        fail(ErrorKind::TypeError, nm, "labels must be i32, got " + std::string(name(in[1].dtype)));
      requireEq(l[0], y[0], nm, "logits " + str(l) + " and labels " + str(y) + " disagree on N");
      return {{{}, DType::F32}};
    }
    case OpKind::Dropout:
      arity(op, in, 1, 1);
      if (!(a.p >= 0.0 && a.p <= 1.0))
        fail(ErrorKind::ValueError, nm, "p must be in [0, 1], got " + std::to_string(a.p));
      return {{in[0].shape, in[0].dtype}};
    case OpKind::Multinomial:
    case OpKind::Bernoulli:
      return samplingOp(op, in, a);
    case OpKind::Conv2d:
    case OpKind::Conv2dBackwardInput:
    case OpKind::Conv2dBackwardWeight:
      return convOp(op, in, a);
    case OpKind::Attention:
    case OpKind::AttentionLse:
    case OpKind::AttentionBackward:
      return attentionOp(op, in, a);
    default:
      if (isPoolOp(op)) return poolOp(op, in, a);
      break;
  }
  TESSEL_ASSERT(false, "nnOp: not an nn op");
  return {};
}

}  // namespace tessel::shapes::rules
