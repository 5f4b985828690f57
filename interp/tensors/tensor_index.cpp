// Tensor indexing: x[1], x[1:3, ::2], x[..., -1], x[none], x[mask], x[idx]. Basic indices
// become select/slice/unsqueeze views; a bool mask is masked_select (or a row selection), an
// int tensor is index_select. All run as ops, so autodiff sees them.
#include "interp/values/sym_value.h"
#include "interp/tensors/tensor_bridge.h"
#include "interp/tensors/tensor_natives.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

bool isTensorIndex(const IndexItem& item) {
  return item.kind == Subscript::Kind::Single && item.index.is(Type::Tensor);
}

OpAttrs reshapeTo(shapes::SymShape shape) {
  OpAttrs at;
  at.shape = std::move(shape);
  return at;
}

// x[mask] where mask covers the leading dims of x: keeps the rows where mask is true.
Value maskIndex(const Value& x, int64_t dim, const Value& mask) {
  int64_t maskRank = rankOf(mask);
  if (dim == 0 && maskRank == rankOf(x)) return emitOp(OpKind::MaskedSelect, {x, mask});
  if (maskRank != 1)
    throwUserError(ErrorKind::IndexError,
                   "a boolean index must have the shape of the tensor or be 1-D; got " +
                       std::to_string(maskRank) + "-D for a " + std::to_string(rankOf(x)) +
                       "-D tensor");
  Value rows = emitOp(OpKind::Nonzero, {mask});  // [n, 1]
  rows = emitOp(OpKind::Reshape, {rows}, reshapeTo({-1}));
  OpAttrs at;
  at.dim = dim;
  return emitOp(OpKind::IndexSelect, {x, rows}, at);
}

// x[idx] with an int tensor of any rank: index_select on the flattened indices, then the
// index's shape replaces the indexed dim, as in NumPy.
Value intTensorIndex(const Value& x, int64_t dim, const Value& idx) {
  int64_t idxRank = rankOf(idx);
  Value flatIdx = idxRank == 1 ? idx : emitOp(OpKind::Reshape, {idx}, reshapeTo({-1}));
  OpAttrs at;
  at.dim = dim;
  Value out = emitOp(OpKind::IndexSelect, {x, flatIdx}, at);
  if (idxRank == 1) return out;
  shapes::SymShape xs = shapeOf(x), is = shapeOf(idx), shape;
  shape.insert(shape.end(), xs.begin(), xs.begin() + dim);
  shape.insert(shape.end(), is.begin(), is.end());
  shape.insert(shape.end(), xs.begin() + dim + 1, xs.end());
  return emitOp(OpKind::Reshape, {out}, reshapeTo(std::move(shape)));
}

}  // namespace

Value tensorIndex(const Value& object, const std::vector<IndexItem>& items) {
  Value x = object;
  int64_t rank = rankOf(x);
  int64_t consumed = 0, ellipses = 0, tensors = 0;
  for (const IndexItem& item : items) {
    if (item.kind == Subscript::Kind::Ellipsis)
      ++ellipses;
    else if (item.kind == Subscript::Kind::Single && item.index.is(Type::None))
      continue;
    else if (isTensorIndex(item) && dtypeOf(item.index) == DType::Bool)
      consumed += std::max<int64_t>(1, rankOf(item.index));
    else
      ++consumed;
    tensors += isTensorIndex(item);
  }
  if (ellipses > 1)
    throwUserError(ErrorKind::IndexError, "an index can only have a single ellipsis ('...')");
  if (tensors > 1)
    throwUserError(ErrorKind::IndexError, "only one tensor index per expression is supported");
  if (consumed > rank)
    throwUserError(ErrorKind::IndexError,
                   "too many indices for a tensor of dimension " + std::to_string(rank));

  int64_t dim = 0;
  for (const IndexItem& item : items) {
    switch (item.kind) {
      case Subscript::Kind::Ellipsis:
        dim += rank - consumed;
        break;  // the dims no index names
      case Subscript::Kind::Slice: {
        OpAttrs at;
        at.dim = dim;
        if (item.lo) at.start = *item.lo;
        if (item.hi) at.stop = *item.hi;
        int64_t step = item.step.value_or(1);
        if (step <= 0)
          throwUserError(ErrorKind::ValueError,
                         "slice step must be positive for tensors, got " + std::to_string(step));
        at.step = step;
        x = emitOp(OpKind::Slice, {x}, at);
        ++dim;
        break;
      }
      case Subscript::Kind::Single: {
        const Value& v = item.index;
        if (v.is(Type::None)) {
          OpAttrs at;
          at.dim = dim;
          x = emitOp(OpKind::Unsqueeze, {x}, at);
          ++dim;
        } else if (v.is(Type::Tensor)) {
          DType dt = dtypeOf(v);
          if (dt == DType::Bool) {
            x = maskIndex(x, dim, v);
            dim += 1;
          } else if (dt == DType::I32) {
            x = intTensorIndex(x, dim, v);
            dim += rankOf(v);
          } else {
            throwUserError(ErrorKind::IndexError,
                           "tensors used as indices must be i32 or bool, not f32");
          }
        } else if (v.is(Type::Int) || v.is(Type::Bool) || v.is(Type::SymInt) ||
                   v.is(Type::SymBool)) {
          // A symbolic int (a dynamic int argument, a size, a loop counter carried into a
          // region) stays symbolic, as slice bounds do (found by fuzz_compile_diff: it was a
          // TypeError compiled, where eager code indexed).
          OpAttrs at;
          at.dim = dim;
          at.index = v.is(Type::SymBool) ? shapes::SymInt(int64_t{concreteBool(v)}) : toSymInt(v);
          x = emitOp(OpKind::Select, {x}, at);
        } else {
          throwUserError(ErrorKind::TypeError,
                         "tensor indices must be ints, slices, '...', none or tensors, not '" +
                             std::string(typeName(v.type())) + "'");
        }
        break;
      }
    }
  }
  return x;
}

}  // namespace tessel::interp
