// Device names.
#include "backends/device.h"

namespace tessel::backends {

std::string_view deviceName(Device device) {
  switch (device) {
    case Device::Cpu:
      return "cpu";
    case Device::Vulkan:
      return "vulkan";
    case Device::Tpu:
      return "tpu";
  }
  return "?";
}

std::optional<Device> deviceFromName(std::string_view name) {
  for (Device d : {Device::Cpu, Device::Vulkan, Device::Tpu})
    if (deviceName(d) == name) return d;
  return std::nullopt;
}

}  // namespace tessel::backends
