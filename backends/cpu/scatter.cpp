// Writes along a dim into a copy of x: index_add, index_copy (slices picked by a 1-D index)
// and scatter, scatter_add, scatter_reduce (elements picked by an index of x's rank), with
// PyTorch's semantics. Indices are data: a negative or too-large one is an IndexError naming
// the op, the index, the dim and its size (PyTorch does not wrap negatives here).
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backends/cpu/kernels.h"
#include "backends/cpu/scatter_rows.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

using shapes::ScatterMode;

[[noreturn]] void badIndex(OpKind op, int64_t i, int64_t dim, int64_t size) {
  throwUserError(ErrorKind::IndexError, std::string(shapes::opName(op)) + ": index " +
                                            std::to_string(i) + " is out of range for dim " +
                                            std::to_string(dim) + " of size " +
                                            std::to_string(size));
}

template <class T>
T identity(ScatterMode m) {
  switch (m) {
    case ScatterMode::Prod:
      return T(1);
    case ScatterMode::Amax:
      return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::lowest();
    case ScatterMode::Amin:
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::max();
    default:
      return T(0);
  }
}

// i32 arithmetic wraps (unsigned), bool sums are `or` and products `and`; max/min propagate NaN.
template <class T>
T combine(ScatterMode m, T a, T b) {
  switch (m) {
    case ScatterMode::Assign:
      return b;
    case ScatterMode::Sum:
    case ScatterMode::Mean:
      if constexpr (std::is_same_v<T, int32_t>) return T(uint32_t(a) + uint32_t(b));
      if constexpr (std::is_same_v<T, uint8_t>) return T(a | b);
      return a + b;
    case ScatterMode::Prod:
      if constexpr (std::is_same_v<T, int32_t>) return T(uint32_t(a) * uint32_t(b));
      if constexpr (std::is_same_v<T, uint8_t>) return T(a & b);
      return a * b;
    case ScatterMode::Amax:
      return (b > a || b != b) ? b : a;
    case ScatterMode::Amin:
      return (b < a || b != b) ? b : a;
  }
  return b;
}

// Note [Uniform index rows]
// scatter_add as graph code writes it (PyG's scatter: index = edge_index[1].unsqueeze(-1)
// .expand_as(src)) repeats one index along the last dim, so each row of the walk adds a whole
// contiguous source row into one contiguous target row. Such a row is detected by reading its
// indices (which the element walk reads anyway) and added as a vector loop instead of element
// by element; any other row takes the element walk. Only when dim is not the last dim, and the
// target and source step by 1 along it.
template <class I>
bool uniformRow(const I* iv, int64_t iStep, int64_t len, int64_t oStep, int64_t sStep) {
  if (oStep != 1 || sStep != 1) return false;
  if (iStep == 0) return true;
  if (iStep != 1) return false;
  const I first = iv[0];
  bool same = true;
  for (int64_t c = 1; c < len; ++c) same &= iv[c] == first;  // branch-free: vectorizes
  return same;
}

