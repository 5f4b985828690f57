// The row loops of layer_norm and its gradient, compiled for several x86 ISA levels (Note
// [Layer norm rows] in norm_rows.cpp).
#pragma once

#include <cstdint>

namespace tessel::backends::cpu {

/// out = (x - mean) / sqrt(var + eps) * w + b over each row of n; w and b may be null.
void layerNormRows(const float* x, const float* w, const float* b, float* out, int64_t rows,
                   int64_t n, float eps);

/// layer_norm's gradient over each row of n, recomputing the row's statistics from x:
/// dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) with dxhat = g * w (g when w
/// is null). With w, dw[i] += g * xhat and db[i] += g over the rows (dw and db hold n sums).
void layerNormBackwardRows(const float* g, const float* x, const float* w, float* dx, double* dw,
                           double* db, int64_t rows, int64_t n, float eps);

}  // namespace tessel::backends::cpu
