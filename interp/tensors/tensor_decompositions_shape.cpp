// Shape and view functions with PyTorch 1.13's names, arguments and semantics, composed of
// existing ops through emitOp: unbind, narrow, broadcast_to, movedim, swapaxes, unflatten,
// tile, diag, diagonal, meshgrid. Sizes stay symbolic, so each one runs eagerly on every
// device, is traced under @compile and takes its gradient from the ops it is made of.
// The comparison and normalization family is in tensor_decompositions_compare.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include "interp/tensors/decomposition_util.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

using namespace decomp;
using namespace compose;

namespace {

// unbind(input, dim = 0): a tuple of the slices along dim (torch returns a tuple too). The
// count of pieces needs the dim's concrete size, as split's.
Value nativeUnbind(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::unbind, s.args());
  const Value& x = tensorArg(b.at(0), "unbind(): input");
  const int64_t dim = wrapDim(b.intOr(1, 0), rankOf(x), "unbind", false);
  std::vector<Value> out;
  const int64_t n = concreteDim(x, dim);
  for (int64_t i = 0; i < n; ++i) {
    OpAttrs a;
    a.dim = dim;
    a.index = SymInt(i);
    out.push_back(emitOp(OpKind::Select, {x}, a));
  }
  return makeTuple(std::move(out));
}

// narrow(input, dim, start, length): a slice; a negative start counts from the end and
// start == size is allowed (an empty slice), as torch 1.13.
Value nativeNarrow(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::narrow, s.args());
  const Value& x = tensorArg(b.at(0), "narrow(): input");
  const int64_t dim = wrapDim(b.toInt(1), rankOf(x), "narrow", false);
  const SymInt n = shapeOf(x)[dim];
  SymInt start = intArg(b.at(2), "narrow(): start");
  const SymInt length = intArg(b.at(3), "narrow(): length");
  if (auto c = length.maybeConstant(); c && *c < 0)
    throwUserError(ErrorKind::ValueError,
                   "narrow(): length must be non-negative, got " + std::to_string(*c));
  shapes::require(start >= -n, ErrorKind::IndexError, [&] {
    return "narrow(): start " + shapes::errorText(start) + " is out of range for dim " +
           std::to_string(dim) + " of size " + shapes::errorText(n);
  });
  shapes::require(start <= n, ErrorKind::IndexError, [&] {
    return "narrow(): start " + shapes::errorText(start) + " is out of range for dim " +
           std::to_string(dim) + " of size " + shapes::errorText(n);
  });
  if (shapes::evaluate(start < SymInt(0))) start = start + n;
  shapes::require(start + length <= n, ErrorKind::ValueError, [&] {
    return "narrow(): start (" + shapes::errorText(start) + ") + length (" +
           shapes::errorText(length) + ") exceeds dim " + std::to_string(dim) + " of size " +
           shapes::errorText(n);
  });
  return sliceOf(x, dim, start, start + length);
}

// broadcast_to(input, size): expand, checked here so that errors name broadcast_to.
Value nativeBroadcastTo(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::broadcast_to, s.args());
  const Value& x = tensorArg(b.at(0), "broadcast_to(): input");
  const SymShape target = toSymDims(b.at(1), "broadcast_to(): size");
  const SymShape xs = shapeOf(x);
  auto bad = [&] {
    return "broadcast_to(): cannot broadcast a tensor of shape " + shapes::errorText(xs) + " to " +
           shapes::errorText(target);
  };
  if (target.size() < xs.size()) throwUserError(ErrorKind::ShapeError, bad());
  const size_t lead = target.size() - xs.size();
  for (size_t i = 0; i < target.size(); ++i) {
    const auto t = target[i].maybeConstant();
    if (i < lead) {
      if (t && *t < 0) throwUserError(ErrorKind::ShapeError, bad());
      continue;
    }
    const SymInt& have = xs[i - lead];
    if (t == -1 || have.maybeConstant() == 1) continue;
    shapes::require(target[i] == have, ErrorKind::ShapeError, bad);
  }
  OpAttrs e;
  e.shape = target;
  return emitOp(OpKind::Expand, {x}, e);
}

