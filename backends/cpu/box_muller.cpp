// The Box-Muller transform of randn (docs/tensors.md, "Random numbers"), vectorized.
#include "backends/cpu/box_muller.h"

#include <math.h>

#include "backends/cpu/isa_clones.h"

namespace tessel::backends::cpu {

// Note [Vectorized Box-Muller]
// Scalar libm log, sin and cos took half of a training step that draws its batch with randn
// (bench/mlp). This file is compiled with -ffast-math, under which glibc declares the
// vector variants of log, sin and cos (libmvec: 2, 4 or 8 doubles a call, picked by the ISA
// clone), and GCC vectorizes these loops with them. sin and cos have loops of their own: in one
// loop GCC fuses them into a scalar sincos. libmvec's double functions are within 4 ulp, so
// after rounding to f32 an element differs from the correctly rounded value with probability
// about 2^-27, by one f32 ulp (measured: docs/tensors.md). Nothing else here depends on
// -ffast-math: the inputs are finite and positive, and each line is one operation.
TESSEL_ISA_CLONES void boxMuller(const double* __restrict u1, const double* __restrict u2,
                                 double* __restrict radius, double* __restrict x,
                                 double* __restrict y, int n) {
  for (int i = 0; i < n; ++i) radius[i] = sqrt(-2.0 * log(u1[i]));
  for (int i = 0; i < n; ++i) x[i] = radius[i] * cos(6.283185307179586 * u2[i]);
  for (int i = 0; i < n; ++i) y[i] = radius[i] * sin(6.283185307179586 * u2[i]);
}

}  // namespace tessel::backends::cpu
