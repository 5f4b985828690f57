// Random sampling on the cpu: randperm, multinomial, bernoulli, with PyTorch 1.13's semantics.
// Every element's randomness is one Philox word chosen by its index alone (element i reads word
// i % 4 of counter base + i / 4, Note [Counter-based RNG]), so the draws are data-parallel and
// the vulkan kernels (shaders/sampling.comp) compute the same indices; a traced graph and the
// tpu reserve the same words (graph::randomWordCount). The algorithms:
// - bernoulli: element i is 1 when uniform(word i) < p[i].
// - randperm(n): the indices sorted by the key word i, ties by index (a stable radix sort).
// - multinomial without replacement: the exponential race, the n smallest keys -ln(u_c) / p_c
//   of a row (word row * k + c); with replacement, the inverse CDF of the row's running sums,
//   one word per draw (row * n + d). Both in integers (Note [Exact sampling keys]).
// Values are checked here (the shape rule cannot see them): negative, non-finite or all-zero
// probabilities and too few nonzero categories without replacement are ValueErrors.
#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "backends/cpu/isa_clones.h"
#include "backends/cpu/kernels.h"
#include "backends/cpu/random_bits.h"
#include "backends/cpu/sampling_keys.h"
#include "backends/cpu/vec_math.h"
#include "backends/rng.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

using namespace sampling;

// Scratch memory from the tensor allocator, whose block cache serves the next call of the same
// size (fresh vectors of megabytes cost a page fault per 4 KiB page on every call).
template <class T>
T* scratchOf(Tensor& holder, int64_t count) {
  const int64_t words = (count * int64_t(sizeof(T)) + 3) / 4;
  holder = emptyLike(OpSignature{{words}, DType::I32});
  return reinterpret_cast<T*>(holder.data<int32_t>());
}

// The op's words in element order: words[i] is element i's word (held by `holder`).
const uint32_t* drawWords(uint64_t n, Tensor& holder) {
  const PhiloxStream s = reserveRandom(n);
  uint32_t* words = scratchOf<uint32_t>(holder, int64_t((n + 3) / 4 * 4));
  constexpr uint64_t kChunk = 1024;  // counters per philoxWords call
  for (uint64_t first = 0; 4 * first < n; first += kChunk) {
    const uint64_t count = std::min<uint64_t>(kChunk, (n + 3) / 4 - first);
    philoxWords(s, first, int(count), words + 4 * first);
  }
  return words;
}

// The stable argsort of randperm's keys: for large n an LSD radix sort of two 16-bit digits (two
// scattering passes where argsortKeys' 8-bit digits take four; keys that are uniform fill the
// 65536 buckets evenly). LSD is stable, so equal keys keep index order: the same permutation as
// argsortKeys and as the vulkan row sort.
void randomKeyArgsort(const uint32_t* keys, int64_t n, int32_t* out) {
  if (n < 65536) return argsortKeys(keys, n, out);
  Tensor countHolder, idxHolder;
  uint32_t* low = scratchOf<uint32_t>(countHolder, 2 * 65536);
  uint32_t* high = low + 65536;
  uint32_t* idx = scratchOf<uint32_t>(idxHolder, n);
  std::fill_n(low, 2 * 65536, 0u);
  for (int64_t i = 0; i < n; ++i) ++low[keys[i] & 0xffff], ++high[keys[i] >> 16];
  for (uint32_t d = 0, a = 0, b = 0; d < 65536; ++d) {  // counts to starts
    const uint32_t x = low[d], y = high[d];
    low[d] = a, high[d] = b;
    a += x, b += y;
  }
  for (int64_t i = 0; i < n; ++i) idx[low[keys[i] & 0xffff]++] = uint32_t(i);
  for (int64_t i = 0; i < n; ++i) out[high[keys[idx[i]] >> 16]++] = int32_t(idx[i]);
}

Tensor randperm(const OpSignature& sig) {
  Tensor out = emptyLike(sig);
  const int64_t n = out.numel();
  Tensor holder;
  const uint32_t* keys = drawWords(uint64_t(n), holder);
  randomKeyArgsort(keys, n, out.data<int32_t>());
  return out;
}

