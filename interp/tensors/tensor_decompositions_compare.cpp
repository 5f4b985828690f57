// Gathers, fills, normalizations and comparisons with PyTorch 1.13's names and semantics,
// composed of existing ops: take_along_dim, index_fill, glu, normalize, cosine_similarity,
// isclose, allclose. The shape family is in tensor_decompositions_shape.cpp.
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "interp/tensors/decomposition_util.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::interp {

using namespace decomp;
using namespace compose;

namespace {

const Value& floatInput(const Value& v, const char* fn, const char* what) {
  const Value& x = tensorArg(v, std::string(fn) + "(): " + what);
  if (dtypeOf(x) != DType::F32)
    throwUserError(ErrorKind::TypeError, std::string(fn) + "(): " + what +
                                             " must be a floating tensor, got " +
                                             std::string(shapes::name(dtypeOf(x))));
  return x;
}

void requireIndexDtype(const Value& index, const char* fn, const char* what) {
  if (dtypeOf(index) != DType::I32)
    throwUserError(ErrorKind::TypeError, std::string(fn) + "(): " + what +
                                             " must be an i32 tensor, got " +
                                             std::string(shapes::name(dtypeOf(index))));
}

// take_along_dim(input, indices, dim = none): gather after broadcasting input and indices
// against each other in every dim but `dim` (torch's order: indices first, then input);
// without dim both are flattened.
Value nativeTakeAlongDim(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::take_along_dim, s.args());
  Value x = tensorArg(b.at(0), "take_along_dim(): input");
  Value idx = tensorArg(b.at(1), "take_along_dim(): indices");
  requireIndexDtype(idx, "take_along_dim", "indices");
  OpAttrs g;
  if (!b.has(2) || b.at(2).is(Type::None)) {
    g.dim = 0;
    return emitOp(OpKind::Gather, {reshapeTo(x, {SymInt(-1)}), reshapeTo(idx, {SymInt(-1)})}, g);
  }
  const int64_t rank = rankOf(x);
  if (rankOf(idx) != rank)
    throwUserError(ErrorKind::ShapeError,
                   "take_along_dim(): input and indices must have the same number of dims, got " +
                       std::to_string(rank) + " and " + std::to_string(rankOf(idx)));
  const int64_t dim = wrapDim(b.toInt(2), rank, "take_along_dim", true);
  if (rank == 0) return emitOp(OpKind::Gather, {x, idx}, g);
  SymShape xs = shapeOf(x);
  const SymInt n = xs[size_t(dim)];
  xs[size_t(dim)] = shapeOf(idx)[size_t(dim)];
  SymShape common = shapes::broadcastShapes(xs, shapeOf(idx), "take_along_dim");
  auto expand = [](const Value& v, const SymShape& to) {
    if (shapes::sameShape(shapeOf(v), to)) return v;
    OpAttrs e;
    e.shape = to;
    return emitOp(OpKind::Expand, {v}, e);
  };
  idx = expand(idx, common);
  common[size_t(dim)] = n;
  x = expand(x, common);
  g.dim = dim;
  return emitOp(OpKind::Gather, {x, idx}, g);
}

// index_fill(input, dim, index, value): where(mask, value, input) with mask true at the
// positions along dim that index lists (negative ones count from the end). Indices out of
// range are an IndexError, read back eagerly and a runtime assert under @compile.
Value nativeIndexFill(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::index_fill, s.args());
  const Value& x = tensorArg(b.at(0), "index_fill(): input");
  const int64_t rank = rankOf(x);
  const int64_t dim = wrapDim(b.toInt(1), rank, "index_fill", true);
  const Value& index = tensorArg(b.at(2), "index_fill(): index");
  requireIndexDtype(index, "index_fill", "index");
  if (rankOf(index) > 1)
    throwUserError(ErrorKind::IndexError, "index_fill(): index must be 0-D or 1-D, got " +
                                              std::to_string(rankOf(index)) + " dims");
  const Value& value = tensorArg(b.at(3), "index_fill(): value");
  if (value.is(Type::Tensor) && rankOf(value) != 0)
    throwUserError(ErrorKind::ValueError,
                   "index_fill(): value must be a number or a 0-d tensor, got a tensor of " +
                       std::to_string(rankOf(value)) + " dims");
  const SymInt n = rank == 0 ? SymInt(1) : shapeOf(x)[size_t(dim)];
  const Value flat = reshapeTo(index, {SymInt(-1)});
  const SymInt count = shapeOf(flat)[0];
  auto outOfRange = [&] {
    return "index_fill(): index out of range for dim " + std::to_string(dim) + " of size " +
           shapes::errorText(n);
  };
  Value bad = op(OpKind::LogicalOr, op(OpKind::Lt, flat, makeSymInt(-n)),
                 op(OpKind::Ge, flat, makeSymInt(n)));
  if (!isFake(bad)) {
    if (count.maybeConstant().value_or(0) > 0 &&
        hostTensor(asTensor(emitOp(OpKind::Any, {bad}))).item() != 0)
      throwUserError(ErrorKind::IndexError, outOfRange());
  } else {
    shapes::require(shapeOf(op(OpKind::Nonzero, bad))[0] == SymInt(0), ErrorKind::IndexError,
                    outOfRange);
  }
  Value wrapped = emitOp(OpKind::Where, {op(OpKind::Lt, flat, Value::integer(0)),
                                         op(OpKind::Add, flat, makeSymInt(n)), flat});
  // [n, count] matches, any over the indices: the positions to fill, viewed along dim.
  Value hit = op(OpKind::Eq, unsqueeze(arangeI32(n), 1), wrapped);
  Value mask = reduceOp(OpKind::Any, hit, {1}, false);
  SymShape view(size_t(rank), SymInt(1));
  if (rank > 0) view[size_t(dim)] = n;
  mask = reshapeTo(mask, view);
  return emitOp(OpKind::Where, {mask, castTo(value, dtypeOf(x)), x});
}