// movedim(input, source, destination): a permute that puts source[i] at destination[i] and
// the other dims, in order, in the places left.
Value nativeMovedim(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::movedim, s.args());
  const Value& x = tensorArg(b.at(0), "movedim(): input");
  const int64_t rank = rankOf(x);
  std::vector<int64_t> src = toDimList(b.at(1), "movedim(): source");
  std::vector<int64_t> dst = toDimList(b.at(2), "movedim(): destination");
  if (src.size() != dst.size())
    throwUserError(ErrorKind::ValueError,
                   "movedim(): source and destination must have the same number of dims, got " +
                       std::to_string(src.size()) + " and " + std::to_string(dst.size()));
  for (int64_t& d : src) d = wrapDim(d, rank, "movedim", true);
  for (int64_t& d : dst) d = wrapDim(d, rank, "movedim", true);
  requireDistinct(src, "movedim", "source");
  requireDistinct(dst, "movedim", "destination");
  if (rank == 0) return x;
  std::vector<int64_t> order(size_t(rank), -1);
  std::vector<bool> moved(size_t(rank), false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[size_t(dst[i])] = src[i];
    moved[size_t(src[i])] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o >= 0) continue;
    while (moved[size_t(next)]) ++next;
    o = next++;
  }
  OpAttrs p;
  p.dims = order;
  return emitOp(OpKind::Permute, {x}, p);
}

// swapaxes(input, axis0, axis1): NumPy's name for transpose.
Value nativeSwapaxes(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::swapaxes, s.args());
  const Value& x = tensorArg(b.at(0), "swapaxes(): input");
  const int64_t rank = rankOf(x);
  OpAttrs a;
  a.dims = {wrapDim(b.toInt(1), rank, "swapaxes", true),
            wrapDim(b.toInt(2), rank, "swapaxes", true)};
  if (rank == 0) return x;
  return emitOp(OpKind::Transpose, {x}, a);
}

// unflatten(input, dim, sizes): dim split into sizes (one may be -1, inferred from the rest).
Value nativeUnflatten(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::unflatten, s.args());
  const Value& x = tensorArg(b.at(0), "unflatten(): input");
  const int64_t dim = wrapDim(b.toInt(1), rankOf(x), "unflatten", false);
  SymShape sizes = toSymDims(b.at(2), "unflatten(): sizes");
  if (sizes.empty()) throwUserError(ErrorKind::ValueError, "unflatten(): sizes must be non-empty");
  const SymShape xs = shapeOf(x);
  const SymInt n = xs[size_t(dim)];
  int inferred = -1;
  SymInt known = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto c = sizes[i].maybeConstant();
    if (c == -1) {
      if (inferred >= 0)
        throwUserError(ErrorKind::ValueError, "unflatten(): only one size may be -1");
      inferred = int(i);
      continue;
    }
    if (c && *c < 0)
      throwUserError(ErrorKind::ValueError,
                     "unflatten(): sizes must be non-negative or -1, got " + std::to_string(*c));
    known = known * sizes[i];
  }
  auto bad = [&] {
    return "unflatten(): sizes " + shapes::errorText(sizes) + " don't multiply up to the size " +
           shapes::errorText(n) + " of dim " + std::to_string(dim);
  };
  if (inferred >= 0) {
    shapes::require(known != SymInt(0), ErrorKind::ShapeError, bad);
    shapes::require(shapes::mod(n, known) == SymInt(0), ErrorKind::ShapeError, bad);
    sizes[size_t(inferred)] = shapes::floorDiv(n, known);
  } else {
    shapes::require(known == n, ErrorKind::ShapeError, bad);
  }
  SymShape out(xs.begin(), xs.begin() + dim);
  out.insert(out.end(), sizes.begin(), sizes.end());
  out.insert(out.end(), xs.begin() + dim + 1, xs.end());
  return reshapeTo(x, out);
}