// The walk: for every position p of `iter` (src's shape for slice writes, index's otherwise),
// the target is p with p[dim] replaced by the index there, and the value is src at p.
template <class T>
void scatterTyped(OpKind op, ScatterMode mode, bool includeSelf, double alpha, const Tensor& idx,
                  const Tensor& src, const Tensor& out, int64_t dim, bool slices) {
  const Dims iter = slices ? src.shape() : idx.shape();
  const int64_t rank = out.ndim(), n = numelOf(iter), size = out.size(dim);
  T* dst = out.data<T>();
  const T* sv = src.data<T>();
  const int32_t* iv = idx.data<int32_t>();
  const bool scalarSrc = src.ndim() == 0;
  const bool mean = mode == ScatterMode::Mean;
  std::vector<int32_t> counts(mean ? size_t(out.numel()) : 0);
  std::vector<uint8_t> touched(includeSelf ? 0 : size_t(out.numel()));
  const T scale = T(alpha);
  // Row by row over the last dim of the iteration shape: offsets computed once per row, then
  // stepped by each operand's stride along the last dim.
  const int64_t last = rank - 1, len = iter[last];
  if (len == 0) return;
  const int64_t sStep = scalarSrc ? 0 : src.strides()[last];
  const int64_t iStep =
      slices ? (last == dim && idx.ndim() ? idx.strides()[0] : 0) : idx.strides()[last];
  const int64_t oStep = last == dim ? 0 : out.strides()[last];
  const int64_t oDim = out.strides()[dim];
  const bool plainSum =
      mode == ScatterMode::Sum && includeSelf && !(op == OpKind::IndexAdd && alpha != 1);
  if constexpr (std::is_same_v<T, float>) {
    if (plainSum && !slices && rank == 2 && dim == 0 && !scalarSrc && oStep == 1 &&
        sStep == 1 && iStep == 1) {
      // Note [Random target rows] (scatter_rows.cpp): the GNN case, prefetched and ISA-cloned.
      const int64_t rows = iter[0], iRow = idx.strides()[0];
      const int64_t bad = scatterAddRowsF32(dst, oDim, sv, src.strides()[0], iv, iRow, rows,
                                            len, size);
      if (bad < rows)
        for (int64_t c = 0; c < len; ++c)
          if (iv[bad * iRow + c] < 0 || iv[bad * iRow + c] >= size)
            badIndex(op, iv[bad * iRow + c], dim, size);
      return;
    }
  }
  Dims pos(rank, 0);
  auto nextRow = [&] {
    for (int64_t d = last - 1; d >= 0; --d) {
      if (++pos[d] < iter[d]) break;
      pos[d] = 0;
    }
  };
  for (int64_t e = 0; e < n; e += len, nextRow()) {
    int64_t io = 0, so = 0, to = 0;
    for (int64_t d = 0; d < last; ++d) {
      if (!scalarSrc) so += pos[d] * src.strides()[d];
      if (!slices) io += pos[d] * idx.strides()[d];
      if (d != dim) to += pos[d] * out.strides()[d];
    }
    if (slices && dim != last) io = idx.ndim() ? pos[dim] * idx.strides()[0] : 0;
    if (plainSum && uniformRow(iv + io, iStep, len, oStep, sStep)) {
      // Note [Uniform index rows]: the whole row adds into one target row.
      const int64_t j = iv[io];
      if (j < 0 || j >= size) [[unlikely]]
        badIndex(op, j, dim, size);
      T* __restrict drow = dst + to + j * oDim;
      const T* __restrict srow = sv + so;
      for (int64_t c = 0; c < len; ++c) drow[c] = combine(ScatterMode::Sum, drow[c], srow[c]);
      continue;
    }
    if (plainSum) {  // scatter_add / index_add without alpha
      for (int64_t c = 0; c < len; ++c, io += iStep, so += sStep, to += oStep) {
        const int64_t j = iv[io];
        if (j < 0 || j >= size) [[unlikely]]
          badIndex(op, j, dim, size);
        T& d = dst[to + j * oDim];
        d = combine(ScatterMode::Sum, d, sv[so]);
      }
      continue;
    }
    for (int64_t c = 0; c < len; ++c, io += iStep, so += sStep, to += oStep) {
      const int64_t j = iv[io];
      if (j < 0 || j >= size) badIndex(op, j, dim, size);
      const int64_t t = to + j * oDim;
      T v = sv[so];
      if (op == OpKind::IndexAdd && alpha != 1) v = combine(ScatterMode::Prod, v, scale);
      if (!includeSelf && !touched[t]) {
        touched[t] = 1;
        dst[t] = identity<T>(mode);
      }
      dst[t] = combine(mode, dst[t], v);
      if (mean) ++counts[t];
    }
  }
  if (!mean) return;
  for (size_t t = 0; t < counts.size(); ++t) {
    if (!counts[t]) continue;
    const int32_t c = counts[t] + (includeSelf ? 1 : 0);
    if constexpr (std::is_same_v<T, float>)
      dst[t] = dst[t] / float(c);
    else if constexpr (std::is_same_v<T, int32_t>)
      dst[t] = T(std::floor(double(dst[t]) / c));  // PyTorch floors integer means
  }
}

