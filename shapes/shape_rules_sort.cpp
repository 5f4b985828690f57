// Shape rules of sorting, searching and detection: argsort and topk along one dim (symbolic
// sizes kept; topk's k is a size expression that must fit the dim), searchsorted (the values'
// shape), nms (an unbacked count of kept boxes, at most the number of boxes).
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {

void needNumeric(std::string_view op, const OpSignature& s, const char* what) {
  if (s.dtype == DType::Bool)
    fail(ErrorKind::TypeError, op, std::string(what) + " must be f32 or i32, got bool");
}

// The dim's size, or 1 for a 0-d tensor (PyTorch sorts a scalar as one element).
SymInt dimSize(const SymShape& x, int64_t dim) {
  return x.empty() ? SymInt(1) : x[size_t(dim)];
}

Outputs topk(Inputs in, const OpAttrs& a) {
  const SymShape& x = in[0].shape;
  const int64_t dim = normalizeDim(a.dim, rank(x), "topk");
  const SymInt k = a.stop.value_or(SymInt(1));
  const SymInt n = dimSize(x, dim);
  if (auto c = k.maybeConstant(); c && *c < 0)
    fail(ErrorKind::ValueError, "topk", "k must be non-negative, got " + std::to_string(*c));
  // k = min(K, n) fits by construction: no guard (the solver need not know min's ordering).
  const bool fits = knownLe(k, n) || min(k, n).sameAs(k);
  if (!fits)
    require(k <= n, ErrorKind::IndexError, [&] {
      return "topk: k (" + sizeStr(k) + ") is out of range for dim " + std::to_string(a.dim) +
             " of size " + sizeStr(n) + " (shape " + str(x) + ")";
    });
  SymShape out = x;
  if (!out.empty()) out[size_t(dim)] = k;
  return {{out, DType::I32}};
}

// torch.searchsorted: a 1-D sorted sequence serves values of any shape; an N-D one must share
// the values' leading dims (only the last dim differs).
Outputs searchsorted(Inputs in) {
  const SymShape& s = in[0].shape;
  const SymShape& v = in[1].shape;
  needNumeric("searchsorted", in[0], "sorted_sequence");
  needNumeric("searchsorted", in[1], "values");
  if (s.empty())
    fail(ErrorKind::ShapeError, "searchsorted", "sorted_sequence must have at least one dimension");
  if (s.size() > 1) {
    if (v.size() != s.size())
      fail(ErrorKind::ShapeError, "searchsorted",
           "sorted_sequence " + str(s) + " and values " + str(v) +
               " must have the same rank unless sorted_sequence is 1-D");
    for (size_t i = 0; i + 1 < s.size(); ++i)
      requireEq(s[i], v[i], "searchsorted",
                "sorted_sequence " + str(s) + " and values " + str(v) +
                    " differ in a leading dimension (only the last may differ)");
  }
  return {{v, DType::I32}};
}

Outputs nms(Inputs in, const OpAttrs& a) {
  const SymShape& b = in[0].shape;
  const SymShape& sc = in[1].shape;
  if (b.size() != 2)
    fail(ErrorKind::ShapeError, "nms", "boxes must have shape [n, 4], got " + str(b));
  require(b[1] == SymInt(4), ErrorKind::ShapeError,
          [&] { return "nms: boxes must have shape [n, 4], got " + str(b); });
  if (sc.size() != 1)
    fail(ErrorKind::ShapeError, "nms", "scores must have shape [n], got " + str(sc));
  if (in[0].dtype != DType::F32 || in[1].dtype != DType::F32)
    fail(ErrorKind::TypeError, "nms",
         "boxes and scores must be f32, got " + std::string(name(in[0].dtype)) + " and " +
             std::string(name(in[1].dtype)));
  requireEq(b[0], sc[0], "nms",
            "boxes " + str(b) + " and scores " + str(sc) + " must have the same number of boxes");
  return {{{dataDependentSize("nms", in, a, b[0])}, DType::I32}};
}

}  // namespace

Outputs sortOp(OpKind op, Inputs in, const OpAttrs& a) {
  switch (op) {
    case OpKind::Argsort:
      arity(op, in, 1, 1);
      normalizeDim(a.dim, rank(in[0].shape), "argsort");
      return {{in[0].shape, DType::I32}};
    case OpKind::Topk:
      arity(op, in, 1, 1);
      return topk(in, a);
    case OpKind::Searchsorted:
      arity(op, in, 2, 2);
      return searchsorted(in);
    case OpKind::Nms:
      arity(op, in, 2, 2);
      return nms(in, a);
    default:
      break;
  }
  TESSEL_ASSERT(false, "sortOp: not a sort op");
  return {};
}

}  // namespace tessel::shapes::rules
