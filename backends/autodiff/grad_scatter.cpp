// Gradient rules of the writes along a dim: index_add, index_copy, scatter, scatter_add and
// scatter_reduce ("sum", "mean", "amax", "amin" as PyTorch defines them; "prod" has none yet).
// Each is written with index_select/gather and the scatter ops themselves, so it runs eagerly
// and in a traced graph, on every backend.
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"
#include "shapes/user_error.h"

namespace tessel::backends::autodiff {

namespace {

using shapes::ScatterMode;

int64_t wrap(int64_t d, int64_t rank) {
  return d < 0 ? d + rank : d;
}
int64_t dimOf(const GradEntry& e) {
  return wrap(e.attrs.dim, std::max<int64_t>(e.inputs[0].ndim(), 1));
}
bool isFloat(const Var& v) {
  return v.dtype() == DType::F32;
}
// `v` (the index's shape) placed at the start of zeros of `shape` (the source may be larger
// than the index along any dim; those elements were not used).
Var padTo(Var v, const SymShape& shape) {
  for (size_t d = 0; d < shape.size(); ++d) {
    const SymInt have = v.size(int64_t(d));
    if (shapes::definitelyTrue(have == shape[d])) continue;
    SymShape rest = v.shape();
    rest[d] = shape[d] - have;
    v = cat({v, full(v, rest, 0.0)}, int64_t(d));
  }
  return v;
}
// The leading part of `v` of the index's shape.
Var cropTo(Var v, const SymShape& shape) {
  for (size_t d = 0; d < shape.size(); ++d)
    if (!shapes::definitelyTrue(v.size(int64_t(d)) == shape[d]))
      v = slice(v, int64_t(d), 0, shape[d]);
  return v;
}
// The source's gradient from a gradient over x's positions: gathered at the index.
Var srcGrad(const GradEntry& e, const Var& gAtTargets) {
  const Var &idx = e.inputs[1], &src = e.inputs[2];
  if (!isFloat(src)) return Var();
  if (src.ndim() == 0) return sum(gather(gAtTargets, dimOf(e), idx));
  return padTo(gather(gAtTargets, dimOf(e), idx), src.shape());
}
// True where some source element lands (over x's shape).
Var touched(const GradEntry& e, OpKind add) {
  const Var &x = e.inputs[0], &idx = e.inputs[1], &src = e.inputs[2];
  Var ones = full(x, src.shape(), 1.0);
  Var hits = scatterOp(add, full(x, x.shape(), 0.0), dimOf(e), idx, ones);
  return binary(OpKind::Gt, hits, lit(hits, 0));
}
// `g` with 0 where `mask` holds: PyTorch's index_fill/masked_fill, so an infinite or NaN
// gradient at an overwritten position is 0 there, where multiplying by a 0/1 mask gave NaN.
Var zeroWhere(const Var& mask, const Var& g) {
  return where(mask, full(g, g.shape(), 0.0), g);
}

}  // namespace

std::vector<Var> gradIndexAdd(const GradEntry& e, const Var& g) {
  const Var& src = e.inputs[2];
  const double alpha = e.attrs.scalars.empty() ? 1.0 : e.attrs.scalars[0];
  Var gs;
  if (isFloat(src)) {
    gs = indexSelect(g, dimOf(e), e.inputs[1]);
    if (alpha != 1) gs = mul(gs, alpha);
    if (src.ndim() == 0) gs = reshape(gs, {});
  }
  return {isFloat(e.inputs[0]) ? g : Var(), Var(), gs};
}

std::vector<Var> gradIndexCopy(const GradEntry& e, const Var& g) {
  const Var& src = e.inputs[2];
  Var gx = zeroWhere(touched(e, OpKind::IndexAdd), g);
  Var gs;
  if (isFloat(src)) {
    gs = indexSelect(g, dimOf(e), e.inputs[1]);
    if (src.ndim() == 0) gs = reshape(gs, {});
  }
  return {isFloat(e.inputs[0]) ? gx : Var(), Var(), gs};
}

std::vector<Var> gradScatter(const GradEntry& e, const Var& g) {
  Var gx = zeroWhere(touched(e, OpKind::ScatterAdd), g);
  return {isFloat(e.inputs[0]) ? gx : Var(), Var(), srcGrad(e, g)};
}

std::vector<Var> gradScatterAdd(const GradEntry& e, const Var& g) {
  return {isFloat(e.inputs[0]) ? g : Var(), Var(), srcGrad(e, g)};
}

// Note [scatter_reduce gradients] (PyTorch's definitions)
// sum: x gets g where it took part (everywhere with include_self, else where nothing landed);
// each source element gets g at its target. mean: both divided by the target's count (its
// sources, plus x with include_self). amax/amin: the gradient at a target is shared evenly
// by every participant (x, the sources) whose value equals the result.
std::vector<Var> gradScatterReduce(const GradEntry& e, const Var& g) {
  const Var &x = e.inputs[0], &idx = e.inputs[1], &src = e.inputs[2];
  const Var& y = e.outputs[0];
  const int64_t dim = dimOf(e);
  if (!isFloat(x)) return {Var(), Var(), Var()};
  const bool self = e.attrs.includeSelf;
  const Var hit = touched(e, OpKind::ScatterAdd);
  const Var selfPart = self ? full(x, x.shape(), 1.0) : sub(1.0, cast(hit, DType::F32));
  // Without include_self, x's gradient is 0 where a source landed (PyTorch's masked_fill).
  auto selfGrad = [&](const Var& v) { return self ? v : zeroWhere(hit, v); };
  switch (e.attrs.scatterMode) {
    case ScatterMode::Sum:
      return {selfGrad(g), Var(), srcGrad(e, g)};
    case ScatterMode::Mean: {
      Var ones = full(x, src.shape(), 1.0);
      Var count = scatterOp(OpKind::ScatterAdd, selfPart, dim, idx, ones);
      Var share = div(g, binary(OpKind::Maximum, count, lit(count, 1)));
      return {selfGrad(share), Var(), srcGrad(e, share)};
    }
    case ScatterMode::Amax:
    case ScatterMode::Amin: {
      Var selfEq = mul(selfPart, cast(binary(OpKind::Eq, x, y), DType::F32));
      Var used = cropTo(src, idx.shape());
      Var srcEq = cast(binary(OpKind::Eq, used, gather(y, dim, idx)), DType::F32);
      Var count = scatterOp(OpKind::ScatterAdd, selfEq, dim, idx, srcEq);
      Var share = div(g, binary(OpKind::Maximum, count, lit(count, 1)));
      Var gs = mul(gather(share, dim, idx), srcEq);
      // (self == result) * share as PyTorch's, then masked where a source landed.
      Var gx = mul(share, cast(binary(OpKind::Eq, x, y), DType::F32));
      return {selfGrad(gx), Var(), src.ndim() == 0 ? sum(gs) : padTo(gs, src.shape())};
    }
    default:
      throwUserError(ErrorKind::ValueError,
                     "scatter_reduce: the gradient of reduce = \"prod\" is not implemented");
  }
}

}  // namespace tessel::backends::autodiff
