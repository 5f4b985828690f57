// The pooled sub-allocator (Note [Device memory pool]).
#include "backends/vulkan/memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backends/vulkan/context.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

constexpr VkDeviceSize kBlockSize = VkDeviceSize{64} << 20;
constexpr VkDeviceSize kKeepEmpty = VkDeviceSize{1} << 30;  // empty blocks kept for reuse

VkDeviceSize roundUp(VkDeviceSize v, VkDeviceSize unit) { return (v + unit - 1) / unit * unit; }

std::string mib(uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%llu bytes (%.1f MiB)", (unsigned long long)bytes,
                double(bytes) / (1 << 20));
  return buf;
}

int findType(const VkPhysicalDeviceMemoryProperties& mp, VkMemoryPropertyFlags want) {
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((mp.memoryTypes[i].propertyFlags & want) == want) return int(i);
  return -1;
}

}  // namespace

MemoryPool::MemoryPool(const VulkanContext& ctx, Kind kind) : ctx_(ctx), kind_(kind) {
  const auto& mp = ctx.memoryProperties();
  const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  const VkMemoryPropertyFlags host =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const char* force = std::getenv("TESSEL_VULKAN_FORCE_STAGING");
  const bool forceStaging = force && std::strcmp(force, "1") == 0;
  int type = -1;
  if (kind == Kind::Staging) {
    type = findType(mp, host);
    mappable_ = true;
  } else {
    if (!forceStaging) type = findType(mp, local | host);
    mappable_ = type >= 0;
    if (type < 0) type = findType(mp, local);
    if (type < 0) type = 0;
  }
  if (type < 0) throwUserError(ErrorKind::DeviceError, "vulkan: no host-visible memory type");
  memoryType_ = uint32_t(type);
  heapSize_ = mp.memoryHeaps[mp.memoryTypes[type].heapIndex].size;
  alignment_ = std::max<VkDeviceSize>(256, ctx.properties().limits.minStorageBufferOffsetAlignment);
}

MemoryPool::~MemoryPool() = default;

bool MemoryPool::addBlock(VkDeviceSize size) {
  auto b = std::make_unique<Block>();
  b->size = size;
  VkDevice dev = ctx_.device();
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = size;
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
             VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult r = vkCreateBuffer(dev, &bi, nullptr, &buffer);
  if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) return false;
  check(r, "vkCreateBuffer (pool block of " + mib(size) + ")");
  b->buffer = UniqueBuffer(dev, buffer);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, buffer, &req);
  TESSEL_ASSERT(req.memoryTypeBits & (1u << memoryType_), "pool memory type unusable for buffers");
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = memoryType_;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  r = vkAllocateMemory(dev, &ai, nullptr, &memory);
  if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) return false;
  check(r, "vkAllocateMemory (" + mib(req.size) + ")");
  b->memory = UniqueMemory(dev, memory);
  check(vkBindBufferMemory(dev, buffer, memory, 0), "vkBindBufferMemory");
  if (mappable_) {
    void* p = nullptr;
    check(vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    b->mapped = static_cast<char*>(p);
  }
  b->free[0] = size;
  reserved_ += size;
  for (auto& slot : blocks_)
    if (!slot) {
      slot = std::move(b);
      return true;
    }
  blocks_.push_back(std::move(b));
  return true;
}

bool MemoryPool::tryAllocate(uint32_t index, VkDeviceSize bytes, Allocation& out) {
  Block& b = *blocks_[index];
  for (auto it = b.free.begin(); it != b.free.end(); ++it) {
    if (it->second < bytes) continue;
    const VkDeviceSize offset = it->first, rest = it->second - bytes;
    b.free.erase(it);
    if (rest) b.free[offset + bytes] = rest;
    b.used += bytes;
    out = {b.buffer.get(), offset, bytes, b.mapped ? b.mapped + offset : nullptr, index};
    return true;
  }
  return false;
}

Allocation MemoryPool::allocate(VkDeviceSize bytes) {
  const VkDeviceSize size = roundUp(std::max<VkDeviceSize>(bytes, 4), alignment_);
  const VkDeviceSize maxRange = ctx_.properties().limits.maxStorageBufferRange;
  if (kind_ == Kind::Device && size > maxRange)
    outOfMemory(bytes, ("one tensor may hold at most " + mib(maxRange) +
                        " on this device (maxStorageBufferRange)").c_str());
  if (size > heapSize_) outOfMemory(bytes, "larger than the device heap");
  Allocation a;
  for (uint32_t i = 0; i < blocks_.size(); ++i)
    if (blocks_[i] && blocks_[i]->size - blocks_[i]->used >= size && tryAllocate(i, size, a)) {
      inUse_ += size;
      return a;
    }
  const VkDeviceSize blockSize = size > kBlockSize ? roundUp(size, VkDeviceSize{1} << 16) : kBlockSize;
  if (!addBlock(blockSize)) {
    releaseEmptyBlocks();
    if (!addBlock(blockSize)) outOfMemory(bytes, "the driver has no memory left");
  }
  for (uint32_t i = 0; i < blocks_.size(); ++i)
    if (blocks_[i] && blocks_[i]->used == 0 && tryAllocate(i, size, a)) {
      inUse_ += size;
      return a;
    }
  TESSEL_ASSERT(false, "fresh pool block cannot hold the allocation");
  return a;
}

void MemoryPool::release(const Allocation& a) {
  Block& b = *blocks_[a.block];
  b.used -= a.size;
  inUse_ -= a.size;
  auto [it, inserted] = b.free.emplace(a.offset, a.size);
  TESSEL_ASSERT(inserted, "double release of a device allocation");
  auto next = std::next(it);
  if (next != b.free.end() && it->first + it->second == next->first) {
    it->second += next->second;
    b.free.erase(next);
  }
  if (it != b.free.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second == it->first) {
      prev->second += it->second;
      b.free.erase(it);
    }
  }
  // Keep a bounded amount of empty memory for reuse (tensors of one size come and go).
  if (b.used == 0) {
    VkDeviceSize empty = 0;
    for (auto& blk : blocks_)
      if (blk && blk->used == 0) empty += blk->size;
    if (empty > kKeepEmpty) {
      reserved_ -= b.size;
      blocks_[a.block].reset();
    }
  }
}

void MemoryPool::releaseEmptyBlocks() {
  for (auto& b : blocks_)
    if (b && b->used == 0) {
      reserved_ -= b->size;
      b.reset();
    }
}

void MemoryPool::outOfMemory(VkDeviceSize bytes, const char* why) const {
  throwUserError(ErrorKind::DeviceError,
                 std::string("vulkan: out of device memory: cannot allocate ") + mib(bytes) +
                     " (" + why + "); tensors hold " + mib(inUse_) + ", the pool has reserved " +
                     mib(reserved_) + " of a " + mib(heapSize_) + " heap");
}

}  // namespace tessel::backends::vulkan
