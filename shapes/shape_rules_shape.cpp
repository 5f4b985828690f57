// Shape rules of layout ops: reshape, transpose, permute, (un)squeeze, flatten, expand, cat,
// stack, slice, select.
#include <algorithm>

#include "shapes/expr.h"
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {

Outputs reshape(Inputs in, const OpAttrs& a) {
  const SymShape& x = in[0].shape;
  SymInt numel = product(x);
  SymShape out = a.shape;
  int infer = -1;
  SymInt known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].maybeConstant() == -1) {
      if (infer >= 0) fail(ErrorKind::ValueError, "reshape", "only one dimension can be -1");
      infer = static_cast<int>(i);
      continue;
    }
    if (auto c = out[i].maybeConstant(); c && *c < 0)
      fail(ErrorKind::ValueError, "reshape",
           "invalid size " + std::to_string(*c) + " in " + str(out));
    known = known * out[i];
  }
  auto bad = [&] {
    return "reshape: shape " + str(a.shape) + " is invalid for input of size " + sizeStr(numel) +
           " (input shape " + str(x) + ")";
  };
  if (infer >= 0) {
    require(known != SymInt(0), ErrorKind::ShapeError,
            [&] { return bad() + ": cannot infer -1 with a zero-size dimension"; });
    // Exact polynomial division when the sizes allow it ([4*s0] -> [s0, -1] gives 4), else
    // floor division with the require below proving or guarding divisibility.
    out[infer] = floorDiv(numel, known);
    if (numel.expr() && (known.expr() || known.maybeConstant() != 0)) {
      ExprContext& cx = *numel.expr()->ctx;
      Expr kn = known.expr() ? known.expr() : cx.constant(known.constant());
      if (auto q = cx.divideExact(numel.expr(), kn)) out[infer] = SymInt(*q);
    }
    require(out[infer] * known == numel, ErrorKind::ShapeError, bad);
  } else {
    require(known == numel, ErrorKind::ShapeError, bad);
  }
  return {{out, in[0].dtype}};
}

Outputs permute(const OpSignature& x, std::vector<int64_t> dims, std::string_view name) {
  int64_t r = rank(x.shape);
  if (static_cast<int64_t>(dims.size()) != r)
    fail(ErrorKind::ValueError, name,
         "expected " + std::to_string(r) + " dims for shape " + str(x.shape) + ", got " +
             std::to_string(dims.size()));
  std::vector<bool> seen(r, false);
  SymShape out;
  for (int64_t d : dims) {
    int64_t n = normalizeDim(d, r, name);
    if (seen[n]) fail(ErrorKind::ValueError, name, "dim " + std::to_string(d) + " repeated");
    seen[n] = true;
    out.push_back(x.shape[n]);
  }
  return {{out, x.dtype}};
}

Outputs catOrStack(OpKind op, Inputs in, const OpAttrs& a) {
  std::string_view name = opName(op);
  if (in.empty()) fail(ErrorKind::ValueError, name, "expects a non-empty list of tensors");
  const SymShape& s0 = in[0].shape;
  bool stack = op == OpKind::Stack;
  if (!stack && s0.empty())
    fail(ErrorKind::ValueError, name, "zero-dimensional tensors cannot be concatenated");
  int64_t dim = normalizeDim(a.dim, rank(s0) + (stack ? 1 : 0), name);
  DType t = in[0].dtype;
  SymInt total = 0;
  for (size_t k = 0; k < in.size(); ++k) {
    const SymShape& s = in[k].shape;
    t = promote(t, in[k].dtype);
    if (s.size() != s0.size())
      fail(ErrorKind::ShapeError, name,
           "tensors must have the same rank: " + str(s0) + " and " + str(s) + " (operand " +
               std::to_string(k) + ")");
    for (size_t i = 0; i < s.size(); ++i) {
      if (!stack && static_cast<int64_t>(i) == dim) continue;
      require(s[i] == s0[i], ErrorKind::ShapeError, [&] {
        return std::string(name) + ": shapes " + str(s0) + " and " + str(s) + " differ at dim " +
               std::to_string(i) + " (" + sizeStr(s0[i]) + " != " + sizeStr(s[i]) + ")";
      });
    }
    if (!stack) total = total + s[dim];
  }
  SymShape out = s0;
  if (stack)
    out.insert(out.begin() + dim, SymInt(static_cast<int64_t>(in.size())));
  else
    out[dim] = total;
  return {{out, t}};
}

// Python slice clamping of one bound against the dim size n.
SymInt clampBound(const SymInt& v, const SymInt& n) {
  if (auto c = v.maybeConstant(); c && *c < 0) return smax(SymInt(0), n + v);
  bool nonNeg = v.isConstant() ? true : knownLe(SymInt(0), v);
  if (!nonNeg && !knownLe(v, SymInt(-1))) nonNeg = evaluate(v >= SymInt(0));
  return nonNeg ? smin(v, n) : smax(SymInt(0), n + v);
}

