// MemoryPool: sub-allocates tensors from large device allocations (backends.md: "Memory comes
// from a pooled allocator; running out is a DeviceError with the sizes involved").
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "backends/vulkan/vk_check.h"

namespace tessel::backends::vulkan {

class VulkanContext;

/// A range of one block's buffer. Bound to kernels as (buffer, offset, size).
struct Allocation {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
  char* mapped = nullptr;  ///< host address of `offset`, when the pool's memory is mappable
  uint32_t block = 0;
};

// Note [Device memory pool]
// vkAllocateMemory is slow and drivers cap the number of allocations, so tensors are ranges
// of blocks (64 MiB, or one dedicated block for a larger tensor), each block a VkDeviceMemory
// with one VkBuffer over all of it. Free ranges are kept per block by offset and merged with
// their neighbours on release (first fit). Empty blocks are kept for reuse and given back to
// the driver when an allocation fails, before the failure becomes a DeviceError.
class MemoryPool {
 public:
  enum class Kind { Device, Staging };
  /// Device: device-local memory (mapped too when it is also host visible, as on lavapipe and
  /// UMA GPUs, unless TESSEL_VULKAN_FORCE_STAGING=1). Staging: host-visible coherent memory.
  MemoryPool(const VulkanContext& ctx, Kind kind);
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  /// A range of at least `bytes` bytes (at least one word). DeviceError naming the requested,
  /// used and available sizes when device memory runs out; the pool stays usable.
  Allocation allocate(VkDeviceSize bytes);
  void release(const Allocation& a);
  bool mappable() const { return mappable_; }
  uint64_t bytesInUse() const { return inUse_; }
  uint64_t bytesReserved() const { return reserved_; }

 private:
  struct Block {
    UniqueMemory memory;
    UniqueBuffer buffer;
    VkDeviceSize size = 0;
    VkDeviceSize used = 0;
    char* mapped = nullptr;
    std::map<VkDeviceSize, VkDeviceSize> free;  // offset -> size
  };
  bool tryAllocate(uint32_t index, VkDeviceSize bytes, Allocation& out);
  bool addBlock(VkDeviceSize size);  // false when the driver is out of memory
  void releaseEmptyBlocks();
  [[noreturn]] void outOfMemory(VkDeviceSize bytes, const char* why) const;

  const VulkanContext& ctx_;
  Kind kind_;
  uint32_t memoryType_ = 0;
  VkDeviceSize heapSize_ = 0;
  VkDeviceSize alignment_ = 256;
  bool mappable_ = false;
  std::vector<std::unique_ptr<Block>> blocks_;  // a released block leaves a null slot
  uint64_t inUse_ = 0;
  uint64_t reserved_ = 0;
};

}  // namespace tessel::backends::vulkan