// glu(input, dim = -1) = a * sigmoid(b), a and b the halves of input along dim.
Value nativeGlu(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::glu, s.args());
  const Value& x = floatInput(b.at(0), "glu", "input");
  if (rankOf(x) == 0) throwUserError(ErrorKind::ShapeError, "glu(): cannot halve a 0-d tensor");
  const int64_t dim = wrapDim(b.intOr(1, -1), rankOf(x), "glu", false);
  const SymInt n = shapeOf(x)[size_t(dim)];
  shapes::require(shapes::mod(n, SymInt(2)) == SymInt(0), ErrorKind::ShapeError, [&] {
    return "glu(): dim " + std::to_string(dim) + " must have an even size to halve, got " +
           shapes::errorText(n);
  });
  const SymInt half = shapes::floorDiv(n, SymInt(2));
  return op(OpKind::Mul, sliceOf(x, dim, SymInt(0), half),
            op(OpKind::Sigmoid, sliceOf(x, dim, half, n)));
}

// F.normalize(input, p = 2.0, dim = 1, eps = 1e-12) = input / max(||input||_p, eps). The
// clamp is applied to sum(|x|^p) (at eps^p) before the root where eps^p is a normal f32, so
// a zero vector's gradient is 1 / eps as PyTorch's, not the NaN of sqrt's slope at 0.
Value nativeNormalize(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::normalize, s.args());
  const Value& x = floatInput(b.at(0), "normalize", "input");
  const double p = b.has(1) ? b.toFloat(1) : 2.0;
  const double eps = b.has(3) ? b.toFloat(3) : 1e-12;
  const int64_t rank = rankOf(x);
  std::vector<int64_t> dims =
      b.has(2) ? toDimList(b.at(2), "normalize(): dim") : std::vector<int64_t>{1};
  for (int64_t& d : dims) d = wrapDim(d, rank, "normalize", true);
  requireDistinct(dims, "normalize", "dim");
  if (rank == 0) dims.clear();
  Value a = op(OpKind::Abs, x);
  Value norm;
  if (std::isinf(p)) {
    norm =
        op(OpKind::Maximum, reduceOp(p > 0 ? OpKind::Max : OpKind::Min, a, dims, true), real(eps));
  } else if (p == 0) {
    Value nz = castTo(op(OpKind::Ne, x, real(0.0)), DType::F32);
    norm = op(OpKind::Maximum, reduceOp(OpKind::Sum, nz, dims, true), real(eps));
  } else {
    Value sum = reduceOp(OpKind::Sum,
                         p == 2   ? op(OpKind::Mul, x, x)
                         : p == 1 ? a
                                  : op(OpKind::Pow, a, real(p)),
                         dims, true);
    const double floor = std::pow(eps, p);
    auto root = [&](const Value& v) {
      return p == 1 ? v : p == 2 ? op(OpKind::Sqrt, v) : op(OpKind::Pow, v, real(1.0 / p));
    };
    if (floor >= FLT_MIN && std::isfinite(floor))
      norm = root(op(OpKind::Maximum, sum, real(floor)));
    else
      norm = op(OpKind::Maximum, root(sum), real(eps));
  }
  return op(OpKind::Div, x, norm);
}