Outputs slice(Inputs in, const OpAttrs& a) {
  const SymShape& x = in[0].shape;
  if (x.empty()) fail(ErrorKind::IndexError, "slice", "cannot slice a zero-dimensional tensor");
  int64_t dim = normalizeDim(a.dim, rank(x), "slice");
  SymInt n = x[dim];
  require(a.step > SymInt(0), ErrorKind::ValueError,
          [&] { return "slice: step must be positive, got " + sizeStr(a.step); });
  SymInt start = a.start ? clampBound(*a.start, n) : SymInt(0);
  SymInt stop = a.stop ? clampBound(*a.stop, n) : n;
  SymInt len = a.step.maybeConstant() == 1 ? stop - start : ceilDiv(stop - start, a.step);
  SymShape out = x;
  out[dim] = smax(SymInt(0), len);
  return {{out, in[0].dtype}};
}

Outputs select(Inputs in, const OpAttrs& a) {
  const SymShape& x = in[0].shape;
  if (x.empty()) fail(ErrorKind::IndexError, "select", "cannot index a zero-dimensional tensor");
  int64_t dim = normalizeDim(a.dim, rank(x), "select");
  SymInt n = x[dim], idx = a.index;
  bool negative = idx.isConstant() ? idx.constant() < 0
                                   : (!knownLe(SymInt(0), idx) &&
                                      (knownLe(idx, SymInt(-1)) || evaluate(idx < SymInt(0))));
  if (negative) idx = idx + n;
  require(SymInt(0) <= idx && idx < n, ErrorKind::IndexError, [&] {
    return "select: index " + sizeStr(a.index) + " is out of range for dim " + std::to_string(dim) +
           " of size " + sizeStr(n);
  });
  SymShape out = x;
  out.erase(out.begin() + dim);
  return {{out, in[0].dtype}};
}

Outputs expand(Inputs in, const OpAttrs& a) {
  const SymShape& x = in[0].shape;
  const SymShape& t = a.shape;
  if (t.size() < x.size())
    fail(ErrorKind::ShapeError, "expand",
         "target " + str(t) + " has fewer dims than the input " + str(x));
  size_t lead = t.size() - x.size();
  SymShape out(t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    bool keep = t[i].maybeConstant() == -1;
    if (i < lead) {
      if (keep) fail(ErrorKind::ValueError, "expand", "-1 is not allowed for a new leading dim");
      out[i] = t[i];
      continue;
    }
    const SymInt& d = x[i - lead];
    if (keep || d.sameAs(t[i]))
      out[i] = d;
    else if (isOne(d))
      out[i] = t[i];
    else {
      requireEq(d, t[i], "expand",
                "cannot expand " + str(x) + " to " + str(t) + " at dim " + std::to_string(i));
      out[i] = d;
    }
  }
  return {{out, in[0].dtype}};
}

}  // namespace

Outputs shapeOp(OpKind op, Inputs in, const OpAttrs& a) {
  std::string_view name = opName(op);
  if (op == OpKind::Cat || op == OpKind::Stack) return catOrStack(op, in, a);
  arity(op, in, 1, 1);
  const OpSignature& x = in[0];
  int64_t r = rank(x.shape);
  switch (op) {
    case OpKind::Reshape:
      return reshape(in, a);
    case OpKind::Permute:
      return permute(x, a.dims, name);
    case OpKind::Transpose: {
      if (r < 2 && a.dims.empty()) return {{x.shape, x.dtype}};
      std::vector<int64_t> d = a.dims.empty() ? std::vector<int64_t>{0, 1} : a.dims;
      if (d.size() != 2) fail(ErrorKind::ValueError, name, "expects two dims");
      const int64_t d0 = normalizeDim(d[0], r, name), d1 = normalizeDim(d[1], r, name);
      if (r == 0) return {{x.shape, x.dtype}};  // dims 0 and -1 of a scalar name the scalar
      std::vector<int64_t> perm(r);
      for (int64_t i = 0; i < r; ++i) perm[i] = i;
      std::swap(perm[d0], perm[d1]);
      return permute(x, perm, name);
    }
    case OpKind::Unsqueeze: {
      int64_t d = normalizeDim(a.dim, r + 1, name);
      SymShape out = x.shape;
      out.insert(out.begin() + d, SymInt(1));
      return {{out, x.dtype}};
    }
    case OpKind::Squeeze: {
      std::vector<bool> pick(r, a.dims.empty());
      for (int64_t d : a.dims) {
        const int64_t n = normalizeDim(d, r, name);  // a scalar takes 0 and -1 only
        if (r > 0) pick[n] = true;
      }
      SymShape out;
      for (int64_t i = 0; i < r; ++i)
        if (!(pick[i] && isOne(x.shape[i]))) out.push_back(x.shape[i]);
      return {{out, x.dtype}};
    }
    case OpKind::Flatten: {
      if (r == 0) return {{{SymInt(1)}, x.dtype}};
      int64_t s = normalizeDim(a.dim, r, name), e = normalizeDim(a.endDim, r, name);
      if (s > e) fail(ErrorKind::ValueError, name, "start dim must not come after end dim");
      SymShape out(x.shape.begin(), x.shape.begin() + s);
      SymInt m = 1;
      for (int64_t i = s; i <= e; ++i) m = m * x.shape[i];
      out.push_back(m);
      out.insert(out.end(), x.shape.begin() + e + 1, x.shape.end());
      return {{out, x.dtype}};
    }
    case OpKind::Expand:
      return expand(in, a);
    case OpKind::Slice:
      return slice(in, a);
    case OpKind::Select:
      return select(in, a);
    default:
      break;
  }
  TESSEL_ASSERT(false, "shapeOp: not a shape op");
  return {};
}

}  // namespace tessel::shapes::rules
