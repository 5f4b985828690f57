// Shape rules of indexing by tensors and of data-dependent ops (unbacked output sizes).
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {
void needInt(std::string_view op, const OpSignature& idx, const char* what) {
  if (idx.dtype != DType::I32)
    fail(ErrorKind::TypeError, op,
         std::string(what) + " must be an i32 tensor, got " + std::string(name(idx.dtype)));
}
void needBool(std::string_view op, const OpSignature& m) {
  if (m.dtype != DType::Bool)
    fail(ErrorKind::TypeError, op, "mask must be a bool tensor, got " + std::string(name(m.dtype)));
}
}  // namespace

Outputs indexOp(OpKind op, Inputs in, const OpAttrs& a) {
  std::string_view nm = opName(op);
  switch (op) {
    case OpKind::IndexSelect: {
      arity(op, in, 2, 2);
      const SymShape& x = in[0].shape;
      needInt(nm, in[1], "index");
      if (in[1].shape.size() > 1)
        fail(ErrorKind::ShapeError, nm, "index must be 1-D, got shape " + str(in[1].shape));
      SymShape out = x;
      SymInt count = in[1].shape.empty() ? SymInt(1) : in[1].shape[0];
      if (x.empty()) return {{{}, in[0].dtype}};
      out[normalizeDim(a.dim, rank(x), nm)] = count;
      return {{out, in[0].dtype}};
    }
    case OpKind::Gather: {
      arity(op, in, 2, 2);
      const SymShape& x = in[0].shape;
      const SymShape& idx = in[1].shape;
      needInt(nm, in[1], "index");
      if (idx.size() != x.size())
        fail(ErrorKind::ShapeError, nm,
             "index rank must equal input rank: " + str(x) + " and " + str(idx));
      int64_t dim = normalizeDim(a.dim, rank(x), nm);
      for (size_t i = 0; i < x.size(); ++i) {
        if (static_cast<int64_t>(i) == dim) continue;
        require(idx[i] <= x[i], ErrorKind::ShapeError, [&] {
          return std::string(nm) + ": index " + str(idx) + " is larger than input " + str(x) +
                 " at dim " + std::to_string(i);
        });
      }
      return {{idx, in[0].dtype}};
    }
    case OpKind::IndexAdd:
    case OpKind::IndexCopy:
    case OpKind::Scatter:
    case OpKind::ScatterAdd:
    case OpKind::ScatterReduce:
      return scatterOp(op, in, a);
    case OpKind::Nonzero: {
      arity(op, in, 1, 1);
      SymInt u = dataDependentSize(nm, in, a, product(in[0].shape));
      return {{{u, SymInt(rank(in[0].shape))}, DType::I32}};
    }
    case OpKind::MaskedSelect: {
      arity(op, in, 2, 2);
      needBool(nm, in[1]);
      SymShape b = broadcastShapes(in[0].shape, in[1].shape, nm);
      return {{{dataDependentSize(nm, in, a, product(b))}, in[0].dtype}};
    }
    case OpKind::MaskedScatter: {
      arity(op, in, 3, 3);
      needBool(nm, in[1]);
      SymShape b = broadcastShapes(in[0].shape, in[1].shape, nm);
      // (masked_scatter() expands x to the common shape before this op.)
      if (b.size() != in[0].shape.size())
        fail(ErrorKind::ShapeError, nm,
             "mask " + str(in[1].shape) + " has more dims than x " + str(in[0].shape));
      if (!sameShape(b, in[0].shape))
        for (size_t i = 0; i < b.size(); ++i)
          requireEq(b[i], in[0].shape[i], nm,
                    "mask " + str(in[1].shape) + " does not broadcast to " + str(in[0].shape));
      if (in[2].dtype != in[0].dtype)
        fail(ErrorKind::TypeError, nm,
             "source dtype " + std::string(name(in[2].dtype)) + " differs from " +
                 std::string(name(in[0].dtype)));
      return {{in[0].shape, in[0].dtype}};
    }
    case OpKind::Unique: {
      arity(op, in, 1, 1);
      return {{{dataDependentSize(nm, in, a, product(in[0].shape))}, in[0].dtype}};
    }
    case OpKind::RepeatInterleave:
    case OpKind::Bincount:
    case OpKind::SegmentReduce:
      return jaggedOp(op, in, a);
    case OpKind::Nms:
      return sortOp(op, in, a);
    case OpKind::Item: {
      arity(op, in, 1, 1);
      requireEq(product(in[0].shape), SymInt(1), nm,
                "only a tensor with one element can be converted to a number, this one is " +
                    str(in[0].shape));
      return {{{}, in[0].dtype}};
    }
    default:
      break;
  }
  TESSEL_ASSERT(false, "indexOp: not an index op");
  return {};
}

}  // namespace tessel::shapes::rules
