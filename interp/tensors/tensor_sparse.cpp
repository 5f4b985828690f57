// Built-ins for scans, index/segment, sort and detection ops (PyTorch names, argument order
// and semantics): cumsum, cumprod, diff; index_add, index_copy, scatter, scatter_add,
// scatter_reduce; sort, argsort, topk, searchsorted, nms. Each parses its arguments into
// OpAttrs and emits the op, so the same native runs eagerly and under @compile. All but
// searchsorted and nms are also methods.
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

template <OpKind K, const NativeSignature& S>
Value scanNative(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const char* fn = S.name;
  ArgBinder b(S, s.args());
  OpAttrs attrs;
  attrs.dim = b.toInt(1);
  return emitOp(K, {tensorArg(b.at(0), std::string(fn) + "(): x")}, attrs);
}

Value sliceAlong(const Value& x, int64_t dim, int64_t start, std::optional<int64_t> stop) {
  OpAttrs a;
  a.dim = dim;
  a.start = shapes::SymInt(start);
  if (stop) a.stop = shapes::SymInt(*stop);
  return emitOp(OpKind::Slice, {x}, a);
}

// diff(x, n = 1, dim = -1, prepend = none, append = none) as torch.diff: x[1:] - x[:-1] along
// dim, n times (logical xor for bool). Written with slice/sub/cat rather than as its own op:
// those already carry symbolic sizes, gradients and kernels on every backend.
Value nativeDiff(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::diff, s.args());
  Value x = tensorArg(b.at(0), "diff(): x");
  const int64_t n = b.intOr(1, 1);
  const int64_t dim = b.intOr(2, -1);
  const int64_t rank = rankOf(x);
  if (rank == 0)
    throwUserError(ErrorKind::ShapeError, "diff(): x must have at least one dimension");
  if (n < 0)
    throwUserError(ErrorKind::ValueError,
                   "diff(): n must be non-negative, got " + std::to_string(n));
  if (dim < -rank || dim >= rank)
    throwUserError(ErrorKind::IndexError, "diff(): dimension " + std::to_string(dim) +
                                              " is out of range for a tensor of rank " +
                                              std::to_string(rank));
  std::vector<Value> parts;
  for (int k : {3, 0, 4}) {
    if (k == 0) {
      parts.push_back(x);
      continue;
    }
    if (!b.has(k) || b.at(k).is(Type::None)) continue;
    const char* what = k == 3 ? "diff(): prepend" : "diff(): append";
    if (!b.at(k).is(Type::Tensor))
      throwUserError(ErrorKind::TypeError, std::string(what) + " must be a tensor");
    if (rankOf(b.at(k)) != rank)
      throwUserError(ErrorKind::ShapeError, std::string(what) + " must have x's rank " +
                                                std::to_string(rank) + ", got rank " +
                                                std::to_string(rankOf(b.at(k))));
    parts.push_back(b.at(k));
  }
  OpAttrs cat;
  cat.dim = dim;
  if (parts.size() > 1) x = emitOp(OpKind::Cat, parts, cat);
  const OpKind minus = dtypeOf(x) == DType::Bool ? OpKind::Ne : OpKind::Sub;
  for (int64_t i = 0; i < n; ++i)
    x = emitOp(minus, {sliceAlong(x, dim, 1, std::nullopt), sliceAlong(x, dim, 0, -1)});
  return x;
}

// A number as a source becomes a 0-d tensor of x's dtype (PyTorch's scatter(x, d, i, value)).
Value sourceArg(const Value& x, const Value& src, const std::string& what) {
  const Value& s = tensorArg(src, what);
  if (s.is(Type::Tensor)) return s;
  OpAttrs a;
  a.dtype = dtypeOf(x);
  return emitOp(OpKind::Cast, {s}, a);
}

// index_add(x, dim, index, src, alpha = 1), index_copy(x, dim, index, src), scatter(x, dim,
// index, src), scatter_add(x, dim, index, src).
// Only index_add's signature has `alpha`: the others' binders have 4 parameters.
template <OpKind K, const NativeSignature& S>
Value writeNative(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const std::string fn(S.name);
  const bool alpha = K == OpKind::IndexAdd;
  ArgBinder b(S, s.args());
  OpAttrs attrs;
  attrs.dim = b.toInt(1);
  if (alpha && b.has(4)) attrs.scalars = {b.toFloat(4)};
  const Value& x = tensorArg(b.at(0), fn + "(): x");
  return emitOp(K, {x, tensorArg(b.at(2), fn + "(): index"), sourceArg(x, b.at(3), fn + "(): src")},
                attrs);
}

Value nativeScatterReduce(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::scatter_reduce, s.args());
  OpAttrs attrs;
  attrs.dim = b.toInt(1);
  const std::string& r = b.toStr(4);
  using shapes::ScatterMode;
  if (r == "sum")
    attrs.scatterMode = ScatterMode::Sum;
  else if (r == "prod")
    attrs.scatterMode = ScatterMode::Prod;
  else if (r == "mean")
    attrs.scatterMode = ScatterMode::Mean;
  else if (r == "amax")
    attrs.scatterMode = ScatterMode::Amax;
  else if (r == "amin")
    attrs.scatterMode = ScatterMode::Amin;
  else
    throwUserError(ErrorKind::ValueError,
                   "scatter_reduce(): reduce must be \"sum\", \"prod\", "
                   "\"mean\", \"amax\" or \"amin\", not \"" +
                       r + "\"");
  attrs.includeSelf = b.has(5) ? b.toBool(5) : true;
  const Value& x = tensorArg(b.at(0), "scatter_reduce(): x");
  return emitOp(OpKind::ScatterReduce,
                {x, tensorArg(b.at(2), "scatter_reduce(): index"),
                 sourceArg(x, b.at(3), "scatter_reduce(): src")},
                attrs);
}

