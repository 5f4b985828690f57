// The f32 row loops of index_add and scatter_add into random target rows, compiled for
// several x86 ISA levels and prefetched (Note [Random target rows] in scatter_rows.cpp).
#pragma once

#include <cstdint>

namespace tessel::backends::cpu {

/// dst[idx[i] * inner + b] += alpha * src[i * inner + b] for i < k, b < inner. Returns k, or
/// the first i whose index is outside [0, size): rows from it on are not added.
int64_t indexAddRowsF32(float* dst, const float* src, const int32_t* idx, int64_t k,
                        int64_t inner, int64_t size, float alpha);

/// scatter_add along dim 0 of a 2-D walk: for r < rows and c < len,
/// dst[idx[r * idxRow + c] * dstRow + c] += src[r * srcRow + c]. A row whose indices are all
/// equal (PyG's expanded index) is added as one vector loop. Returns rows, or the first row
/// holding an index outside [0, size); that row and the rest are not added.
int64_t scatterAddRowsF32(float* dst, int64_t dstRow, const float* src, int64_t srcRow,
                          const int32_t* idx, int64_t idxRow, int64_t rows, int64_t len,
                          int64_t size);

}  // namespace tessel::backends::cpu
