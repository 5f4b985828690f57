// argsort, topk and searchsorted along one dim. The input is seen as [A, N, B] (contiguous) and
// each of the A*B rows of N is sorted on its own (Note [Sort keys]).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "backends/cpu/kernels.h"

namespace tessel::backends::cpu {

namespace {

// Note [Sort keys]
// Every value becomes a 32-bit key whose unsigned order is PyTorch's order: ints with the sign
// bit flipped; floats with every bit flipped when negative, the sign bit set when not; -0.0 is
// +0.0 (they compare equal, so a stable sort keeps them in input order) and every NaN is the
// one quiet NaN, which sorts after +inf as in torch.sort. Descending order complements the key.
// A key with its index below it (key << 32 | index) is a total order that is the stable order,
// so any sort of these composites is a stable sort, and topk's ties go to the lower index on
// every backend (vulkan's sort_rows.comp compares the same way).
inline uint32_t floatKey(float f) {
  if (f == 0.0f) f = 0.0f;
  uint32_t v;
  std::memcpy(&v, &f, 4);
  if (std::isnan(f)) v = 0x7fc00000u;
  return (v & 0x80000000u) ? ~v : v | 0x80000000u;
}

template <class T>
inline uint32_t keyOf(T v, uint32_t flip) {
  if constexpr (std::is_same_v<T, float>)
    return floatKey(v) ^ flip;
  else
    return (uint32_t(int32_t(v)) ^ 0x80000000u) ^ flip;
}

// The keys of one row (n values `stride` apart), complemented when descending.
template <class T>
void rowKeys(const T* x, int64_t n, int64_t stride, bool descending, uint32_t* keys) {
  const uint32_t flip = descending ? ~0u : 0u;
  for (int64_t i = 0; i < n; ++i) keys[i] = keyOf(x[i * stride], flip);
}

// LSD radix sort of (key, index) by key, 8 bits a pass; stable, so ties keep index order.
// Passes whose digit is the same for every key are skipped.
void radixArgsort(const uint32_t* keys0, int64_t n, int32_t* outIdx, std::vector<uint64_t>& a,
                  std::vector<uint64_t>& b) {
  a.resize(static_cast<size_t>(n));
  b.resize(static_cast<size_t>(n));
  uint32_t counts[4][256] = {};
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t k = keys0[i];
    a[size_t(i)] = uint64_t(k) << 32 | uint32_t(i);
    ++counts[0][k & 255];
    ++counts[1][(k >> 8) & 255];
    ++counts[2][(k >> 16) & 255];
    ++counts[3][k >> 24];
  }
  uint64_t* src = a.data();
  uint64_t* dst = b.data();
  for (int pass = 0; pass < 4; ++pass) {
    uint32_t* c = counts[pass];
    const int shift = 32 + 8 * pass;
    if (c[(src[0] >> shift) & 255] == uint32_t(n)) continue;
    uint32_t run = 0;
    for (int d = 0; d < 256; ++d) {
      const uint32_t t = c[d];
      c[d] = run;
      run += t;
    }
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t e = src[i];
      dst[c[(e >> shift) & 255]++] = e;
    }
    std::swap(src, dst);
  }
  for (int64_t i = 0; i < n; ++i) outIdx[i] = int32_t(uint32_t(src[i]));
}

void smallArgsort(const uint32_t* keys, int64_t n, int32_t* outIdx, std::vector<uint64_t>& a) {
  a.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) a[size_t(i)] = uint64_t(keys[i]) << 32 | uint32_t(i);
  std::sort(a.begin(), a.end());
  for (int64_t i = 0; i < n; ++i) outIdx[i] = int32_t(uint32_t(a[size_t(i)]));
}

// Small k: the k smallest composites of a row in one pass over the values, keeping a max-heap
// of the best k (after the first few thousand values almost every value fails the one compare
// with the heap's top; the keys are made on the fly, never stored).
template <class T>
void topkHeap(const T* x, int64_t n, int64_t stride, bool descending, int64_t k, int32_t* outIdx,
              int64_t outStride, std::vector<uint64_t>& a) {
  const uint32_t flip = descending ? ~0u : 0u;
  a.resize(static_cast<size_t>(k));
  for (int64_t i = 0; i < k; ++i)
    a[size_t(i)] = uint64_t(keyOf(x[i * stride], flip)) << 32 | uint32_t(i);
  std::make_heap(a.begin(), a.end());
  uint32_t topKey = uint32_t(a.front() >> 32);
  for (int64_t i = k; i < n; ++i) {
    const uint32_t key = keyOf(x[i * stride], flip);
    if (key >= topKey) [[likely]]
      continue;  // equal keys lose to the earlier index
    std::pop_heap(a.begin(), a.end());
    a.back() = uint64_t(key) << 32 | uint32_t(i);
    std::push_heap(a.begin(), a.end());
    topKey = uint32_t(a.front() >> 32);
  }
  std::sort_heap(a.begin(), a.end());
  for (int64_t i = 0; i < k; ++i) outIdx[i * outStride] = int32_t(uint32_t(a[size_t(i)]));
}

