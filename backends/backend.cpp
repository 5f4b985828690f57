// The device -> backend registry; the cpu backend is always present.
#include "backends/backend.h"

#include <array>
#include <string>

#include "backends/cpu/cpu_backend.h"
#include "shapes/user_error.h"

namespace tessel::backends {

namespace {
std::array<Backend*, 3>& registry() {
  static cpu::CpuBackend cpuBackend;
  static std::array<Backend*, 3> r = {&cpuBackend, nullptr, nullptr};
  return r;
}
}  // namespace

Backend& backendFor(Device device) {
  Backend* b = registry()[static_cast<size_t>(device)];
  if (!b)
    throwUserError(ErrorKind::DeviceError, "device '" + std::string(deviceName(device)) +
                                               "' is not available in this build");
  return *b;
}

std::vector<Device> availableDevices() {
  std::vector<Device> out;
  for (Device d : {Device::Cpu, Device::Vulkan, Device::Tpu})
    if (registry()[static_cast<size_t>(d)]) out.push_back(d);
  return out;
}

Tensor toDevice(const Tensor& t, Device device) {
  if (t.device() == device) return t;
  Tensor host = t.device() == Device::Cpu ? t : backendFor(t.device()).toHost(t);
  return device == Device::Cpu ? host : backendFor(device).fromHost(host);
}

void registerBackend(Device device, Backend* backend) {
  registry()[static_cast<size_t>(device)] = backend;
}

}  // namespace tessel::backends
