// Built-ins for scans, index/segment, sort and detection ops (PyTorch names, argument order
// and semantics): cumsum, cumprod, diff. Each parses its arguments into OpAttrs and emits the
// op, so the same native runs eagerly and under @compile. Every one is also a method.
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

template <OpKind K>
Value scanNative(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const char* fn = shapes::opName(K).data();
  ArgBinder b(fn, s.args(), {"x", "dim"}, 2);
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
  ArgBinder b("diff", s.args(), {"x", "n", "dim", "prepend", "append"}, 1);
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

const TensorNative kSparse[] = {
    {"cumsum", scanNative<OpKind::Cumsum>, true},
    {"cumprod", scanNative<OpKind::Cumprod>, true},
    {"diff", nativeDiff, true},
};

}  // namespace

std::span<const TensorNative> tensorSparseNatives() {
  return kSparse;
}

}  // namespace tessel::interp