Tensor bernoulli(const Tensor& p0, const OpSignature& sig) {
  Tensor p = castTo(p0, DType::F32).contiguous();
  const int64_t n = p.numel();
  Tensor holder;
  const uint32_t* w = drawWords(uint64_t(n), holder);
  checkSamplingInput(OpKind::Bernoulli, p, {}, sig);
  Tensor out = emptyLike(sig);
  float* o = out.data<float>();
  const float* pv = p.data<float>();
  for (int64_t i = 0; i < n; ++i) o[i] = uniformFromBits(w[size_t(i)]) < pv[i] ? 1.0f : 0.0f;
  return out;
}

// Note [Race key candidates]
// An exact race key costs 26 dependent multiplies and a division; a draw of n from k >> n
// categories needs only the n smallest. So each category first gets bounds [lo, hi] on its key's
// value E / p from a float log (vlog, 2 ulp) widened by a margin far above every error (vlog's,
// the float u's, log2Fixed's 2^-26 and the key's 22-bit mantissa), T is the n-th smallest hi, and
// only the categories with lo <= T get exact keys: n keys are <= T, so the n smallest exact ones
// are among them. The result is the same as from every exact key (the vulkan kernels compute
// every key; the parity tests compare).
constexpr double kRaceMargin = 1e-5;
TESSEL_ISA_CLONES void raceKeyBounds(const uint32_t* __restrict w, const float* __restrict p,
                                     int64_t k, double* __restrict lo, double* __restrict hi) {
  for (int64_t c = 0; c < k; ++c) {
    const float u = (float(w[c]) + 1.0f) * 0x1p-32f;  // (w + 1) / 2^32, rounded
    const double e = double(-vlog(u) * 1.44269504f);  // -log2(u)
    const double inv = p[c] > 0 ? 1.0 / double(p[c]) : INFINITY;
    lo[c] = p[c] > 0 ? (e * (1 - kRaceMargin) - kRaceMargin) * inv : INFINITY;
    hi[c] = p[c] > 0 ? (e * (1 + kRaceMargin) + kRaceMargin) * inv : INFINITY;
  }
}

// The n-th smallest of v (1 <= n <= v.size()); for small n one pass keeping the n smallest in a
// max-heap, where almost every value fails the one compare with its top.
double nthSmallest(double* v, int64_t size, int64_t n) {
  if (n > 64) {
    std::nth_element(v, v + (n - 1), v + size);
    return v[n - 1];
  }
  std::vector<double> heap(v, v + n);
  std::make_heap(heap.begin(), heap.end());
  for (int64_t i = n; i < size; ++i)
    if (v[i] < heap.front()) {
      std::pop_heap(heap.begin(), heap.end());
      heap.back() = v[i];
      std::push_heap(heap.begin(), heap.end());
    }
  return heap.front();
}

// The n smallest (race key, index) pairs of one row of k weights, ascending, into out.
struct RaceScratch {
  std::vector<uint32_t> keys;
  Tensor bounds;  // lo and hi, doubles
  int64_t boundsFor = 0;
  std::vector<uint64_t> pairs;
};

void raceRow(const float* row, const uint32_t* w, int64_t k, int64_t n, int32_t* out,
             RaceScratch& scratch) {
  std::vector<uint32_t>& keys = scratch.keys;
  std::vector<uint64_t>& pairs = scratch.pairs;
  if (n == 0) return;
  if (k < 64 || k < 8 * n) {  // most keys are needed: all of them exactly
    keys.resize(size_t(k));
    for (int64_t c = 0; c < k; ++c)
      keys[size_t(c)] = uint32_t(row[c] > 0 ? raceKey(w[c], bitsOf(row[c])) : kNeverKey);
    smallestKeys(keys.data(), k, n, out);
    return;
  }
  if (scratch.boundsFor < k) scratchOf<double>(scratch.bounds, 2 * k), scratch.boundsFor = k;
  double* lo = reinterpret_cast<double*>(scratch.bounds.data<int32_t>());
  double* hi = lo + k;
  raceKeyBounds(w, row, k, lo, hi);
  const double t = nthSmallest(hi, k, n);
  pairs.clear();
  for (int64_t c = 0; c < k; ++c)
    if (lo[c] <= t)
      pairs.push_back(uint64_t(uint32_t(raceKey(w[c], bitsOf(row[c])))) << 32 | uint32_t(c));
  std::nth_element(pairs.begin(), pairs.begin() + (n - 1), pairs.end());
  std::sort(pairs.begin(), pairs.begin() + n);
  for (int64_t d = 0; d < n; ++d) out[d] = int32_t(uint32_t(pairs[size_t(d)]));
}

