// Command recording, barriers and submission (Note [Eager batching]).
#include "backends/vulkan/stream.h"

#include <algorithm>

#include "backends/vulkan/context.h"
#include "backends/vulkan/counters.h"
#include "backends/vulkan/kernels.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {
constexpr uint32_t kMaxBatch = 512;
constexpr uint64_t kMaxGroupsX = 65535;
}  // namespace

CommandStream::CommandStream(const VulkanContext& ctx, VkPipelineLayout layout)
    : ctx_(ctx), layout_(layout) {
  VkDevice dev = ctx.device();
  VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = ctx.queueFamily();
  VkCommandPool pool;
  check(vkCreateCommandPool(dev, &pi, nullptr, &pool), "vkCreateCommandPool");
  pool_ = UniqueCommandPool(dev, pool);
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  check(vkAllocateCommandBuffers(dev, &ai, &cmd_), "vkAllocateCommandBuffers");
  VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  check(vkCreateFence(dev, &fi, nullptr, &fence), "vkCreateFence");
  fence_ = UniqueFence(dev, fence);
}

CommandStream::~CommandStream() {
  try {
    flush();
  } catch (...) {
    // Destructors must not throw; the device is going away anyway.
  }
}

void CommandStream::begin() {
  if (recording_) return;
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cmd_, &bi), "vkBeginCommandBuffer");
  recording_ = true;
  bound_ = VK_NULL_HANDLE;
}

void CommandStream::barrier() {
  sinceBarrier_.clear();
  if (recorded_ == 0) return;
  counters().barriers.fetch_add(1);
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  const VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  vkCmdPipelineBarrier(cmd_, stages, stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

void CommandStream::hazard(std::span<const Access> accesses) {
  // Past this many ranges the scan costs more than a barrier on any device.
  constexpr size_t kMaxTracked = 64;
  bool conflict = sinceBarrier_.size() + accesses.size() > kMaxTracked;
  for (size_t i = 0; i < accesses.size() && !conflict; ++i) {
    const Access& a = accesses[i];
    for (const Access& p : sinceBarrier_)
      if (p.buffer == a.buffer && p.lo < a.hi && a.lo < p.hi && (p.write || a.write)) {
        conflict = true;
        break;
      }
  }
  if (conflict) barrier();
  sinceBarrier_.insert(sinceBarrier_.end(), accesses.begin(), accesses.end());
}

void CommandStream::dispatch(VkPipeline pipeline, std::span<const BufferArg> buffers,
                             const void* push, uint32_t pushBytes, uint64_t groups,
                             uint32_t writeSlots, std::span<const Access> accesses) {
  TESSEL_ASSERT(!buffers.empty() && buffers.size() <= kBuffersPerKernel, "1 to 4 buffers");
  TESSEL_ASSERT(pushBytes <= kPushConstantBytes, "push constants too large");
  if (groups == 0) return;
  if (recorded_ >= kMaxBatch) flush();
  begin();
  if (accesses.empty()) {
    Access slots[kBuffersPerKernel];
    for (size_t i = 0; i < buffers.size(); ++i)
      slots[i] = {buffers[i].buffer, buffers[i].offset, buffers[i].offset + buffers[i].size,
                  (writeSlots >> i & 1u) != 0};
    hazard(std::span<const Access>(slots, buffers.size()));
  } else {
    hazard(accesses);
  }
  if (pipeline != bound_) {
    vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    bound_ = pipeline;
  }
  VkDescriptorBufferInfo infos[kBuffersPerKernel];
  for (uint32_t i = 0; i < kBuffersPerKernel; ++i) {
    const BufferArg& b = i < buffers.size() ? buffers[i] : buffers[0];
    infos[i] = {b.buffer, b.offset, b.size};
  }
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstBinding = 0;
  write.descriptorCount = kBuffersPerKernel;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = infos;
  ctx_.pushDescriptorSet(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &write);
  vkCmdPushConstants(cmd_, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
  const uint64_t x = std::min(groups, kMaxGroupsX);
  const uint64_t y = (groups + x - 1) / x;
  TESSEL_ASSERT(y <= kMaxGroupsX, "grid too large");
  vkCmdDispatch(cmd_, uint32_t(x), uint32_t(y), 1);
  ++recorded_;
  counters().dispatches.fetch_add(1);
}

void CommandStream::copy(const BufferArg& src, const BufferArg& dst, VkDeviceSize bytes) {
  if (bytes == 0) return;
  if (recorded_ >= kMaxBatch) flush();
  begin();
  const Access acc[] = {{src.buffer, src.offset, src.offset + bytes, false},
                        {dst.buffer, dst.offset, dst.offset + bytes, true}};
  hazard(acc);
  VkBufferCopy region{src.offset, dst.offset, bytes};
  vkCmdCopyBuffer(cmd_, src.buffer, dst.buffer, 1, &region);
  ++recorded_;
}

void CommandStream::fill(const BufferArg& dst, uint32_t word) {
  if (recorded_ >= kMaxBatch) flush();  // a loop of fills alone keeps its dropped ranges too
  begin();
  const Access acc[] = {{dst.buffer, dst.offset, dst.offset + (dst.size + 3) / 4 * 4, true}};
  hazard(acc);
  vkCmdFillBuffer(cmd_, dst.buffer, dst.offset, (dst.size + 3) / 4 * 4, word);
  ++recorded_;
}

void CommandStream::afterFlush(std::function<void()> f) {
  if (!recording_) {
    f();
    return;
  }
  afterFlush_.push_back(std::move(f));
}

void CommandStream::flush() {
  if (!recording_) {
    alive_.clear();
    return;
  }
  // Make device writes visible to host reads of mapped memory after the fence.
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  recording_ = false;
  recorded_ = 0;
  sinceBarrier_.clear();
  check(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd_;
  VkFence fence = fence_.get();
  check(vkQueueSubmit(ctx_.queue(), 1, &si, fence), "vkQueueSubmit");
  counters().submits.fetch_add(1);
  check(vkWaitForFences(ctx_.device(), 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  check(vkResetFences(ctx_.device(), 1, &fence), "vkResetFences");
  check(vkResetCommandBuffer(cmd_, 0), "vkResetCommandBuffer");
  alive_.clear();
  std::vector<std::function<void()>> after;
  after.swap(afterFlush_);
  for (auto& f : after) f();
}

}  // namespace tessel::backends::vulkan