// tile(input, dims): repeat with dims padded by leading 1s to the rank (repeat wants at
// least the rank; more dims prepend new ones in both).
Value nativeTile(Interpreter& in, CallArgs& raw) {
  SelfArgs s(raw);
  SizesArgs a = bindSizes(s.args(), sig::tile);
  const Value& x = tensorArg(a.x, "tile(): input");
  std::vector<Value> reps;
  if (a.sizes.size() == 1 && !a.sizes[0].is(Type::Int) && !a.sizes[0].is(Type::SymInt))
    reps = iterate(a.sizes[0], "tile(): dims");
  else
    reps = std::move(a.sizes);
  for (const Value& r : reps)
    if (auto c = intArg(r, "tile(): dims").maybeConstant(); c && *c < 0)
      throwUserError(ErrorKind::ValueError,
                     "tile(): dims must be non-negative, got " + std::to_string(*c));
  const int64_t rank = rankOf(x);
  if (int64_t(reps.size()) < rank)
    reps.insert(reps.begin(), size_t(rank) - reps.size(), Value::integer(1));
  return callNative(tensorDenseUtilNatives(), "repeat", in, {x, makeList(std::move(reps))});
}

// diagonal(input, offset = 0, dim1 = 0, dim2 = 1): dim1 and dim2 moved last and merged, then
// every (C + 1)-th element from the diagonal's first: index_select of symbolic indices, so the
// gradient is index_add's and one graph serves every size. The diagonal is the last dim.
Value diagonalOf(const Value& x, int64_t offset, int64_t dim1, int64_t dim2, const char* fn) {
  const int64_t rank = rankOf(x);
  if (rank < 2)
    throwUserError(
        ErrorKind::IndexError,
        std::string(fn) + "(): input must have at least 2 dims, got " + std::to_string(rank));
  dim1 = wrapDim(dim1, rank, fn, false);
  dim2 = wrapDim(dim2, rank, fn, false);
  if (dim1 == dim2)
    throwUserError(
        ErrorKind::ValueError,
        std::string(fn) + "(): dim1 and dim2 cannot be the same (" + std::to_string(dim1) + ")");
  OpAttrs p;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim1 && d != dim2) p.dims.push_back(d);
  p.dims.insert(p.dims.end(), {dim1, dim2});
  Value y = emitOp(OpKind::Permute, {x}, p);
  SymShape shape = shapeOf(y);
  const SymInt rows = shape[size_t(rank - 2)], cols = shape[size_t(rank - 1)];
  const SymInt k = SymInt(offset);
  const SymInt len = offset >= 0 ? shapes::max(shapes::min(rows, cols - k), SymInt(0))
                                 : shapes::max(shapes::min(rows + k, cols), SymInt(0));
  const SymInt first = offset >= 0 ? k : -k * cols;
  shape.pop_back();
  shape.back() = rows * cols;
  y = reshapeTo(y, shape);
  Value idx = op(OpKind::Add, op(OpKind::Mul, arangeI32(len), makeSymInt(cols + SymInt(1))),
                 makeSymInt(first));
  OpAttrs sel;
  sel.dim = rank - 2;
  return emitOp(OpKind::IndexSelect, {y, idx}, sel);
}

Value nativeDiagonal(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::diagonal, s.args());
  const Value& x = tensorArg(b.at(0), "diagonal(): input");
  return diagonalOf(x, b.intOr(1, 0), b.intOr(2, 0), b.intOr(3, 1), "diagonal");
}

