// Row loops the kernels share that their ops' formulas do not give (softmax's shifted exp,
// gelu's gradient, sums over a leading dim), compiled for several x86 ISA levels.
#pragma once

#include <cstdint>

namespace tessel::backends::cpu {

// Row loops compiled for several ISA levels (Note [ISA clones] in isa_clones.h).

/// out[i] = e^(in[i] - shift): the exp row of softmax, log_softmax and cross_entropy (Note
/// [Softmax rows in every ISA] in vec_rows.cpp).
void expShiftedRow(float* __restrict out, const float* __restrict in, float shift, int64_t n);
/// out[i] = g[i] * gelu'(x[i]): gelu's gradient (Note [gelu backward in one pass]).
void geluBackwardRow(float* __restrict out, const float* __restrict g,
                     const float* __restrict x, int64_t n);
/// acc[b] += x[r * B + b] for r < rows: the inner loop of sums over a leading dim, which is
/// bound by L1 loads and stores of acc, so wider vectors help it too.
void accumulateRows(float* __restrict acc, const float* __restrict x, int64_t rows, int64_t B);

}  // namespace tessel::backends::cpu
