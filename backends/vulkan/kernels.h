// Kernels: the compute pipelines, one per shader (and specialization variant), built on first
// use and never per size (backends.md: "a shape change never compiles a shader").
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "backends/vulkan/vk_check.h"

namespace tessel::backends::vulkan {

class VulkanContext;

/// Every kernel has the same interface: four storage buffers (set 0, binding 0, an array of
/// 4, pushed with VK_KHR_push_descriptor) and up to kPushConstantBytes of push constants.
constexpr uint32_t kPushConstantBytes = 128;
constexpr uint32_t kBuffersPerKernel = 4;

class Kernels {
 public:
  explicit Kernels(const VulkanContext& ctx);
  Kernels(const Kernels&) = delete;
  Kernels& operator=(const Kernels&) = delete;

  /// The pipeline of shaders/<name>.comp with specialization constant 0 set to `variant`.
  VkPipeline get(std::string_view name, uint32_t variant = 0);
  VkPipelineLayout layout() const { return layout_.get(); }

 private:
  VkPipeline create(std::string_view name, uint32_t variant);

  const VulkanContext& ctx_;
  UniqueSetLayout setLayout_;
  UniquePipelineLayout layout_;
  std::map<std::pair<std::string, uint32_t>, UniquePipeline, std::less<>> pipelines_;
};

}  // namespace tessel::backends::vulkan
