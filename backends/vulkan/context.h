// VulkanContext: instance, validation messenger, the chosen physical device, the logical device
// and its compute queue. Internal to backends/vulkan.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/vulkan/vulkan.h"

namespace tessel::backends::vulkan {

/// Owns the instance and device; destroyed last (after every buffer, pipeline and pool).
class VulkanContext {
 public:
  /// Picks device TESSEL_VULKAN_DEVICE (an index into availableVulkanDevices()), else the first
  /// discrete GPU, else the first device (lavapipe on a machine without a GPU). Validation
  /// layers are enabled when TESSEL_VULKAN_VALIDATE=1. DeviceError when no device can be made.
  static std::unique_ptr<VulkanContext> create();
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  VkDevice device() const { return device_; }
  VkPhysicalDevice physicalDevice() const { return physical_; }
  VkQueue queue() const { return queue_; }
  uint32_t queueFamily() const { return queueFamily_; }
  const VkPhysicalDeviceProperties& properties() const { return props_; }
  const VkPhysicalDeviceMemoryProperties& memoryProperties() const { return memProps_; }
  bool validationEnabled() const { return validation_; }
  const std::string& name() const { return name_; }
  /// vkCmdPushDescriptorSetKHR, loaded from the device.
  PFN_vkCmdPushDescriptorSetKHR pushDescriptorSet = nullptr;

 private:
  VulkanContext() = default;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queueFamily_ = 0;
  VkPhysicalDeviceProperties props_{};
  VkPhysicalDeviceMemoryProperties memProps_{};
  bool validation_ = false;
  std::string name_;
};

}  // namespace tessel::backends::vulkan
