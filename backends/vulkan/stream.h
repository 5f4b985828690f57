// CommandStream: records eager ops into one command buffer and submits it when the host needs
// a value (backends.md: "data crosses to the host only on .to(cpu), print, .item()").
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "backends/vulkan/vk_check.h"

namespace tessel::backends::vulkan {

class VulkanContext;

/// A storage-buffer range bound to one of a kernel's four slots.
struct BufferArg {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
};

/// A range of a buffer that one recorded command reads or writes (Note [Barrier elision]).
struct Access {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize lo = 0, hi = 0;
  bool write = false;
};

/// writeSlots for dispatch(): every bound slot may be written (the safe default).
constexpr uint32_t kAllSlotsWritten = 0xF;

// Note [Eager batching]
// Eager ops do not wait for the device: each records one dispatch into the open command
// buffer (with a barrier before it only when needed: Note [Barrier elision]), and the objects it reads and writes are kept alive by the
// stream until the buffer has executed, so a tensor dropped by the program is never freed
// while a kernel may still touch it. flush() submits and waits; it runs when the host reads
// data, when a data-dependent op needs a count, and every kMaxBatch dispatches. keepAlive alone
// is not enough: a flush between an op's bufferOf() and its dispatch (the batch limit, a count
// read back) ends the keepAlive of the storage it bound, and a temporary the op then drops
// would return its range to the pool while the recorded dispatch still reads it (the next op,
// or a host write into the fresh mapped range, would change it first). So a device range freed
// while work is pending goes back to the pool only after the flush (afterFlush).
// Note [Barrier elision]
// A barrier goes before a command only when it touches a range that a command since the last
// barrier wrote (read after write, write after write) or writes a range one read (write after
// read); commands on disjoint ranges, or that only read the same range, share none. The ranges
// are the bound descriptor ranges (or the exact ones the caller passes), so the check is
// conservative. Storage stays alive until the batch has run (keepAlive), so a freed range
// is not reused within a batch anyway. counters().barriers counts the barriers emitted.
class CommandStream {
 public:
  CommandStream(const VulkanContext& ctx, VkPipelineLayout layout);
  ~CommandStream();
  CommandStream(const CommandStream&) = delete;
  CommandStream& operator=(const CommandStream&) = delete;

  /// Records `pipeline` over `groups` workgroups (split into x and y at 65535; shaders use
  /// linearGroup()). `buffers` has 1 to 4 entries; unused slots repeat the first. The kernel
  /// writes the bound ranges of the slots in `writeSlots` (bit i: slot i) and only reads the
  /// others; `accesses`, when given, replaces the slot ranges with the exact ranges it
  /// touches (a binding may span several tensors). Note [Barrier elision].
  void dispatch(VkPipeline pipeline, std::span<const BufferArg> buffers, const void* push,
                uint32_t pushBytes, uint64_t groups, uint32_t writeSlots = kAllSlotsWritten,
                std::span<const Access> accesses = {});
  void copy(const BufferArg& src, const BufferArg& dst, VkDeviceSize bytes);
  void fill(const BufferArg& dst, uint32_t word);
  /// Keeps `object` alive until the recorded work has run.
  void keepAlive(std::shared_ptr<const void> object) { alive_.push_back(std::move(object)); }
  /// Runs `f` once the recorded work has run (at once when nothing is pending): device ranges
  /// freed while commands that may touch them are pending go back to their pool here (Note
  /// [Eager batching]).
  void afterFlush(std::function<void()> f);
  /// Submits what was recorded and waits for it. A no-op when nothing is pending.
  void flush();
  bool pending() const { return recorded_ > 0; }

 private:
  void begin();
  void barrier();
  /// Emits a barrier when `accesses` conflict with those since the last one (RAW, WAR, WAW),
  /// then records them.
  void hazard(std::span<const Access> accesses);

  const VulkanContext& ctx_;
  VkPipelineLayout layout_;
  UniqueCommandPool pool_;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  UniqueFence fence_;
  bool recording_ = false;
  uint32_t recorded_ = 0;
  VkPipeline bound_ = VK_NULL_HANDLE;
  std::vector<std::shared_ptr<const void>> alive_;
  std::vector<std::function<void()>> afterFlush_;
  std::vector<Access> sinceBarrier_;  ///< ranges touched since the last barrier
};

}  // namespace tessel::backends::vulkan
