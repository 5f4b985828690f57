// The greedy-by-size arena planner.
#include "backends/tpu/memory_plan.h"

#include <algorithm>
#include <numeric>

namespace tessel::backends::tpu {

namespace {

uint64_t aligned(uint64_t bytes) {
  return (bytes + kPlanAlign - 1) / kPlanAlign * kPlanAlign;
}

bool overlap(const BufferRequest& a, const BufferRequest& b) {
  return a.first <= b.last && b.first <= a.last;
}

}  // namespace

MemoryPlan planMemory(std::span<const BufferRequest> requests) {
  const size_t n = requests.size();
  MemoryPlan plan;
  plan.offsets.assign(n, 0);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return requests[a].bytes > requests[b].bytes;
  });
  std::vector<size_t> placed;  // indices, kept sorted by offset
  for (size_t i : order) {
    const BufferRequest& r = requests[i];
    const uint64_t size = aligned(r.bytes);
    uint64_t offset = 0;
    // Walk the placed buffers that live at the same time, in offset order, and take the first
    // gap that fits.
    for (size_t j : placed) {
      if (!overlap(r, requests[j])) continue;
      const uint64_t start = plan.offsets[j], end = start + aligned(requests[j].bytes);
      if (offset + size <= start) break;
      offset = std::max(offset, end);
    }
    plan.offsets[i] = offset;
    plan.bytes = std::max(plan.bytes, offset + size);
    auto at = std::upper_bound(placed.begin(), placed.end(), offset,
                               [&](uint64_t off, size_t j) { return off < plan.offsets[j]; });
    placed.insert(at, i);
  }
  return plan;
}

uint64_t peakLiveBytes(std::span<const BufferRequest> requests) {
  int steps = 0;
  for (const BufferRequest& r : requests) steps = std::max(steps, r.last + 1);
  std::vector<uint64_t> live(static_cast<size_t>(steps) + 1, 0);
  for (const BufferRequest& r : requests)
    for (int t = r.first; t <= r.last; ++t) live[static_cast<size_t>(t)] += aligned(r.bytes);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

}  // namespace tessel::backends::tpu
