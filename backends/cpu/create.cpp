// Creation ops: full, arange, eye, and the random ones (rand, randn, randint) on Philox.
#include <algorithm>
#include <cmath>

#include "backends/cpu/box_muller.h"
#include "backends/cpu/isa_clones.h"
#include "backends/cpu/kernels.h"
#include "backends/cpu/random_bits.h"
#include "backends/rng.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

template <class T>
void fill(const Tensor& out, double v) {
  T* o = out.data<T>();
  const T value = static_cast<T>(v);
  for (int64_t i = 0, n = out.numel(); i < n; ++i) o[i] = value;
}

// Element i of a random op reads word i % 4 of block i / 4 (Note [Counter-based RNG]).
template <class F>
void forEachRandomWord(int64_t n, F f) {
  PhiloxStream s = reserveRandom(uint64_t(n));
  constexpr int kBlocks = 128;
  uint32_t words[4 * kBlocks];
  for (int64_t first = 0; first * 4 < n; first += kBlocks) {
    const int count = static_cast<int>(std::min<int64_t>(kBlocks, (n - first * 4 + 3) / 4));
    philoxWords(s, uint64_t(first), count, words);
    const int64_t end = std::min<int64_t>(n, (first + count) * 4);
    for (int64_t i = first * 4; i < end; ++i) f(i, words[i - first * 4]);
  }
}

// Box-Muller on each pair of words (w0, w1) and (w2, w3) of a block: element 4k+0 and 4k+1
// are r*cos(t) and r*sin(t) of the first pair, 4k+2 and 4k+3 of the second. Computed in
// double and rounded once (Note [Vectorized Box-Muller]), a chunk of pairs at a time.
// The uniforms of a chunk of pairs, and its normals interleaved into the output: plain loops
// that the ISA clones vectorize (in baseline SSE2 they were a fifth of randn).
TESSEL_ISA_CLONES void uniformsOfWords(const uint32_t* __restrict words, int m,
                                       double* __restrict u1, double* __restrict u2) {
  for (int k = 0; k < m; ++k) {
    // u1 in (0, 1] so that log(u1) is finite; u2 in [0, 1).
    u1[k] = (double(words[2 * k] >> 8) + 1.0) / 16777216.0;
    u2[k] = double(words[2 * k + 1] >> 8) / 16777216.0;
  }
}
TESSEL_ISA_CLONES void interleavePairs(const double* __restrict x, const double* __restrict y,
                                       int m, float* __restrict out) {
  for (int k = 0; k < m; ++k) {
    out[2 * k] = static_cast<float>(x[k]);
    out[2 * k + 1] = static_cast<float>(y[k]);
  }
}

void randn(const Tensor& out) {
  const int64_t n = out.numel();
  float* o = out.data<float>();
  PhiloxStream s = reserveRandom(uint64_t(n));
  constexpr int kPairs = 256;  // a multiple of 2: a block gives two pairs
  double u1[kPairs], u2[kPairs], radius[kPairs], x[kPairs], y[kPairs];
  uint32_t words[2 * kPairs];
  float last[2 * kPairs];  // the chunk holding an odd n's last element
  const int64_t pairs = (n + 1) / 2;
  for (int64_t first = 0; first < pairs; first += kPairs) {
    const int m = static_cast<int>(std::min<int64_t>(kPairs, pairs - first));
    philoxWords(s, uint64_t(first) / 2, (m + 1) / 2, words);
    uniformsOfWords(words, m, u1, u2);
    boxMuller(u1, u2, radius, x, y, m);
    if (2 * (first + m) <= n) {
      interleavePairs(x, y, m, o + 2 * first);
    } else {  // the last pair has one element in the output
      interleavePairs(x, y, m, last);
      std::copy(last, last + (n - 2 * first), o + 2 * first);
    }
  }
}

}  // namespace

Tensor runCreate(OpKind op, const OpAttrs& attrs, const OpSignature& sig) {
  if (op == OpKind::Randperm) return runSampling(op, {}, attrs, sig);
  Tensor out = emptyLike(sig);
  const int64_t n = out.numel();
  switch (op) {
    case OpKind::Full: {
      const double v = attrs.scalars.empty() ? 0.0 : attrs.scalars[0];
      visitDType(sig.dtype,
                 [&](auto t) { fill<decltype(t)>(out, sig.dtype == DType::Bool ? v != 0 : v); });
      return out;
    }
    case OpKind::Arange: {
      if (attrs.scalars.size() == 3) {
        // A float range {start, stop, step} (the rule gives the count).
        const double fstart = attrs.scalars[0], fstep = attrs.scalars[2];
        visitDType(sig.dtype, [&](auto t) {
          using T = decltype(t);
          T* o = out.data<T>();
          for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(fstart + double(i) * fstep);
        });
        return out;
      }
      const int64_t start = attrs.start ? attrs.start->constant() : 0;
      const int64_t step = attrs.step.constant();
      visitDType(sig.dtype, [&](auto t) {
        using T = decltype(t);
        T* o = out.data<T>();
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(start + i * step);
      });
      return out;
    }
    case OpKind::Eye: {
      visitDType(sig.dtype, [&](auto t) { fill<decltype(t)>(out, 0); });
      const int64_t rows = out.size(0), cols = out.ndim() > 1 ? out.size(1) : rows;
      visitDType(sig.dtype, [&](auto t) {
        using T = decltype(t);
        for (int64_t i = 0; i < std::min(rows, cols); ++i) out.data<T>()[i * cols + i] = T(1);
      });
      return out;
    }
    case OpKind::Rand: {
      float* o = out.data<float>();
      forEachRandomWord(n, [o](int64_t i, uint32_t w) { o[i] = uniformFromBits(w); });
      return out;
    }
    case OpKind::Randn:
      randn(out);
      return out;
    case OpKind::Randint: {
      const int64_t lo = static_cast<int64_t>(attrs.scalars.at(0));
      const int64_t hi = static_cast<int64_t>(attrs.scalars.at(1));
      if (hi <= lo)
        throwUserError(ErrorKind::ValueError, "randint: empty range [" + std::to_string(lo) + ", " +
                                                  std::to_string(hi) + ")");
      // w % range: the bias is below range / 2^32, negligible for the ranges tensors use.
      const uint64_t range = uint64_t(hi - lo);
      visitDType(sig.dtype, [&](auto t) {
        using T = decltype(t);
        T* o = out.data<T>();
        forEachRandomWord(
            n, [&](int64_t i, uint32_t w) { o[i] = static_cast<T>(lo + int64_t(w % range)); });
      });
      return out;
    }
    default:
      TESSEL_ASSERT(false, "not a creation op");
  }
  return out;
}

}  // namespace tessel::backends::cpu
