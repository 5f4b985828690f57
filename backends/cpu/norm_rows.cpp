// ISA-cloned row loops of layer_norm and layer_norm_backward (Note [Layer norm rows]).
#include "backends/cpu/norm_rows.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/isa_clones.h"
#include "backends/cpu/vec16.h"

namespace tessel::backends::cpu {

// Note [Layer norm rows]
// A transformer normalizes rows of a few dozen to a few thousand features. layer_norm ran six
// passes per row at 4 floats an instruction (70 ns a row of 64), and its gradient was a dozen
// graph ops (four row means, five products, a sum for each of dw and db): about 1 ms of a
// 15 ms transformer training step. Here each is one call over all rows, compiled for AVX-512
// and AVX2 (Note [ISA clones]): the row's statistics and the two sums of the gradient are
// lane-parallel float sums finished in double (as sumFloats in reduce.cpp), the row stays in
// L1 between passes, and dw and db accumulate in double over the rows. The formulas are
// PyTorch's (two-pass variance, as layer_norm had).
namespace {

constexpr int64_t kBlock = 1024;  // floats summed in float before the block joins the double

using namespace vec16;  // V16, load, laneSum (vec16.h): the auto-vectorizer had left these row
                        // sums mostly scalar, and a scalar sum of 16 lanes costs more than a
                        // row of 64 itself.

// sum(a[i] * b[i]) (b null: sum(a[i])): 16 float lanes per block of kBlock, blocks added in
// double.
inline double laneDot(const float* __restrict a, const float* __restrict b, int64_t n) {
  double total = 0;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t end = std::min(n, start + kBlock);
    V16 acc = {};
    int64_t i = start;
    if (b)
      for (; i + 16 <= end; i += 16) acc += load(a + i) * load(b + i);
    else
      for (; i + 16 <= end; i += 16) acc += load(a + i);
    double block = laneSum(acc);
    for (; i < end; ++i) block += b ? a[i] * b[i] : a[i];
    total += block;
  }
  return total;
}

// xh = (xr - mean) * rstd for one row; returns rstd.
inline float normalizeRow(const float* __restrict xr, float* __restrict xh, int64_t n, float eps) {
  const float mean = static_cast<float>(laneDot(xr, nullptr, n) / double(n));
  for (int64_t i = 0; i < n; ++i) xh[i] = xr[i] - mean;
  const float var = static_cast<float>(laneDot(xh, xh, n) / double(n));
  const float rstd = 1.0f / std::sqrt(var + eps);
  for (int64_t i = 0; i < n; ++i) xh[i] *= rstd;
  return rstd;
}

}  // namespace

TESSEL_ISA_CLONES void layerNormRows(const float* x, const float* w, const float* b, float* out,
                                     int64_t rows, int64_t n, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    float* __restrict o = out + r * n;
    normalizeRow(x + r * n, o, n, eps);
    if (w)
      for (int64_t i = 0; i < n; ++i) o[i] *= w[i];
    if (b)
      for (int64_t i = 0; i < n; ++i) o[i] += b[i];
  }
}

TESSEL_ISA_CLONES void layerNormBackwardRows(const float* g, const float* x, const float* w,
                                             float* dx, double* dw, double* db, int64_t rows,
                                             int64_t n, float eps) {
  std::vector<float> scratch(size_t(2 * n));
  float* __restrict xh = scratch.data();
  float* __restrict wg = xh + n;  // dxhat = g * w
  double* __restrict dws = dw;
  double* __restrict dbs = db;
  for (int64_t r = 0; r < rows; ++r) {
    const float* __restrict gr = g + r * n;
    float* __restrict d = dx + r * n;
    const float rstd = normalizeRow(x + r * n, xh, n, eps);
    const float* dxhat = gr;
    if (w) {
      for (int64_t i = 0; i < n; ++i) wg[i] = gr[i] * w[i];
      dxhat = wg;
    }
    const float a = static_cast<float>(laneDot(dxhat, nullptr, n) / double(n));
    const float c = static_cast<float>(laneDot(dxhat, xh, n) / double(n));
    for (int64_t i = 0; i < n; ++i) d[i] = rstd * (dxhat[i] - a - xh[i] * c);
    if (!w) continue;
    for (int64_t i = 0; i < n; ++i) {
      dws[i] += double(gr[i] * xh[i]);
      dbs[i] += double(gr[i]);
    }
  }
}

}  // namespace tessel::backends::cpu
