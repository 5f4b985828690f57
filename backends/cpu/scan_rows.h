// Inclusive scans of one long f32 row, accumulated in double (Note [Blocked scan]).
#pragma once

#include <cstdint>

namespace tessel::backends::cpu {

/// out[i] = float(x[0] + ... + x[i]), the sums taken in double from the row's start.
void cumsumRowF32(const float* x, float* out, int64_t n);
/// out[i] = float(x[0] * ... * x[i]), the products taken in double from the row's start.
void cumprodRowF32(const float* x, float* out, int64_t n);

}  // namespace tessel::backends::cpu
