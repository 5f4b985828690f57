// VulkanBackend: the Backend for Device::Vulkan (backends/backend.h). Internal; the public
// entry points are in vulkan.h.
#pragma once

#include "backends/backend.h"

namespace tessel::backends::vulkan {

class VulkanBackend final : public Backend {
 public:
  Device device() const override { return Device::Vulkan; }
  /// Validates with the op's shape rule, then records the op's kernels (Note [Eager batching]).
  std::vector<Tensor> run(shapes::OpKind op, std::span<const Tensor> inputs,
                          const shapes::OpAttrs& attrs) override;
  Tensor toHost(const Tensor& src) override;
  Tensor fromHost(const Tensor& host) override;
};

}  // namespace tessel::backends::vulkan
