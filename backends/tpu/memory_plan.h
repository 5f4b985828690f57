// Static memory planning for tpu programs: buffers with known sizes and lifetimes placed in one
// arena so that buffers never live at the same time may share bytes (backends.md, "tpu").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tessel::backends::tpu {

/// One buffer to place: its size at the bounds and the steps it is live in (inclusive).
struct BufferRequest {
  uint64_t bytes = 0;
  int first = 0;
  int last = 0;
};

/// Where each request lives in the arena, and the arena's size.
struct MemoryPlan {
  std::vector<uint64_t> offsets;  ///< per request, 64-byte aligned
  uint64_t bytes = 0;
};

/// Alignment of every planned buffer (a cache line; what Storage::allocate gives too).
inline constexpr uint64_t kPlanAlign = 64;

/// Greedy by size (largest first), each buffer at the lowest offset where it overlaps no placed
/// buffer whose lifetime meets its own: the "greedy by size" planner of TFLite's arena, which
/// is within a few percent of optimal on neural-network graphs. Deterministic.
MemoryPlan planMemory(std::span<const BufferRequest> requests);

/// The largest total of bytes live at one step (a lower bound for any plan's arena).
uint64_t peakLiveBytes(std::span<const BufferRequest> requests);

}  // namespace tessel::backends::tpu
