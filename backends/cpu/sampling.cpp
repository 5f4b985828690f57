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
#include <cmath>
#include <vector>

#include "backends/cpu/kernels.h"
#include "backends/cpu/random_bits.h"
#include "backends/cpu/sampling_keys.h"
#include "backends/rng.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

using namespace sampling;

// The op's words in element order: words[i] is element i's word.
std::vector<uint32_t> drawWords(uint64_t n) {
  const PhiloxStream s = reserveRandom(n);
  std::vector<uint32_t> words((n + 3) / 4 * 4);
  constexpr uint64_t kChunk = 1024;  // counters per philoxWords call
  for (uint64_t first = 0; 4 * first < n; first += kChunk) {
    const uint64_t count = std::min<uint64_t>(kChunk, (n + 3) / 4 - first);
    philoxWords(s, first, int(count), words.data() + 4 * first);
  }
  return words;
}

Tensor randperm(const OpSignature& sig) {
  Tensor out = emptyLike(sig);
  const int64_t n = out.numel();
  const std::vector<uint32_t> keys = drawWords(uint64_t(n));
  argsortKeys(keys.data(), n, out.data<int32_t>());
  return out;
}

Tensor bernoulli(const Tensor& p0, const OpSignature& sig) {
  Tensor p = castTo(p0, DType::F32).contiguous();
  const int64_t n = p.numel();
  const std::vector<uint32_t> w = drawWords(uint64_t(n));
  checkSamplingInput(OpKind::Bernoulli, p, {}, sig);
  Tensor out = emptyLike(sig);
  float* o = out.data<float>();
  const float* pv = p.data<float>();
  for (int64_t i = 0; i < n; ++i) o[i] = uniformFromBits(w[size_t(i)]) < pv[i] ? 1.0f : 0.0f;
  return out;
}

Tensor multinomial(const Tensor& p0, const OpAttrs& attrs, const OpSignature& sig) {
  Tensor p = castTo(p0, DType::F32).contiguous();
  const bool replacement = !attrs.scalars.empty() && attrs.scalars[0] != 0;
  const int64_t k = p.shape().back();
  const int64_t rows = p.ndim() == 2 ? p.size(0) : 1;
  Tensor out = emptyLike(sig);
  const int64_t n = out.shape().back();
  const std::vector<uint32_t> w = drawWords(uint64_t(rows * (replacement ? n : k)));
  checkSamplingInput(OpKind::Multinomial, p, attrs, sig);
  const float* pv = p.data<float>();
  int32_t* o = out.data<int32_t>();
  std::vector<uint32_t> keys(static_cast<size_t>(replacement ? 0 : k));
  std::vector<uint64_t> cum(static_cast<size_t>(replacement ? k : 0));
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = pv + r * k;
    int32_t* orow = o + r * n;
    if (!replacement) {
      const uint32_t* wr = w.data() + r * k;
      for (int64_t c = 0; c < k; ++c)
        keys[size_t(c)] = uint32_t(row[c] > 0 ? raceKey(wr[c], bitsOf(row[c])) : kNeverKey);
      smallestKeys(keys.data(), k, n, orow);
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

void checkSamplingInput(OpKind op, const Tensor& p0, const OpAttrs& attrs,
                        const OpSignature& sig) {
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