Tensor multinomial(const Tensor& p0, const OpAttrs& attrs, const OpSignature& sig) {
  Tensor p = castTo(p0, DType::F32).contiguous();
  const bool replacement = !attrs.scalars.empty() && attrs.scalars[0] != 0;
  const int64_t k = p.shape().back();
  const int64_t rows = p.ndim() == 2 ? p.size(0) : 1;
  Tensor out = emptyLike(sig);
  const int64_t n = out.shape().back();
  Tensor holder;
  const uint32_t* w = drawWords(uint64_t(rows * (replacement ? n : k)), holder);
  checkSamplingInput(OpKind::Multinomial, p, attrs, sig);
  const float* pv = p.data<float>();
  int32_t* o = out.data<int32_t>();
  RaceScratch scratch;
  std::vector<uint64_t> cum(static_cast<size_t>(replacement ? k : 0));
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = pv + r * k;
    int32_t* orow = o + r * n;
    if (!replacement) {
      raceRow(row, w + r * k, k, n, orow, scratch);
      continue;
    }
    uint32_t emax = 0;
    for (int64_t c = 0; c < k; ++c)
      if (row[c] > 0) emax = std::max(emax, std::max(1u, bitsOf(row[c]) >> 23));  // as splitFloat
    uint64_t sum = 0;
    for (int64_t c = 0; c < k; ++c)
      cum[size_t(c)] = sum += row[c] > 0 ? quantized(bitsOf(row[c]), emax) : 0;
    for (int64_t d = 0; d < n; ++d) {
      const uint64_t t = drawTarget(w[size_t(r * n + d)], sum);
      orow[d] = int32_t(std::upper_bound(cum.begin(), cum.end(), t) - cum.begin());
    }
  }
  return out;
}

}  // namespace

void checkSamplingInput(OpKind op, const Tensor& p0, const OpAttrs& attrs, const OpSignature& sig) {
  const Tensor p = castTo(p0, DType::F32).contiguous();
  const float* pv = p.data<float>();
  if (op == OpKind::Bernoulli) {
    for (int64_t i = 0, n = p.numel(); i < n; ++i)
      if (!(pv[i] >= 0.0f && pv[i] <= 1.0f))
        throwUserError(ErrorKind::ValueError, "bernoulli: probabilities must be in [0, 1], got " +
                                                  std::to_string(pv[i]) + " at flat index " +
                                                  std::to_string(i));
    return;
  }
  const bool replacement = !attrs.scalars.empty() && attrs.scalars[0] != 0;
  const int64_t k = p.shape().back();
  const int64_t rows = p.ndim() == 2 ? p.size(0) : 1;
  const int64_t n = sig.shape.back().constant();
  for (int64_t r = 0; r < rows; ++r) {
    const std::string where = p.ndim() == 2 ? " in row " + std::to_string(r) : "";
    int64_t nonzero = 0;
    for (int64_t c = 0; c < k; ++c) {
      const float v = pv[r * k + c];
      if (!(v >= 0.0f) || std::isinf(v))
        throwUserError(ErrorKind::ValueError,
                       "multinomial: probabilities must be finite and non-negative, got " +
                           std::to_string(v) + " at category " + std::to_string(c) + where);
      nonzero += v > 0.0f;
    }
    if (nonzero == 0)
      throwUserError(ErrorKind::ValueError,
                     "multinomial: probabilities sum to zero" + where + " (no category to draw)");
    if (!replacement && n > nonzero)
      throwUserError(ErrorKind::ValueError, "multinomial: cannot draw " + std::to_string(n) +
                                                " samples without replacement from " +
                                                std::to_string(nonzero) +
                                                " categories of nonzero probability" + where);
  }
}

Tensor runSampling(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                   const OpSignature& sig) {
  switch (op) {
    case OpKind::Randperm:
      return randperm(sig);
    case OpKind::Bernoulli:
      return bernoulli(in[0], sig);
    case OpKind::Multinomial:
      return multinomial(in[0], attrs, sig);
    default:
      TESSEL_ASSERT(false, "runSampling: not a sampling op");
  }
  return {};
}

}  // namespace tessel::backends::cpu
