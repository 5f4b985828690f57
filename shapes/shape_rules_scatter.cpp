// Shape rules of the writes along a dim: index_add, index_copy (a 1-D index picks slices of
// x) and scatter, scatter_add, scatter_reduce (an index of x's rank picks elements). Each
// returns x's shape and dtype; sizes stay symbolic. Index values are data: their range is
// checked by the kernels.
#include "shapes/shape_rules_util.h"

namespace tessel::shapes {

const char* scatterModeName(ScatterMode m) {
  switch (m) {
    case ScatterMode::Assign:
      return "assign";
    case ScatterMode::Sum:
      return "sum";
    case ScatterMode::Prod:
      return "prod";
    case ScatterMode::Mean:
      return "mean";
    case ScatterMode::Amax:
      return "amax";
    case ScatterMode::Amin:
      return "amin";
  }
  return "?";
}

namespace rules {

namespace {

// index_add/index_copy: index 1-D (or 0-d) of length k; src is x with dim's size k.
void sliceWrite(std::string_view nm, Inputs in, int64_t dim) {
  const SymShape &x = in[0].shape, &idx = in[1].shape, &src = in[2].shape;
  if (idx.size() > 1) fail(ErrorKind::ShapeError, nm, "index must be 1-D, got shape " + str(idx));
  const SymInt k = idx.empty() ? SymInt(1) : idx[0];
  if (x.empty()) {
    if (src.size() > 1)
      fail(ErrorKind::ShapeError, nm, "source " + str(src) + " does not match a 0-d input");
    return;
  }
  if (src.size() != x.size())
    fail(ErrorKind::ShapeError, nm,
         "source " + str(src) + " must have the rank of the input " + str(x));
  for (size_t d = 0; d < x.size(); ++d) {
    const SymInt& want = int64_t(d) == dim ? k : x[d];
    requireEq(src[d], want, nm,
              "source " + str(src) + " must have the input's shape " + str(x) + " with dim " +
                  std::to_string(dim) + " the index length");
  }
}

// scatter*: index, x and src of one rank; index no larger than src anywhere and than x off dim.
void elementWrite(std::string_view nm, Inputs in, int64_t dim) {
  const SymShape &x = in[0].shape, &idx = in[1].shape, &src = in[2].shape;
  if (idx.size() != x.size())
    fail(ErrorKind::ShapeError, nm,
         "index rank must equal input rank: " + str(x) + " and " + str(idx));
  const bool scalarSrc = src.empty() && !x.empty();
  if (!scalarSrc && src.size() != x.size())
    fail(ErrorKind::ShapeError, nm,
         "source rank must equal input rank: " + str(x) + " and " + str(src));
  for (size_t d = 0; d < idx.size(); ++d) {
    if (!scalarSrc)
      require(idx[d] <= src[d], ErrorKind::ShapeError, [&] {
        return std::string(nm) + ": index " + str(idx) + " is larger than source " + str(src) +
               " at dim " + std::to_string(d);
      });
    if (int64_t(d) != dim)
      require(idx[d] <= x[d], ErrorKind::ShapeError, [&] {
        return std::string(nm) + ": index " + str(idx) + " is larger than input " + str(x) +
               " at dim " + std::to_string(d);
      });
  }
}

}  // namespace

Outputs scatterOp(OpKind op, Inputs in, const OpAttrs& a) {
  std::string_view nm = opName(op);
  arity(op, in, 3, 3);
  if (in[1].dtype != DType::I32)
    fail(ErrorKind::TypeError, nm,
         "index must be an i32 tensor, got " + std::string(name(in[1].dtype)));
  if (in[2].dtype != in[0].dtype)
    fail(ErrorKind::TypeError, nm,
         "source dtype " + std::string(name(in[2].dtype)) + " must equal the input's, " +
             std::string(name(in[0].dtype)));
  const int64_t dim = normalizeDim(a.dim, rank(in[0].shape), nm);
  if (op == OpKind::IndexAdd || op == OpKind::IndexCopy)
    sliceWrite(nm, in, dim);
  else
    elementWrite(nm, in, dim);
  if (op == OpKind::ScatterReduce && a.scatterMode == ScatterMode::Assign)
    fail(ErrorKind::ValueError, nm,
         "reduce must be \"sum\", \"prod\", \"mean\", \"amax\" or \"amin\"");
  return {{in[0].shape, in[0].dtype}};
}

}  // namespace rules
}  // namespace tessel::shapes
