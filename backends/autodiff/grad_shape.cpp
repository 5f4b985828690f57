// Gradient rules of reductions, layout ops and indexing. Ops that pick elements (slice,
// select, index_select, gather, masked_select) send the gradient back to the picked positions
// and zeros elsewhere, built from cat, one-hot matmuls and masked_scatter.
#include <algorithm>

#include "backends/autodiff/grad_rules.h"
#include "backends/ops.h"

namespace tessel::backends::autodiff {

using namespace ops;  // NOLINT: rules read like the math
using shapes::OpKind;

namespace {

int64_t wrap(int64_t d, int64_t rank) {
  return d < 0 ? d + rank : d;
}
Tensor zeros(const Dims& shape) {
  return full(shape, 0.0);
}

// The reduced dims of a reduction entry, normalized and sorted.
Dims reducedDims(const TapeEntry& e) {
  const int64_t rank = e.inputs[0].ndim();
  Dims dims;
  if (e.attrs.dims.empty())
    for (int64_t d = 0; d < rank; ++d) dims.push_back(d);
  for (int64_t d : e.attrs.dims) dims.push_back(wrap(d, rank));
  std::sort(dims.begin(), dims.end());
  return dims;
}

// A reduction's output (or its gradient) broadcast back over the input's shape.
Tensor expandBack(const TapeEntry& e, Tensor t) {
  if (!e.attrs.keepdim)
    for (int64_t d : reducedDims(e)) t = unsqueeze(t, d);
  return expand(t, e.inputs[0].shape());
}

// Places `g` at [start, start + g.size(dim)) along dim in zeros of size n.
Tensor padAlong(const Tensor& g, int64_t dim, int64_t start, int64_t n) {
  std::vector<Tensor> parts;
  Dims shape = g.shape();
  if (start > 0) shape[dim] = start, parts.push_back(zeros(shape));
  parts.push_back(g);
  const int64_t after = n - start - g.size(dim);
  if (after > 0) shape[dim] = after, parts.push_back(zeros(shape));
  return parts.size() == 1 ? g : cat(parts, dim);
}

// Python slice bounds for step > 0, as the kernel computes them.
int64_t sliceBound(const std::optional<shapes::SymInt>& v, int64_t n, int64_t dflt) {
  if (!v) return dflt;
  int64_t b = v->constant();
  if (b < 0) b += n;
  return std::clamp<int64_t>(b, 0, n);
}

// f32 one-hot rows: result[..., j] = (idx[...] == j) for j < n, negative indices wrapped.
Tensor oneHot(const Tensor& idx, int64_t n) {
  Tensor i = cast(idx, DType::I32);
  Tensor wrapped = where(binary(OpKind::Lt, i, Tensor::scalar(0, DType::I32)),
                         add(i, Tensor::scalar(double(n), DType::I32)), i);
  return cast(binary(OpKind::Eq, unsqueeze(wrapped, -1), arange(n)), DType::F32);
}

}  // namespace

std::vector<Tensor> gradSum(const TapeEntry& e, const Tensor& g) {
  return {expandBack(e, g)};
}
std::vector<Tensor> gradMean(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = e.inputs[0];
  const int64_t count = x.numel() / std::max<int64_t>(e.outputs[0].numel(), 1);
  return {div(expandBack(e, g), scalar(double(count)))};
}
// Shared equally among the positions that attain the max (or min).
static std::vector<Tensor> gradExtremeReduce(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = e.inputs[0];
  Tensor hit = cast(binary(OpKind::Eq, x, expandBack(e, e.outputs[0])), DType::F32);
  Tensor count = sum(hit, reducedDims(e), true);
  return {div(mul(expandBack(e, g), hit), expand(count, x.shape()))};
}
std::vector<Tensor> gradMax(const TapeEntry& e, const Tensor& g) {
  return gradExtremeReduce(e, g);
}
std::vector<Tensor> gradMin(const TapeEntry& e, const Tensor& g) {
  return gradExtremeReduce(e, g);
}

std::vector<Tensor> gradReshape(const TapeEntry& e, const Tensor& g) {
  return {reshape(g, e.inputs[0].shape())};
}
std::vector<Tensor> gradFlatten(const TapeEntry& e, const Tensor& g) {
  return gradReshape(e, g);
}
std::vector<Tensor> gradSqueeze(const TapeEntry& e, const Tensor& g) {
  return gradReshape(e, g);
}
std::vector<Tensor> gradUnsqueeze(const TapeEntry& e, const Tensor& g) {
  return {squeeze(g, {wrap(e.attrs.dim, e.inputs[0].ndim() + 1)})};
}
std::vector<Tensor> gradTranspose(const TapeEntry& e, const Tensor& g) {
  if (e.attrs.dims.size() < 2) return {g};
  return {transpose(g, e.attrs.dims[0], e.attrs.dims[1])};
}
std::vector<Tensor> gradPermute(const TapeEntry& e, const Tensor& g) {
  const int64_t rank = g.ndim();
  Dims inverse(rank);
  for (int64_t i = 0; i < rank; ++i) inverse[wrap(e.attrs.dims[i], rank)] = i;
  return {permute(g, inverse)};
}
std::vector<Tensor> gradExpand(const TapeEntry& e, const Tensor& g) {
  return {g};
}

std::vector<Tensor> gradCat(const TapeEntry& e, const Tensor& g) {
  const int64_t dim = wrap(e.attrs.dim, g.ndim());
  std::vector<Tensor> out;
  int64_t offset = 0;
  for (const Tensor& in : e.inputs) {
    if (in.numel() == 0 && in.ndim() != g.ndim()) {
      out.push_back(Tensor());
      continue;
    }
    const int64_t len = in.size(dim);
    out.push_back(in.dtype() == DType::F32 ? slice(g, dim, offset, offset + len) : Tensor());
    offset += len;
  }
  return out;
}
std::vector<Tensor> gradStack(const TapeEntry& e, const Tensor& g) {
  const int64_t dim = wrap(e.attrs.dim, g.ndim());
  std::vector<Tensor> out;
  for (size_t i = 0; i < e.inputs.size(); ++i)
    out.push_back(e.inputs[i].dtype() == DType::F32 ? select(g, dim, int64_t(i)) : Tensor());
  return out;
}

// Gradient of x[start:stop:step] along dim: interleave step-1 zeros after each element, then
// pad to the input size.
std::vector<Tensor> gradSlice(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = e.inputs[0];
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  const int64_t n = x.size(dim), len = g.size(dim);
  const int64_t step = e.attrs.step.constant();
  const int64_t start = sliceBound(e.attrs.start, n, 0);
  if (len == 0) return {zeros(x.shape())};
  Tensor spread = g;
  if (step > 1) {
    Tensor col = unsqueeze(g, dim + 1);
    Dims zshape = col.shape();
    zshape[dim + 1] = step - 1;
    Dims merged = g.shape();
    merged[dim] = len * step;
    spread = reshape(cat({col, zeros(zshape)}, dim + 1), merged);
    spread = slice(spread, dim, 0, std::min(len * step, n - start));
  }
  return {padAlong(spread, dim, start, n)};
}
std::vector<Tensor> gradSelect(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = e.inputs[0];
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  int64_t index = e.attrs.index.constant();
  if (index < 0) index += x.size(dim);
  return {padAlong(unsqueeze(g, dim), dim, index, x.size(dim))};
}

// x[..., idx, ...] -> the gradient is g @ onehot(idx) along dim (sums repeated indices).
std::vector<Tensor> gradIndexSelect(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = e.inputs[0];
  if (x.ndim() == 0) return {sum(g), Tensor()};
  const int64_t dim = wrap(e.attrs.dim, x.ndim());
  const int64_t last = g.ndim() - 1;
  Tensor moved = transpose(g, dim, last);
  Tensor back = matmul(moved, oneHot(reshape(e.inputs[1], {e.inputs[1].numel()}), x.size(dim)));
  return {transpose(back, dim, last), Tensor()};
}
// out[..i..] = x[..idx[..i..]..] along dim -> x's gradient sums g over positions naming it.
std::vector<Tensor> gradGather(const TapeEntry& e, const Tensor& g) {
  const Tensor& x = e.inputs[0];
  const Tensor& idx = e.inputs[1];
  if (x.ndim() == 0) return {sum(g), Tensor()};
  const int64_t rank = x.ndim();
  const int64_t dim = wrap(e.attrs.dim, rank);
  Tensor contrib = sum(mul(unsqueeze(g, -1), oneHot(idx, x.size(dim))), {dim});
  // contrib holds x's dims without `dim`, then `dim` last: move it back into place.
  Dims perm;
  for (int64_t d = 0; d < rank; ++d) perm.push_back(d == dim ? rank - 1 : (d < dim ? d : d - 1));
  Tensor gx = permute(contrib, perm);
  for (int64_t d = 0; d < rank; ++d)
    if (gx.size(d) < x.size(d)) gx = padAlong(gx, d, 0, x.size(d));
  return {gx, Tensor()};
}

std::vector<Tensor> gradMaskedSelect(const TapeEntry& e, const Tensor& g) {
  const Tensor &x = e.inputs[0], &mask = e.inputs[1];
  Tensor zerosB = add(zeros(x.shape()), zeros(mask.shape()));  // the broadcast shape
  return {maskedScatter(zerosB, mask, g), Tensor()};
}
std::vector<Tensor> gradMaskedScatter(const TapeEntry& e, const Tensor& g) {
  const Tensor &mask = e.inputs[1], &src = e.inputs[2];
  Tensor gx = where(mask, scalar(0), g);
  Tensor picked = maskedSelect(g, mask);
  Tensor gsrc = reshape(padAlong(picked, 0, 0, src.numel()), src.shape());
  return {e.inputs[0].dtype() == DType::F32 ? gx : Tensor(), Tensor(),
          src.dtype() == DType::F32 ? gsrc : Tensor()};
}

}  // namespace tessel::backends::autodiff
