// Contiguous rows of the transcendental unary ops, compiled for several x86 ISA levels.
#pragma once

#include <cstdint>

namespace tessel::backends::cpu {

// Note [ISA clones]
// exp, log and sigmoid do ~25 flops per element, so on 4-wide SSE2 (the x86-64 baseline the
// build targets) they are compute-bound at a fraction of memory bandwidth. These row loops are
// compiled with GCC's target_clones for x86-64-v4 (AVX-512), x86-64-v3 (AVX2/FMA) and the
// baseline; the loader picks the best one for the running CPU once, so the binary stays
// portable. Elementwise arithmetic and inner reductions are memory-bound already and need no
// clones; the row accumulation of sums over a leading dim is not (it reloads its accumulator).
// FMA contraction may change the last bit compared with the baseline clone (within the 2 ulp
// bound of vec_math.h).

void expRow(float* __restrict out, const float* __restrict in, int64_t n);
void logRow(float* __restrict out, const float* __restrict in, int64_t n);
void sigmoidRow(float* __restrict out, const float* __restrict in, int64_t n);
/// acc[b] += x[r * B + b] for r < rows: the inner loop of sums over a leading dim, which is
/// bound by L1 loads and stores of acc, so wider vectors help it too.
void accumulateRows(float* __restrict acc, const float* __restrict x, int64_t rows, int64_t B);

}  // namespace tessel::backends::cpu