// index_add/index_copy of contiguous rows: whole runs of `inner` elements at once.
template <class T>
bool sliceRows(OpKind op, double alpha, const Tensor& idx, const Tensor& src, const Tensor& out,
               int64_t dim) {
  if (!src.isContiguous() || out.ndim() == 0) return false;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= out.size(d);
  for (int64_t d = dim + 1; d < out.ndim(); ++d) inner *= out.size(d);
  const int64_t size = out.size(dim), k = idx.numel();
  const int32_t* index = idx.data<int32_t>();
  T* dst = out.data<T>();
  const T* sv = src.data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (op == OpKind::IndexAdd) {
      // Note [Random target rows] (scatter_rows.cpp): prefetched and ISA-cloned.
      for (int64_t o = 0; o < outer; ++o) {
        const int64_t i = indexAddRowsF32(dst + o * size * inner, sv + o * k * inner, index, k,
                                          inner, size, float(alpha));
        if (i < k) badIndex(op, index[i], dim, size);
      }
      return true;
    }
  }
  for (int64_t i = 0; i < k; ++i)
    if (index[i] < 0 || index[i] >= size) badIndex(op, index[i], dim, size);
  const T a = T(alpha);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < k; ++i) {
      T* __restrict drow = dst + (o * size + index[i]) * inner;
      const T* __restrict srow = sv + (o * k + i) * inner;
      if (op == OpKind::IndexCopy)
        std::copy(srow, srow + inner, drow);
      else if constexpr (std::is_same_v<T, float>) {
        if (alpha == 1)
          for (int64_t b = 0; b < inner; ++b) drow[b] += srow[b];
        else
          for (int64_t b = 0; b < inner; ++b) drow[b] += a * srow[b];
      } else {
        for (int64_t b = 0; b < inner; ++b)
          drow[b] = combine(ScatterMode::Sum, drow[b], combine(ScatterMode::Prod, srow[b], a));
      }
    }
  return true;
}

}  // namespace

Tensor runScatter(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& sig) {
  Tensor out = emptyLike(sig);
  const Tensor& x = in[0];
  if (out.numel())
    std::memcpy(out.data<char>(), x.contiguous().data<char>(),
                size_t(out.numel()) * elementSize(out.dtype()));
  const bool slices = op == OpKind::IndexAdd || op == OpKind::IndexCopy;
  // A 0-d input writes like a 1-element vector (PyTorch).
  if (x.ndim() == 0) {
    Tensor v = out.reshape(Dims{1});
    Tensor idx = in[1].reshape(Dims{in[1].numel()});
    Tensor src = in[2].ndim() == 0 || slices ? in[2].reshape(Dims{in[2].numel()}) : in[2];
    Tensor r = runScatter(op, std::vector<Tensor>{v, idx, src}, attrs, OpSignature{{1}, sig.dtype});
    return r.reshape(Dims{});
  }
  const int64_t dim = wrapDim(attrs.dim, x.ndim());
  ScatterMode mode = attrs.scatterMode;
  if (op == OpKind::IndexCopy || op == OpKind::Scatter) mode = ScatterMode::Assign;
  if (op == OpKind::IndexAdd || op == OpKind::ScatterAdd) mode = ScatterMode::Sum;
  const bool includeSelf = op != OpKind::ScatterReduce || attrs.includeSelf;
  const double alpha = attrs.scalars.empty() ? 1.0 : attrs.scalars[0];
  if (mode == ScatterMode::Mean && x.dtype() == DType::Bool)
    throwUserError(ErrorKind::TypeError, "scatter_reduce: \"mean\" is not supported for bool");
  const Tensor idx = in[1].contiguous();
  visitDType(x.dtype(), [&](auto t) {
    using T = decltype(t);
    if (slices && sliceRows<T>(op, alpha, idx, in[2], out, dim)) return;
    scatterTyped<T>(op, mode, includeSelf, alpha, idx, in[2], out, dim, slices);
  });
  return out;
}

}  // namespace tessel::backends::cpu
