// Shape rules of reductions (dims, empty = all; keepdim; result dtypes) and of scans along one
// dim (cumsum, cumprod: the input's shape, symbolic sizes kept as they are).
#include <algorithm>

#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

Outputs reduce(OpKind op, Inputs in, const OpAttrs& a) {
  arity(op, in, 1, 1);
  std::string_view name = opName(op);
  const SymShape& x = in[0].shape;
  int64_t r = rank(x);
  std::vector<bool> reduced(x.size(), a.dims.empty());
  for (int64_t d : a.dims) {
    int64_t n = normalizeDim(d, r, name);
    if (r == 0) continue;
    if (reduced[n])
      fail(ErrorKind::ValueError, name, "dim " + std::to_string(d) + " appears twice");
    reduced[n] = true;
  }
  bool needsElements =
      op == OpKind::Max || op == OpKind::Min || op == OpKind::Argmax || op == OpKind::Argmin;
  SymShape out;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!reduced[i]) {
      out.push_back(x[i]);
      continue;
    }
    // PyTorch: an IndexError for a named dim of size 0, a RuntimeError (ValueError) without dims.
    if (needsElements)
      require(x[i] != SymInt(0), a.dims.empty() ? ErrorKind::ValueError : ErrorKind::IndexError, [&] {
        return std::string(name) + ": cannot reduce over dim " + std::to_string(i) +
               " of size 0 (shape " + str(x) + ")";
      });
    if (a.keepdim) out.push_back(1);
  }
  DType t = in[0].dtype;
  switch (op) {
    case OpKind::Sum:
      t = t == DType::Bool ? DType::I32 : t;
      break;
    case OpKind::Mean:
      t = DType::F32;
      break;
    case OpKind::Argmax:
    case OpKind::Argmin:
      t = DType::I32;
      break;
    case OpKind::All:
    case OpKind::Any:
      t = DType::Bool;
      break;
    default:
      break;
  }
  return {{out, t}};
}

// cumsum/cumprod: torch promotes integers and bool to int64; Tessel's int is i32.
Outputs scan(OpKind op, Inputs in, const OpAttrs& a) {
  arity(op, in, 1, 1);
  normalizeDim(a.dim, rank(in[0].shape), opName(op));
  return {{in[0].shape, in[0].dtype == DType::F32 ? DType::F32 : DType::I32}};
}

}  // namespace tessel::shapes::rules
