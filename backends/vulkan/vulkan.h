// The vulkan backend's public entry points (backends.md, "vulkan"): registration, device list,
// host <-> device copies and counters for tests and stats(). Vulkan headers stay out of here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/tensor.h"

namespace tessel::backends::vulkan {

/// One Vulkan physical device, as `devices()` lists it.
struct VulkanDeviceInfo {
  int index;          ///< what TESSEL_VULKAN_DEVICE selects
  std::string name;   ///< e.g. "llvmpipe (LLVM 15.0.7, 256 bits)"
  std::string type;   ///< "discrete", "integrated", "virtual", "cpu" or "other"
};

/// Every Vulkan device of this machine; empty when there is no loader, driver or device.
std::vector<VulkanDeviceInfo> availableVulkanDevices();

/// Creates the device (see availableVulkanDevices) and registers the backend for
/// Device::Vulkan. Returns false, registering nothing, when no Vulkan device can be used.
/// Safe to call more than once.
bool registerVulkanBackend();

/// Copies a tensor to the Vulkan device (a contiguous device tensor) or back to the host
/// (a contiguous cpu tensor). A tensor already on the target device is returned as is.
/// DeviceError when the backend is not registered or device memory runs out.
Tensor toVulkan(const Tensor& t);
Tensor toCpu(const Tensor& t);
/// (backends::toDevice, which `x.to("vulkan")` calls, reaches these through
/// VulkanBackend::fromHost/toHost once the backend is registered.)

/// Waits for all recorded device work (eager ops are batched until the host needs a value).
void synchronize();

/// Counters for tests, benchmarks and stats().
struct VulkanStats {
  uint64_t pipelinesCreated = 0;    ///< compute pipelines built since start (never per size)
  uint64_t dispatches = 0;          ///< kernels recorded
  uint64_t submits = 0;             ///< command buffers submitted
  uint64_t barriers = 0;            ///< barriers between recorded commands (Note [Barrier elision])
  uint64_t validationMessages = 0;  ///< validation warnings + errors seen by the messenger
  bool validationEnabled = false;   ///< the validation layer is on (TESSEL_VULKAN_VALIDATE=1)
  uint64_t bytesInUse = 0;          ///< device bytes held by live tensors
  uint64_t bytesReserved = 0;       ///< device bytes allocated from the driver by the pool
  std::string deviceName;
};
VulkanStats vulkanStats();

}  // namespace tessel::backends::vulkan
