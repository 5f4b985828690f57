// ISA-cloned row loops (Note [ISA clones] in isa_clones.h): softmax's shifted exp, gelu's
// gradient and the leading-dim sums. The elementwise ops' own rows come from their formulas
// (defined_rows.cpp).
#include "backends/cpu/vec_rows.h"

#include "backends/cpu/isa_clones.h"
#include "backends/cpu/vec_math.h"
#include "ops/elementwise_cpu.h"

namespace tessel::backends::cpu {

// Note [Softmax rows in every ISA]
// softmax, log_softmax and cross_entropy (nn.cpp) had their exp(x - max) loop inline, so it
// ran 4 wide on the x86-64 baseline the build targets, at about 3 ns a logit: with the
// softmax the cross_entropy gradient recomputes, a character model's loss cost as much as a
// layer's attention. The same loop here runs in the AVX-512 or AVX2 clone.
TESSEL_ISA_CLONES void expShiftedRow(float* __restrict out, const float* __restrict in,
                                     float shift, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = vexp(in[i] - shift);
}

// Note [gelu backward in one pass]
// gelu's gradient was a dozen elementwise ops (Phi read off the output as gelu(x) / x, the
// density through exp): the cpu's fused evaluator runs such a program one instruction at a
// time over tiles, about 1.9 ns an element, and it was 8% of a transformer's training step
// As one op it is a single pass with everything in registers, and it reads only
// the gradient and x. Same formula as PyTorch's gelu_backward: Phi from erf, phi from exp; the
// density's e^(-x^2 / 2) is the e^(-t^2) that erf(t = x / sqrt 2) needs, so one exp serves both.
inline float geluSlope(float x) {
  constexpr float kBeta = 0.3989422804014327f;  // 1 / sqrt(2 pi)
  const float t = x * 0.70710678118654752f;
  const float e = vexp(-(t * t));
  const float cdf = 0.5f * (1.0f + ops::ew::ew_erf_given_exp(t, e));
  return cdf + x * (kBeta * e);
}

TESSEL_ISA_CLONES void geluBackwardRow(float* __restrict out, const float* __restrict g,
                                       const float* __restrict x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = g[i] * geluSlope(x[i]);
}

TESSEL_ISA_CLONES void accumulateRows(float* __restrict acc, const float* __restrict x,
                                      int64_t rows, int64_t B) {
  int64_t r = 0;
  // Four rows per pass: one load and store of the accumulator per four row loads.
  for (; r + 4 <= rows; r += 4) {
    const float* p = x + r * B;
    for (int64_t b = 0; b < B; ++b) acc[b] += (p[b] + p[b + B]) + (p[b + 2 * B] + p[b + 3 * B]);
  }
  for (; r < rows; ++r)
    for (int64_t b = 0; b < B; ++b) acc[b] += x[r * B + b];
}

}  // namespace tessel::backends::cpu
