// ISA-cloned, prefetched row loops of index_add and scatter_add (Note [Random target rows]).
#include "backends/cpu/scatter_rows.h"

#include <xmmintrin.h>

#include <climits>

#include "backends/cpu/isa_clones.h"

namespace tessel::backends::cpu {

// Note [Random target rows]
// index_add and scatter_add of many source rows into random target rows (a GNN's message
// passing: 1M edges into 100K nodes) are bound by memory: each row reads a source row once,
// and reads and writes a target row that is rarely in cache. Three things keep the memory
// system busy instead of waiting:
//  - the target row kTargetAhead rows on is prefetched for writing while this one is added,
//    so the misses overlap instead of stalling each add in turn;
//  - the source row kSourceAhead rows on is prefetched non-temporally: it is read once, and
//    so does not push the target rows (which are read again) out of the caches;
//  - the whole loop, prefetches included, is compiled for AVX-512 and AVX2 (Note [ISA
//    clones]): at 4 floats an instruction the adds themselves were a third of the time.
// Measured on the 2-core EPYC VM with bench/bench_sparse.cpp (BM_IndexAdd: 37 ms before, and
// see docs/perf.md); prefetch distances 8 and 32 were no better than 16 for the targets.
namespace {
constexpr int64_t kTargetAhead = 16, kSourceAhead = 8;
// Prefetching more than this per row would evict what the rows in flight fetched.
constexpr int64_t kMaxPrefetchBytes = 1024;

inline void prefetchRow(const void* p, int64_t bytes, bool forWrite) {
  const char* c = static_cast<const char*>(p);
  for (int64_t b = 0; b < bytes; b += 64) {
    if (forWrite)
      __builtin_prefetch(c + b, 1, 3);
    else
      _mm_prefetch(c + b, _MM_HINT_NTA);
  }
}
}  // namespace

TESSEL_ISA_CLONES int64_t indexAddRowsF32(float* dst, const float* src, const int32_t* idx,
                                          int64_t k, int64_t inner, int64_t size,
                                          float alpha) {
  const int64_t bytes = inner * int64_t(sizeof(float));
  const bool prefetch = bytes <= kMaxPrefetchBytes;
  for (int64_t i = 0; i < k; ++i) {
    if (prefetch) {
      if (i + kTargetAhead < k) {
        const int64_t j = idx[i + kTargetAhead];
        if (j >= 0 && j < size) prefetchRow(dst + j * inner, bytes, true);
      }
      if (i + kSourceAhead < k) prefetchRow(src + (i + kSourceAhead) * inner, bytes, false);
    }
    const int64_t j = idx[i];
    if (j < 0 || j >= size) return i;
    float* __restrict d = dst + j * inner;
    const float* __restrict s = src + i * inner;
    if (alpha == 1.0f)
      for (int64_t b = 0; b < inner; ++b) d[b] += s[b];
    else
      for (int64_t b = 0; b < inner; ++b) d[b] += alpha * s[b];
  }
  return k;
}

TESSEL_ISA_CLONES int64_t scatterAddRowsF32(float* dst, int64_t dstRow, const float* src,
                                            int64_t srcRow, const int32_t* idx,
                                            int64_t idxRow, int64_t rows, int64_t len,
                                            int64_t size) {
  const int64_t bytes = len * int64_t(sizeof(float));
  const bool prefetch = bytes <= kMaxPrefetchBytes;
  if (len == 0) return rows;
  // Every non-negative i32 is below a size past 2^31.
  const uint32_t limit = size > INT32_MAX ? uint32_t(INT32_MAX) + 1 : uint32_t(size);
  for (int64_t r = 0; r < rows; ++r) {
    const int32_t* __restrict iv = idx + r * idxRow;
    const float* __restrict s = src + r * srcRow;
    if (prefetch) {
      if (r + kTargetAhead < rows) {
        // The first index stands for the row: exact for PyG's expanded index.
        const int64_t j = idx[(r + kTargetAhead) * idxRow];
        if (j >= 0 && j < size) prefetchRow(dst + j * dstRow, bytes, true);
      }
      if (r + kSourceAhead < rows) {
        prefetchRow(src + (r + kSourceAhead) * srcRow, bytes, false);
        prefetchRow(idx + (r + kSourceAhead) * idxRow, bytes, false);
      }
    }
    // Note [Uniform index rows] (scatter.cpp), fused with the range check: one pass over the
    // indices answers both questions, in integer ors so that it vectorizes
    // (an index read as unsigned is in range exactly when it is below the size).
    const int32_t first = iv[0];
    uint32_t differs = 0, outside = 0;
    for (int64_t c = 0; c < len; ++c) {
      differs |= uint32_t(iv[c] ^ first);
      outside |= uint32_t(uint32_t(iv[c]) >= limit);
    }
    if (outside) return r;
    const bool same = differs == 0;
    if (same) {
      float* __restrict d = dst + int64_t(first) * dstRow;
      for (int64_t c = 0; c < len; ++c) d[c] += s[c];
    } else {
      for (int64_t c = 0; c < len; ++c) dst[int64_t(iv[c]) * dstRow + c] += s[c];
    }
  }
  return rows;
}

}  // namespace tessel::backends::cpu