// diag(input, diagonal = 0): a 2-D input gives its diagonal; a 1-D one of length n gives the
// [m, m] matrix (m = n + |diagonal|) with the vector on that diagonal: where(j - i ==
// diagonal, v, 0) with v padded by zeros to m and read along rows (above the main diagonal)
// or columns (below).
Value nativeDiag(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::diag, s.args());
  const Value& x = tensorArg(b.at(0), "diag(): input");
  const int64_t k = b.intOr(1, 0);
  const int64_t rank = rankOf(x);
  if (rank == 2) return diagonalOf(x, k, 0, 1, "diag");
  if (rank != 1)
    throwUserError(ErrorKind::ShapeError,
                   "diag(): input must be 1-D or 2-D, got " + std::to_string(rank) + " dims");
  const SymInt pad = SymInt(k < 0 ? -k : k);
  const SymInt m = shapeOf(x)[0] + pad;
  Value v = x;
  if (k != 0) v = catOf({x, fullLike(x, {pad}, 0.0)}, 0);
  v = unsqueeze(v, k >= 0 ? 1 : 0);
  Value ij = op(OpKind::Sub, arangeI32(m), unsqueeze(arangeI32(m), 1));  // j - i, [m, m]
  Value onDiag = op(OpKind::Eq, ij, Value::integer(k));
  return emitOp(OpKind::Where, {onDiag, v, zeroOf(dtypeOf(x))});
}

// meshgrid(*tensors, indexing = "ij"): each 0-D or 1-D tensor viewed along its own dim and
// expanded to the grid; "xy" swaps the first two dims of the grid (NumPy's Cartesian order).
Value nativeMeshgrid(Interpreter&, CallArgs& raw) {
  ArgBinder b(sig::meshgrid, raw);
  const std::span<const Value> tensors = b.rest();
  const std::string indexing = b.has(1) && !b.at(1).is(Type::None) ? b.toStr(1) : "ij";
  if (indexing != "ij" && indexing != "xy")
    throwUserError(ErrorKind::ValueError,
                   "meshgrid(): indexing must be \"ij\" or \"xy\", got \"" + indexing + "\"");
  std::vector<Value> ts;
  if (tensors.size() == 1 && !tensors[0].is(Type::Tensor))
    for (const Value& v : iterate(tensors[0], "meshgrid(): tensors")) ts.push_back(v);
  else
    ts.assign(tensors.begin(), tensors.end());
  if (ts.empty()) throwUserError(ErrorKind::ValueError, "meshgrid(): needs at least one tensor");
  SymShape grid;
  for (Value& t : ts) {
    t = tensorArg(t, "meshgrid(): tensors");
    if (rankOf(t) > 1)
      throwUserError(ErrorKind::ShapeError, "meshgrid(): expects 0-D or 1-D tensors, got one of " +
                                                std::to_string(rankOf(t)) + " dims");
    if (dtypeOf(t) != dtypeOf(ts[0]))
      throwUserError(ErrorKind::TypeError, "meshgrid(): expects tensors of one dtype, got " +
                                               std::string(shapes::name(dtypeOf(ts[0]))) + " and " +
                                               std::string(shapes::name(dtypeOf(t))));
    grid.push_back(rankOf(t) == 0 ? SymInt(1) : shapeOf(t)[0]);
  }
  const bool swap = indexing == "xy" && ts.size() >= 2;
  if (swap) std::swap(grid[0], grid[1]);
  std::vector<Value> out;
  for (size_t i = 0; i < ts.size(); ++i) {
    const size_t at = swap && i < 2 ? 1 - i : i;
    SymShape view(grid.size(), SymInt(1));
    view[at] = grid[at];
    OpAttrs e;
    e.shape = grid;
    out.push_back(emitOp(OpKind::Expand, {reshapeTo(ts[i], view)}, e));
  }
  return makeTuple(std::move(out));
}

const TensorNative kShape[] = {
    {"unbind", nativeUnbind, true},
    {"narrow", nativeNarrow, true},
    {"broadcast_to", nativeBroadcastTo, true},
    {"movedim", nativeMovedim, true},
    {"swapaxes", nativeSwapaxes, true},
    {"unflatten", nativeUnflatten, true},
    {"tile", nativeTile, true},
    {"diagonal", nativeDiagonal, true},
    {"diag", nativeDiag, true},
    {"meshgrid", nativeMeshgrid, false},
};

}  // namespace

std::span<const TensorNative> tensorDecompositionNatives() {
  static const std::vector<TensorNative> all = [] {
    std::vector<TensorNative> v(std::begin(kShape), std::end(kShape));
    for (const TensorNative& n : decompositionCompareNatives()) v.push_back(n);
    return v;
  }();
  return all;
}

}  // namespace tessel::interp