// Sorting and detection. sort and topk return (values, indices) tuples: the kernels
// compute the i32 indices (argsort, topk) and the values are gather(x, dim, indices), so the
// values' gradient is gather's (the grad scattered back by the indices) on every backend.
Value gatherAlong(const Value& x, const Value& idx, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return emitOp(OpKind::Gather, {x, idx}, a);
}

Value sortedTensor(const Value& v, const char* what) {
  const Value& x = tensorArg(v, what);
  if (!x.is(Type::Tensor))
    throwUserError(ErrorKind::TypeError, std::string(what) + " must be a tensor, not '" +
                                             std::string(typeName(x.type())) + "'");
  return x;
}

// argsort(x, dim = -1, descending = false, stable = false). Every sort here is stable (ties in
// input order), which is one of the orders PyTorch allows when stable is false.
Value nativeArgsort(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::argsort, s.args());
  OpAttrs attrs;
  attrs.dim = b.intOr(1, -1);
  attrs.descending = b.has(2) && b.toBool(2);
  if (b.has(3)) b.toBool(3);
  return emitOp(OpKind::Argsort, {sortedTensor(b.at(0), "argsort(): x")}, attrs);
}

// sort(x, dim = -1, descending = false, stable = false) -> (values, indices).
Value nativeSort(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::sort, s.args());
  OpAttrs attrs;
  attrs.dim = b.intOr(1, -1);
  attrs.descending = b.has(2) && b.toBool(2);
  if (b.has(3)) b.toBool(3);
  const Value x = sortedTensor(b.at(0), "sort(): x");
  shapes::normalizeDim(attrs.dim, rankOf(x), "sort");
  Value idx = emitOp(OpKind::Argsort, {x}, attrs);
  return makeTuple({gatherAlong(x, idx, attrs.dim), idx});
}

// topk(x, k, dim = -1, largest = true, sorted = true) -> (values, indices). k is a size: an
// int or a symbolic size (min(1000, n) of a data-dependent n). The result is always sorted,
// which sorted = false allows.
Value nativeTopk(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::topk, s.args());
  const Value& kv = b.at(1);
  if (!kv.is(Type::Int) && !kv.is(Type::SymInt))
    throwUserError(ErrorKind::TypeError, "topk(): k must be an int, not '" +
                                             std::string(typeName(kv.type())) + "'");
  OpAttrs attrs;
  attrs.stop = toSymInt(kv);
  attrs.dim = b.intOr(2, -1);
  attrs.descending = !b.has(3) || b.toBool(3);
  if (b.has(4)) b.toBool(4);
  const Value x = sortedTensor(b.at(0), "topk(): x");
  Value idx = emitOp(OpKind::Topk, {x}, attrs);
  return makeTuple({gatherAlong(x, idx, attrs.dim), idx});
}

// searchsorted(sorted_sequence, values, right = false, side = none): torch.searchsorted.
Value nativeSearchsorted(Interpreter&, CallArgs& raw) {
  ArgBinder b(sig::searchsorted, raw);
  OpAttrs attrs;
  attrs.right = b.has(2) && b.toBool(2);
  if (b.has(3) && !b.at(3).is(Type::None)) {
    const std::string& side = b.toStr(3);
    if (side != "left" && side != "right")
      throwUserError(ErrorKind::ValueError,
                     "searchsorted(): side must be \"left\" or \"right\", not \"" + side + "\"");
    if (b.has(2) && attrs.right != (side == "right"))
      throwUserError(ErrorKind::ValueError,
                     "searchsorted(): side and right disagree (side=\"" + side + "\", right=" +
                         (attrs.right ? "true" : "false") + ")");
    attrs.right = side == "right";
  }
  return emitOp(OpKind::Searchsorted,
                {sortedTensor(b.at(0), "searchsorted(): sorted_sequence"),
                 tensorArg(b.at(1), "searchsorted(): values")},
                attrs);
}

// nms(boxes, scores, iou_threshold): torchvision.ops.nms; i32 indices in decreasing score.
Value nativeNms(Interpreter&, CallArgs& raw) {
  ArgBinder b(sig::nms, raw);
  OpAttrs attrs;
  attrs.scalars = {b.toFloat(2)};
  return emitOp(OpKind::Nms,
                {sortedTensor(b.at(0), "nms(): boxes"), sortedTensor(b.at(1), "nms(): scores")},
                attrs);
}

const TensorNative kSparse[] = {
    {"sort", nativeSort, true},
    {"argsort", nativeArgsort, true},
    {"topk", nativeTopk, true},
    {"searchsorted", nativeSearchsorted, false},
    {"nms", nativeNms, false},
    {"index_add", writeNative<OpKind::IndexAdd, sig::index_add>, true},
    {"index_copy", writeNative<OpKind::IndexCopy, sig::index_copy>, true},
    {"scatter", writeNative<OpKind::Scatter, sig::scatter>, true},
    {"scatter_add", writeNative<OpKind::ScatterAdd, sig::scatter_add>, true},
    {"scatter_reduce", nativeScatterReduce, true},
    {"cumsum", scanNative<OpKind::Cumsum, sig::cumsum>, true},
    {"cumprod", scanNative<OpKind::Cumprod, sig::cumprod>, true},
    {"diff", nativeDiff, true},
};

}  // namespace

std::span<const TensorNative> tensorSparseNatives() {
  return kSparse;
}

}  // namespace tessel::interp