// Large k: the k smallest composites of a row by nth_element over all of them, ascending.
void topkRow(const uint32_t* keys, int64_t n, int64_t k, int32_t* outIdx, int64_t outStride,
             std::vector<uint64_t>& a) {
  if (k == 0) return;
  a.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) a[size_t(i)] = uint64_t(keys[i]) << 32 | uint32_t(i);
  if (k < n) std::nth_element(a.begin(), a.begin() + (k - 1), a.end());
  std::sort(a.begin(), a.begin() + k);
  for (int64_t i = 0; i < k; ++i) outIdx[i * outStride] = int32_t(uint32_t(a[size_t(i)]));
}

// Below this a row is sorted by comparison; above it by radix (fewer passes over memory).
constexpr int64_t kRadixMin = 256;

template <class T>
void sortRows(OpKind op, const T* x, int32_t* out, int64_t outer, int64_t n, int64_t inner,
              int64_t k, bool descending) {
  // Sized on first use: topk's heap path needs neither (zeroing 8 MB cost a third of it).
  std::vector<uint32_t> keys;
  std::vector<int32_t> idx;
  std::vector<uint64_t> a, b;
  const int64_t outN = op == OpKind::Topk ? k : n;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int32_t* dst = out + o * outN * inner + i;
      if (op == OpKind::Topk && k > 0 && k * 16 <= n) {
        topkHeap(x + o * n * inner + i, n, inner, descending, k, dst, inner, a);
        continue;
      }
      keys.resize(static_cast<size_t>(n));
      rowKeys(x + o * n * inner + i, n, inner, descending, keys.data());
      if (op == OpKind::Topk) {
        topkRow(keys.data(), n, k, dst, inner, a);
        continue;
      }
      if (inner != 1) idx.resize(static_cast<size_t>(n));
      int32_t* row = inner == 1 ? dst : idx.data();
      if (n >= kRadixMin)
        radixArgsort(keys.data(), n, row, a, b);
      else
        smallArgsort(keys.data(), n, row, a);
      if (inner != 1)
        for (int64_t j = 0; j < n; ++j) dst[j * inner] = row[j];
    }
}

// Note [Searchsorted and NaN]
// PyTorch's binary search moves right while !(s >= v) (left) or !(s > v) (right), so a NaN
// value lands after every element and a NaN in the sequence (sorted last) reads as smaller.
// The same loop here and in sort_rows.comp gives PyTorch's index in every case, NaNs included.
int64_t searchRow(const double* row, int64_t m, double v, bool right) {
  int64_t lo = 0, hi = m;
  while (lo < hi) {
    const int64_t mid = lo + ((hi - lo) >> 1);
    if (right ? !(row[mid] > v) : !(row[mid] >= v))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// torch.searchsorted: left, the first i with sorted[i] >= v; right, the first with > v.
// Compared in double so mixed f32/i32 operands compare exactly.
Tensor searchsorted(const Tensor& s0, const Tensor& v0, bool right, const OpSignature& sig) {
  Tensor out = emptyLike(sig);
  if (out.numel() == 0) return out;
  const Tensor s = s0.contiguous();
  const std::vector<double> seq = s.toDoubles();
  const std::vector<double> vals = v0.contiguous().toDoubles();
  const int64_t m = s.size(s.ndim() - 1);
  const int64_t kPer = v0.ndim() == 0 ? 1 : v0.size(v0.ndim() - 1);
  const bool batched = s.ndim() > 1;
  int32_t* o = out.data<int32_t>();
  for (size_t i = 0; i < vals.size(); ++i) {
    const double* row = seq.data() + (batched ? int64_t(i) / kPer * m : 0);
    const double v = vals[i];
    o[i] = int32_t(searchRow(row, m, v, right));
  }
  return out;
}

}  // namespace

void argsortKeys(const uint32_t* keys, int64_t n, int32_t* outIdx) {
  std::vector<uint64_t> a, b;
  if (n >= kRadixMin)
    radixArgsort(keys, n, outIdx, a, b);
  else
    smallArgsort(keys, n, outIdx, a);
}

void smallestKeys(const uint32_t* keys, int64_t n, int64_t k, int32_t* outIdx) {
  std::vector<uint64_t> a;
  topkRow(keys, n, k, outIdx, 1, a);
}

Tensor runSort(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& sig) {
  if (op == OpKind::Searchsorted) return searchsorted(in[0], in[1], attrs.right, sig);
  Tensor out = emptyLike(sig);
  const Tensor& x0 = in[0];
  const int64_t rank = x0.ndim();
  // A scalar sorts as one element: its index is 0, whatever k (PyTorch's topk of a 0-d tensor
  // with k = 0 still returns it; the row loop below would write nothing).
  if (rank == 0) {
    *out.data<int32_t>() = 0;
    return out;
  }
  const int64_t dim = rank == 0 ? 0 : wrapDim(attrs.dim, rank);
  int64_t outer = 1, n = rank == 0 ? 1 : x0.size(dim), inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x0.size(d);
  for (int64_t d = dim + 1; d < rank; ++d) inner *= x0.size(d);
  const int64_t k = op == OpKind::Topk ? (attrs.stop ? attrs.stop->constant() : 1) : n;
  if (out.numel() == 0 || n == 0) return out;
  const Tensor x = (x0.dtype() == DType::Bool ? castTo(x0, DType::I32) : x0).contiguous();
  if (x.dtype() == DType::F32)
    sortRows(op, x.data<float>(), out.data<int32_t>(), outer, n, inner, k, attrs.descending);
  else
    sortRows(op, x.data<int32_t>(), out.data<int32_t>(), outer, n, inner, k, attrs.descending);
  return out;
}

}  // namespace tessel::backends::cpu
