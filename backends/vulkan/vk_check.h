// VkResult checking and RAII wrappers for Vulkan handles. Internal to backends/vulkan.
#pragma once

#include <vulkan/vulkan.h>

#include <string_view>
#include <utility>

namespace tessel::backends::vulkan {

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on.
const char* resultName(VkResult result);

/// Throws a DeviceError "vulkan: <context>: <result>" unless `result` is VK_SUCCESS. Every
/// Vulkan call that returns a VkResult goes through this, so failures always say what failed.
void check(VkResult result, std::string_view context);

/// Owns one handle created from a VkDevice; destroyed with `Destroy` when the owner goes.
/// Move-only, like vk::raii handles.
template <class T, void (*Destroy)(VkDevice, T, const VkAllocationCallbacks*)>
class DeviceHandle {
 public:
  DeviceHandle() = default;
  DeviceHandle(VkDevice device, T handle) : device_(device), handle_(handle) {}
  DeviceHandle(DeviceHandle&& o) noexcept
      : device_(o.device_), handle_(std::exchange(o.handle_, VK_NULL_HANDLE)) {}
  DeviceHandle& operator=(DeviceHandle&& o) noexcept {
    if (this != &o) {
      reset();
      device_ = o.device_;
      handle_ = std::exchange(o.handle_, VK_NULL_HANDLE);
    }
    return *this;
  }
  DeviceHandle(const DeviceHandle&) = delete;
  DeviceHandle& operator=(const DeviceHandle&) = delete;
  ~DeviceHandle() { reset(); }

  T get() const { return handle_; }
  explicit operator bool() const { return handle_ != VK_NULL_HANDLE; }
  void reset() {
    if (handle_ != VK_NULL_HANDLE) Destroy(device_, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  T handle_ = VK_NULL_HANDLE;
};

using UniqueBuffer = DeviceHandle<VkBuffer, vkDestroyBuffer>;
using UniqueMemory = DeviceHandle<VkDeviceMemory, vkFreeMemory>;
using UniqueShaderModule = DeviceHandle<VkShaderModule, vkDestroyShaderModule>;
using UniquePipeline = DeviceHandle<VkPipeline, vkDestroyPipeline>;
using UniquePipelineLayout = DeviceHandle<VkPipelineLayout, vkDestroyPipelineLayout>;
using UniqueSetLayout = DeviceHandle<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using UniqueCommandPool = DeviceHandle<VkCommandPool, vkDestroyCommandPool>;
using UniqueFence = DeviceHandle<VkFence, vkDestroyFence>;

}  // namespace tessel::backends::vulkan
