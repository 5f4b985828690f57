// Gradient rules of reductions, layout ops and indexing. Ops that pick elements (slice,
// select, index_select, gather, masked_select) send the gradient back to the picked positions
// and zeros elsewhere, built from cat, one-hot matmuls and masked_scatter. Sizes may be
// symbolic: size questions go through shapes::evaluate & co., as in the shape rules.
#include <algorithm>

#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"
#include "shapes/shape_rules.h"

namespace tessel::backends::autodiff {

namespace {

int64_t wrap(int64_t d, int64_t rank) {
  return d < 0 ? d + rank : d;
}
Var zeros(const Var& like, const SymShape& shape) {
  return full(like, shape, 0.0);
}
// A size question the graph may specialize on (a guard while tracing).
bool holds(const shapes::SymBool& c) {
  return shapes::evaluate(c);
}

// The reduced dims of a reduction entry, normalized and sorted (none for a 0-d input, whose
// dim 0 or -1 names the scalar itself).
Dims reducedDims(const GradEntry& e) {
  const std::vector<bool> mask = shapes::reducedDimsMask(e.attrs.dims, e.inputs[0].ndim());
  Dims dims;
  for (int64_t d = 0; d < int64_t(mask.size()); ++d)
    if (mask[d]) dims.push_back(d);
  return dims;
}

// A reduction's output (or its gradient) broadcast back over the input's shape.
Var expandBack(const GradEntry& e, Var t) {
  if (!e.attrs.keepdim)
    for (int64_t d : reducedDims(e)) t = unsqueeze(t, d);
  return expand(t, e.inputs[0].shape());
}

// Places `g` at [start, start + g.size(dim)) along dim in zeros of size n.
Var padAlong(const Var& g, int64_t dim, const SymInt& start, const SymInt& n) {
  std::vector<Var> parts;
  SymShape shape = g.shape();
  const SymInt after = n - start - shape[dim];
  if (!shapes::definitelyTrue(start == SymInt(0))) {
    shape[dim] = start;
    parts.push_back(zeros(g, shape));
  }
  parts.push_back(g);
  if (!shapes::definitelyTrue(after == SymInt(0))) {
    shape[dim] = after;
    parts.push_back(zeros(g, shape));
  }
  return parts.size() == 1 ? g : cat(parts, dim);
}

// Python slice bounds for step > 0, as the slice shape rule computes them.
SymInt sliceBound(const std::optional<SymInt>& v, const SymInt& n, const SymInt& dflt) {
  if (!v) return dflt;
  bool negative = v->isConstant() ? v->constant() < 0 : holds(*v < SymInt(0));
  return negative ? shapes::max(SymInt(0), n + *v) : shapes::min(*v, n);
}

// Indices with negatives wrapped (index_select and gather accept them; index_add and
// scatter_add, which their gradients use, do not).
Var wrapIndex(const Var& idx, const SymInt& n) {
  Var i = cast(idx, DType::I32);
  return where(binary(OpKind::Lt, i, lit(i, 0, DType::I32)), add(i, sizeScalar(i, n, DType::I32)), i);
}

}  // namespace

std::vector<Var> gradSum(const GradEntry& e, const Var& g) {
  return {expandBack(e, g)};
}
std::vector<Var> gradMean(const GradEntry& e, const Var& g) {
  const SymShape xs = e.inputs[0].shape();
  SymInt count = 1;
  for (int64_t d : reducedDims(e)) count = count * xs[d];
  return {div(expandBack(e, g), sizeScalar(g, count))};
}
// Shared equally among the positions that attain the max (or min). A NaN maximum is attained
// by the NaNs of its row (x == out is false there, and the count would be 0), so a single NaN
// gets the whole gradient as in PyTorch's max(dim). The other positions get 0 (a where(), not
// a multiplication by 0, so an infinite or NaN incoming gradient stays at the extremes, as
// max(dim)'s index-based backward in PyTorch).
static std::vector<Var> gradExtremeReduce(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  const Var out = expandBack(e, e.outputs[0]);
  Var bothNan = binary(OpKind::LogicalAnd, binary(OpKind::Ne, x, x), binary(OpKind::Ne, out, out));
  Var hit = binary(OpKind::LogicalOr, binary(OpKind::Eq, x, out), bothNan);
  Var count = sum(cast(hit, DType::F32), reducedDims(e), true);
  return {where(hit, div(expandBack(e, g), expand(count, x.shape())), lit(g, 0))};
}
std::vector<Var> gradMax(const GradEntry& e, const Var& g) {
  return gradExtremeReduce(e, g);
}
std::vector<Var> gradMin(const GradEntry& e, const Var& g) {
  return gradExtremeReduce(e, g);
}

std::vector<Var> gradReshape(const GradEntry& e, const Var& g) {
  return {reshape(g, e.inputs[0].shape())};
}
std::vector<Var> gradFlatten(const GradEntry& e, const Var& g) {
  return gradReshape(e, g);
}
std::vector<Var> gradSqueeze(const GradEntry& e, const Var& g) {
  return gradReshape(e, g);
}
std::vector<Var> gradUnsqueeze(const GradEntry& e, const Var& g) {
  return {squeeze(g, {wrap(e.attrs.dim, e.inputs[0].ndim() + 1)})};
}
std::vector<Var> gradTranspose(const GradEntry& e, const Var& g) {
  if (e.attrs.dims.size() < 2) return {g};
  return {transpose(g, e.attrs.dims[0], e.attrs.dims[1])};
}
std::vector<Var> gradPermute(const GradEntry& e, const Var& g) {
  const int64_t rank = g.ndim();
  Dims inverse(rank);
  for (int64_t i = 0; i < rank; ++i) inverse[wrap(e.attrs.dims[i], rank)] = i;
  return {permute(g, inverse)};
}
std::vector<Var> gradExpand(const GradEntry& e, const Var& g) {
  return {g};
}

std::vector<Var> gradCat(const GradEntry& e, const Var& g) {
  const int64_t dim = wrap(e.attrs.dim, g.ndim());
  std::vector<Var> out;
  SymInt offset = 0;
  for (const Var& in : e.inputs) {
    if (in.ndim() != g.ndim() && shapes::definitelyTrue(in.numel() == SymInt(0))) {
      out.push_back(Var());  // an empty 1-D tensor cat skips
      continue;
    }
    const SymInt len = in.size(dim);
    out.push_back(in.dtype() == DType::F32 ? slice(g, dim, offset, offset + len) : Var());
    offset = offset + len;
  }
  return out;
}
std::vector<Var> gradStack(const GradEntry& e, const Var& g) {
  const int64_t dim = wrap(e.attrs.dim, g.ndim());
  std::vector<Var> out;
  for (size_t i = 0; i < e.inputs.size(); ++i)
    out.push_back(e.inputs[i].dtype() == DType::F32 ? select(g, dim, int64_t(i)) : Var());
  return out;
}

// Gradient of x[start:stop:step] along dim: interleave step-1 zeros after each element, then
// pad to the input size.
std::vector<Var> gradSlice(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  const SymInt n = x.size(dim), len = g.size(dim);
  const int64_t step = shapes::evaluateInt(e.attrs.step);
  const SymInt start = sliceBound(e.attrs.start, n, 0);
  if (shapes::definitelyTrue(len == SymInt(0))) return {zeros(g, x.shape())};
  Var spread = g;
  if (step > 1) {
    Var col = unsqueeze(g, dim + 1);
    SymShape zshape = col.shape();
    zshape[dim + 1] = step - 1;
    SymShape merged = g.shape();
    merged[dim] = len * step;
    spread = reshape(cat({col, zeros(g, zshape)}, dim + 1), merged);
    spread = slice(spread, dim, 0, shapes::min(len * step, n - start));
  }
  return {padAlong(spread, dim, start, n)};
}
std::vector<Var> gradSelect(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  SymInt index = e.attrs.index;
  if (holds(index < SymInt(0))) index = index + x.size(dim);
  return {padAlong(unsqueeze(g, dim), dim, index, x.size(dim))};
}

// x[..., idx, ...] -> the gradient adds each slice of g back at its index (index_add sums
// repeated indices), in time linear in g.
std::vector<Var> gradIndexSelect(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  if (x.ndim() == 0) return {sum(g), Var()};
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  Var idx = wrapIndex(reshape(e.inputs[1], {e.inputs[1].numel()}), x.size(dim));
  return {scatterOp(OpKind::IndexAdd, full(g, x.shape(), 0.0), dim, idx, g), Var()};
}
// out[..i..] = x[..idx[..i..]..] along dim -> x's gradient sums g over positions naming it
// (scatter_add), in time linear in g.
std::vector<Var> gradGather(const GradEntry& e, const Var& g) {
  const Var& x = e.inputs[0];
  if (x.ndim() == 0) return {sum(g), Var()};
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  Var idx = wrapIndex(e.inputs[1], x.size(dim));
  return {scatterOp(OpKind::ScatterAdd, full(g, x.shape(), 0.0), dim, idx, g), Var()};
}

std::vector<Var> gradMaskedSelect(const GradEntry& e, const Var& g) {
  const Var &x = e.inputs[0], &mask = e.inputs[1];
  Var zerosB = add(zeros(g, x.shape()), zeros(g, mask.shape()));  // the broadcast shape
  return {maskedScatter(zerosB, mask, g), Var()};
}
std::vector<Var> gradMaskedScatter(const GradEntry& e, const Var& g) {
  const Var &mask = e.inputs[1], &src = e.inputs[2];
  Var gx = where(mask, lit(g, 0), g);
  Var picked = maskedSelect(g, mask);
  Var gsrc = reshape(padAlong(picked, 0, 0, src.numel()), src.shape());
  return {e.inputs[0].dtype() == DType::F32 ? gx : Var(), Var(),
          src.dtype() == DType::F32 ? gsrc : Var()};
}

}  // namespace tessel::backends::autodiff
