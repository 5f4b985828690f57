// Process-wide counters of the vulkan backend (VulkanStats reads them). Internal.
#pragma once

#include <atomic>
#include <cstdint>

namespace tessel::backends::vulkan {

struct Counters {
  std::atomic<uint64_t> pipelinesCreated{0};
  std::atomic<uint64_t> dispatches{0};
  std::atomic<uint64_t> submits{0};
  std::atomic<uint64_t> barriers{0};  ///< pipeline barriers between recorded commands
  std::atomic<uint64_t> validationMessages{0};
};

inline Counters& counters() {
  static Counters c;
  return c;
}

}  // namespace tessel::backends::vulkan
