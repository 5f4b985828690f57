// Tensor indexing: x[1], x[1:3, ::2], x[..., -1], x[none], x[mask], x[idx]. Basic indices
// become select/slice/unsqueeze views; a bool mask is masked_select (or a row selection), an
// int tensor is index_select. All run as ops, so autodiff sees them.
#include "backends/ops.h"
#include "interp/tensor_bridge.h"
#include "interp/tensor_natives.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

bool isTensorIndex(const IndexItem& item) {
  return item.kind == Subscript::Kind::Single && item.index.is(Type::Tensor);
}

// x[mask] where mask covers the leading dims of x: keeps the rows where mask is true.
Tensor maskIndex(const Tensor& x, int64_t dim, const Tensor& mask) {
  if (dim == 0 && mask.ndim() == x.ndim()) return backends::ops::maskedSelect(x, mask);
  if (mask.ndim() != 1)
    throwUserError(ErrorKind::IndexError, "a boolean index must have the shape of the tensor or be 1-D; got " +
                                              std::to_string(mask.ndim()) + "-D for a " +
                                              std::to_string(x.ndim()) + "-D tensor");
  Tensor rows = backends::call(OpKind::Nonzero, {mask});  // [n, 1]
  OpAttrs flat;
  flat.shape = {-1};
  rows = backends::call(OpKind::Reshape, {rows}, flat);
  OpAttrs at;
  at.dim = dim;
  return backends::call(OpKind::IndexSelect, {x, rows}, at);
}

// x[idx] with an int tensor of any rank: index_select on the flattened indices, then the
// index's shape replaces the indexed dim, as in NumPy.
Tensor intTensorIndex(const Tensor& x, int64_t dim, const Tensor& idx) {
  OpAttrs flat;
  flat.shape = {-1};
  Tensor flatIdx = idx.ndim() == 1 ? idx : backends::call(OpKind::Reshape, {idx}, flat);
  OpAttrs at;
  at.dim = dim;
  Tensor out = backends::call(OpKind::IndexSelect, {x, flatIdx}, at);
  if (idx.ndim() == 1) return out;
  OpAttrs shape;
  for (int64_t d = 0; d < dim; ++d) shape.shape.push_back(x.size(d));
  for (int64_t s : idx.shape()) shape.shape.push_back(s);
  for (int64_t d = dim + 1; d < x.ndim(); ++d) shape.shape.push_back(x.size(d));
  return backends::call(OpKind::Reshape, {out}, shape);
}

}  // namespace

Value tensorIndex(Interpreter&, const Value& object, const std::vector<IndexItem>& items) {
  Tensor x = asTensor(object);
  int64_t consumed = 0, ellipses = 0, tensors = 0;
  for (const IndexItem& item : items) {
    if (item.kind == Subscript::Kind::Ellipsis) ++ellipses;
    else if (item.kind == Subscript::Kind::Single && item.index.is(Type::None)) continue;
    else if (isTensorIndex(item) && asTensor(item.index).dtype() == DType::Bool)
      consumed += std::max<int64_t>(1, asTensor(item.index).ndim());
    else ++consumed;
    tensors += isTensorIndex(item);
  }
  if (ellipses > 1) throwUserError(ErrorKind::IndexError, "an index can only have a single ellipsis ('...')");
  if (tensors > 1) throwUserError(ErrorKind::IndexError, "only one tensor index per expression is supported");
  if (consumed > x.ndim())
    throwUserError(ErrorKind::IndexError, "too many indices for a tensor of dimension " + std::to_string(x.ndim()));

  int64_t dim = 0;
  for (const IndexItem& item : items) {
    switch (item.kind) {
      case Subscript::Kind::Ellipsis: dim += x.ndim() - dim - (consumed - dim); consumed = x.ndim(); break;
      case Subscript::Kind::Slice: {
        OpAttrs at;
        at.dim = dim;
        if (item.lo) at.start = *item.lo;
        if (item.hi) at.stop = *item.hi;
        int64_t step = item.step.value_or(1);
        if (step <= 0) throwUserError(ErrorKind::ValueError, "slice step must be positive for tensors, got " + std::to_string(step));
        at.step = step;
        x = backends::call(OpKind::Slice, {x}, at);
        ++dim;
        break;
      }
      case Subscript::Kind::Single: {
        const Value& v = item.index;
        if (v.is(Type::None)) {
          OpAttrs at;
          at.dim = dim;
          x = backends::call(OpKind::Unsqueeze, {x}, at);
          ++dim;
          --consumed;  // keeps the ellipsis arithmetic right: a new axis consumes nothing
          ++consumed;
        } else if (v.is(Type::Tensor)) {
          const Tensor& idx = asTensor(v);
          if (idx.dtype() == DType::Bool) {
            x = maskIndex(x, dim, idx);
            dim += 1;
          } else if (idx.dtype() == DType::I32) {
            x = intTensorIndex(x, dim, idx);
            dim += idx.ndim();
          } else {
            throwUserError(ErrorKind::IndexError, "tensors used as indices must be i32 or bool, not f32");
          }
        } else if (v.is(Type::Int) || v.is(Type::Bool)) {
          OpAttrs at;
          at.dim = dim;
          at.index = v.is(Type::Int) ? v.asInt() : v.asBool();
          x = backends::call(OpKind::Select, {x}, at);
        } else {
          throwUserError(ErrorKind::TypeError, "tensor indices must be ints, slices, '...', none or tensors, not '" +
                                                   std::string(typeName(v.type())) + "'");
        }
        break;
      }
    }
  }
  return makeTensor(x);
}

}  // namespace tessel::interp