// cosine_similarity(x1, x2, dim = 1, eps = 1e-8), as ATen 1.13: sum(x1 / |x1| * x2 / |x2|)
// over the broadcast shape, each |x| the root of the squared norm clamped at eps^2. ATen
// clamps under no_grad in place, so the gradient flows as if the clamps were not there: each
// clamped square norm is s + detach(max(s, eps^2) - s).
Value nativeCosineSimilarity(Interpreter&, CallArgs& raw) {
  ArgBinder b(sig::cosine_similarity, raw);
  Value x1 = floatInput(b.at(0), "cosine_similarity", "x1");
  Value x2 = floatInput(b.at(1), "cosine_similarity", "x2");
  const double eps = b.has(3) ? b.toFloat(3) : 1e-8;
  const SymShape common = shapes::broadcastShapes(shapeOf(x1), shapeOf(x2), "cosine_similarity");
  const int64_t dim = wrapDim(b.intOr(2, 1), int64_t(common.size()), "cosine_similarity", true);
  const std::vector<int64_t> dims = common.empty() ? std::vector<int64_t>{} : std::vector{dim};
  OpAttrs e;
  e.shape = common;
  if (!shapes::sameShape(shapeOf(x1), common)) x1 = emitOp(OpKind::Expand, {x1}, e);
  if (!shapes::sameShape(shapeOf(x2), common)) x2 = emitOp(OpKind::Expand, {x2}, e);
  auto unit = [&](const Value& v) {
    Value sq = reduceOp(OpKind::Sum, op(OpKind::Mul, v, v), dims, true);
    Value lift = op(OpKind::Sub, op(OpKind::Maximum, sq, real(eps * eps)), sq);
    return op(OpKind::Div, v, op(OpKind::Sqrt, op(OpKind::Add, sq, op(OpKind::Detach, lift))));
  };
  return reduceOp(OpKind::Sum, op(OpKind::Mul, unit(x1), unit(x2)), dims, false);
}

// isclose as ATen: input == other, or (equal_nan) both NaN, or a finite |input - other| <=
// atol + rtol * |other| (integers compared as f32).
Value isClose(const ArgBinder& b, const char* fn) {
  const Value& x = tensorArg(b.at(0), std::string(fn) + "(): input");
  const Value& y = tensorArg(b.at(1), std::string(fn) + "(): other");
  const double rtol = b.has(2) ? b.toFloat(2) : 1e-05;
  const double atol = b.has(3) ? b.toFloat(3) : 1e-08;
  const bool equalNan = b.has(4) && b.toBool(4);
  if (x.is(Type::Tensor) && y.is(Type::Tensor) && dtypeOf(x) != dtypeOf(y))
    throwUserError(ErrorKind::TypeError, std::string(fn) +
                                             "(): input and other must have one "
                                             "dtype, got " +
                                             std::string(shapes::name(dtypeOf(x))) + " and " +
                                             std::string(shapes::name(dtypeOf(y))));
  if (rtol < 0 || atol < 0)
    throwUserError(ErrorKind::ValueError, std::string(fn) +
                                              "(): rtol and atol must be "
                                              "non-negative, got " +
                                              std::to_string(rtol) + " and " +
                                              std::to_string(atol));
  Value close = op(OpKind::Eq, x, y);
  const bool floating = dtypeOf(x) == DType::F32;
  if (equalNan && floating)
    close = op(OpKind::LogicalOr, close,
               op(OpKind::LogicalAnd, op(OpKind::Isnan, x), op(OpKind::Isnan, y)));
  if (rtol == 0 && atol == 0) return close;
  Value fx = castTo(x, DType::F32), fy = castTo(y, DType::F32);
  Value allowed = op(OpKind::Add, op(OpKind::Mul, op(OpKind::Abs, fy), real(rtol)), real(atol));
  Value actual = op(OpKind::Abs, op(OpKind::Sub, fx, fy));
  return op(OpKind::LogicalOr, close,
            op(OpKind::LogicalAnd, op(OpKind::Isfinite, actual), op(OpKind::Le, actual, allowed)));
}

Value nativeIsclose(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::isclose, s.args());
  return isClose(b, "isclose");
}

// allclose: all of isclose as a bool, read as item() reads it (a graph break when traced).
Value nativeAllclose(Interpreter& in, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::allclose, s.args());
  return callNative(tensorOpNatives(), "item", in, {emitOp(OpKind::All, {isClose(b, "allclose")})});
}

const TensorNative kCompare[] = {
    {"take_along_dim", nativeTakeAlongDim, true},
    {"index_fill", nativeIndexFill, true},
    {"glu", nativeGlu, false},
    {"normalize", nativeNormalize, false},
    {"cosine_similarity", nativeCosineSimilarity, false},
    {"isclose", nativeIsclose, true},
    {"allclose", nativeAllclose, true},
};

}  // namespace

std::span<const TensorNative> decompositionCompareNatives() {
  return kCompare;
}

}  // namespace tessel::interp
