// Random sampling on the cpu: randperm, multinomial, bernoulli, with PyTorch 1.13's semantics.
// Each draws one Philox word per output element (element i reads word i % 4 of counter
// base + i / 4, Note [Counter-based RNG]), so a traced graph and the tpu, which reserve words
// at the output's size, replay the same numbers, and the vulkan backend computes them here.
// Values are checked here (the shape rule cannot see them): negative, non-finite or all-zero
// probabilities and too few nonzero categories without replacement are ValueErrors.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

#include "backends/cpu/kernels.h"
#include "backends/rng.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

// The words of one random op, read in order.
class Words {
 public:
  explicit Words(int64_t n) : s_(reserveRandom(uint64_t(n))) {}
  uint32_t at(int64_t i) {
    const uint64_t blk = uint64_t(i) / 4;
    if (blk != cached_) {
      block_ = s_.block(blk);
      cached_ = blk;
    }
    return block_[size_t(i % 4)];
  }

 private:
  PhiloxStream s_;
  std::array<uint32_t, 4> block_{};
  uint64_t cached_ = ~uint64_t{0};
};

// A uniform double in [0, 1) from all 32 bits of a word.
double unit(uint32_t w) {
  return double(w) * (1.0 / 4294967296.0);
}

// Fisher-Yates from the back: position i swaps with j = floor(w_i * (i + 1) / 2^32), uniform in
// [0, i] up to 2^-32. Word i belongs to position i (word 0 is reserved but unused).
Tensor randperm(const OpSignature& sig) {
  Tensor out = emptyLike(sig);
  const int64_t n = out.numel();
  int32_t* o = out.data<int32_t>();
  std::iota(o, o + n, 0);
  Words w(n);
  for (int64_t i = n - 1; i >= 1; --i) {
    const int64_t j = int64_t((uint64_t(w.at(i)) * uint64_t(i + 1)) >> 32);
    std::swap(o[i], o[j]);
  }
  return out;
}

// Each element is 1 with probability p[i]: uniform(word i) < p[i].
Tensor bernoulli(const Tensor& p0, const OpSignature& sig) {
  Tensor p = castTo(p0, DType::F32).contiguous();
  const int64_t n = p.numel();
  const float* pv = p.data<float>();
  for (int64_t i = 0; i < n; ++i)
    if (!(pv[i] >= 0.0f && pv[i] <= 1.0f))
      throwUserError(ErrorKind::ValueError, "bernoulli: probabilities must be in [0, 1], got " +
                                                std::to_string(pv[i]) + " at flat index " +
                                                std::to_string(i));
  Tensor out = emptyLike(sig);
  float* o = out.data<float>();
  Words w(n);
  for (int64_t i = 0; i < n; ++i) o[i] = uniformFromBits(w.at(i)) < pv[i] ? 1.0f : 0.0f;
  return out;
}

// Row r's draws: with replacement, a binary search of the running sums (a zero-probability
// category never holds the first running sum above u); without, n sequential draws from the
// remaining mass, each removing its category (PyTorch's distribution; O(n k) per row).
Tensor multinomial(const Tensor& p0, const OpAttrs& attrs, const OpSignature& sig) {
  Tensor p = castTo(p0, DType::F32).contiguous();
  const bool replacement = !attrs.scalars.empty() && attrs.scalars[0] != 0;
  const int64_t k = p.shape().back();
  const int64_t rows = p.ndim() == 2 ? p.size(0) : 1;
  Tensor out = emptyLike(sig);
  const int64_t n = out.shape().back();
  const float* pv = p.data<float>();
  std::string where;
  for (int64_t r = 0; r < rows; ++r) {
    where = p.ndim() == 2 ? " in row " + std::to_string(r) : "";
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
  int32_t* o = out.data<int32_t>();
  Words w(rows * n);
  std::vector<double> acc(static_cast<size_t>(k));
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = pv + r * k;
    int32_t* orow = o + r * n;
    if (replacement) {
      double sum = 0;
      for (int64_t c = 0; c < k; ++c) acc[size_t(c)] = sum += row[c];
      for (int64_t d = 0; d < n; ++d) {
        const double u = unit(w.at(r * n + d)) * sum;
        int64_t c = std::upper_bound(acc.begin(), acc.end(), u) - acc.begin();
        // Rounding can put u at the very top: take the last category with mass.
        while (c >= k || row[c] == 0.0f) c = c >= k ? k - 1 : c - 1;
        orow[d] = int32_t(c);
      }
      continue;
    }
    for (int64_t c = 0; c < k; ++c) acc[size_t(c)] = row[c];
    for (int64_t d = 0; d < n; ++d) {
      double left = 0;
      for (int64_t c = 0; c < k; ++c) left += acc[size_t(c)];
      const double u = unit(w.at(r * n + d)) * left;
      double run = 0;
      int64_t pick = -1;
      for (int64_t c = 0; c < k; ++c) {
        if (acc[size_t(c)] == 0) continue;
        pick = c;  // the last category with mass, should rounding leave u above the sum
        run += acc[size_t(c)];
        if (run > u) break;
      }
      acc[size_t(pick)] = 0;
      orow[d] = int32_t(pick);
    }
  }
  return out;
}

}  // namespace

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
