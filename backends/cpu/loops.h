// Strided N-d loops for cpu kernels: dims are coalesced, then a kernel sees one row at a time.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "backends/tensor.h"

namespace tessel::backends::cpu {

// Note [Row loops]
// Elementwise kernels see their operands as rows: `row(ptrs, n, strides)` gets one pointer per
// operand, the row length and each operand's stride within the row (in bytes). Before
// looping, dims that are size 1 are dropped and neighbouring dims that are contiguous with each
// other in every operand are merged, so a contiguous (or scalar-broadcast) operation is a single
// long row and the kernel's fast path is a plain vectorizable loop. Broadcasting needs nothing
// special: a broadcast operand has stride 0.

/// Loop nest over `N` operands with per-operand byte strides.
template <size_t N>
struct RowPlan {
  Dims shape;                   // outer..inner after coalescing (may be empty: one element)
  std::array<Dims, N> strides;  // bytes
};

/// Builds a plan over `shape`, where strides[k] (in elements) and elemSize[k] describe operand k.
template <size_t N>
RowPlan<N> makeRowPlan(std::span<const int64_t> shape, const std::array<const Dims*, N>& strides,
                       const std::array<int64_t, N>& elemSize) {
  RowPlan<N> plan;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    std::array<int64_t, N> s;
    for (size_t k = 0; k < N; ++k) s[k] = (*strides[k])[d] * elemSize[k];
    if (!plan.shape.empty()) {
      bool merge = true;
      int64_t inner = plan.shape.back();
      for (size_t k = 0; k < N; ++k) merge = merge && plan.strides[k].back() == s[k] * shape[d];
      if (merge) {
        plan.shape.back() = inner * shape[d];
        for (size_t k = 0; k < N; ++k) plan.strides[k].back() = s[k];
        continue;
      }
    }
    plan.shape.push_back(shape[d]);
    for (size_t k = 0; k < N; ++k) plan.strides[k].push_back(s[k]);
  }
  return plan;
}

/// Calls row(ptrs, n, innerStrides) for every innermost row of the plan.
template <size_t N, class Row>
void forEachRow(const RowPlan<N>& plan, std::array<char*, N> base, Row&& row) {
  const int64_t nd = static_cast<int64_t>(plan.shape.size());
  if (nd == 0) {
    std::array<int64_t, N> zero{};
    row(base, int64_t{1}, zero);
    return;
  }
  for (int64_t s : plan.shape)
    if (s == 0) return;
  std::array<int64_t, N> inner;
  for (size_t k = 0; k < N; ++k) inner[k] = plan.strides[k][nd - 1];
  const int64_t n = plan.shape[nd - 1];
  if (nd == 1) {
    row(base, n, inner);
    return;
  }
  Dims index(nd - 1, 0);
  std::array<char*, N> p = base;
  while (true) {
    row(p, n, inner);
    int64_t d = nd - 2;
    for (; d >= 0; --d) {
      if (++index[d] < plan.shape[d]) {
        for (size_t k = 0; k < N; ++k) p[k] += plan.strides[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) p[k] -= plan.strides[k][d] * (plan.shape[d] - 1);
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

/// Strides (in elements) of `t` seen with the broadcast shape `shape`: stride 0 on new
/// leading dims and on size-1 dims that broadcast.
Dims broadcastStrides(const Tensor& t, std::span<const int64_t> shape);

/// Copies `src` (any strides) into contiguous memory at `dst` of the same dtype.
void copyToContiguous(const Tensor& src, void* dst);
/// Copies `src` into the elements `dst` views (same shape and dtype, any strides). Only for
/// filling freshly allocated outputs: tensors are immutable once returned.
void copyInto(const Tensor& dst, const Tensor& src);

}  // namespace tessel::backends::cpu
