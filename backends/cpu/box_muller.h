// The Box-Muller transform of randn, vectorized (Note [Vectorized Box-Muller]).
#pragma once

namespace tessel::backends::cpu {

/// For each i: radius = sqrt(-2 ln u1[i]); x[i] = radius cos(2 pi u2[i]), y[i] = radius
/// sin(2 pi u2[i]). u1 must be in (0, 1]. `radius` is scratch of n doubles.
void boxMuller(const double* u1, const double* u2, double* radius, double* x, double* y, int n);

}  // namespace tessel::backends::cpu
