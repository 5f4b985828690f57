// Default device, lazy Vulkan start-up, host copies, devices().
#include "interp/tensors/device_support.h"

#include <cstdlib>
#include <fstream>

#include "backends/backend.h"
#include "backends/tpu/tpu.h"
#include "backends/vulkan/vulkan.h"
#include "interp/values/objects.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {
thread_local std::optional<backends::Device> tDefaultDevice;
}  // namespace

std::optional<backends::Device> setThreadDefaultDevice(std::optional<backends::Device> device) {
  std::optional<backends::Device> previous = tDefaultDevice;
  tDefaultDevice = device;
  return previous;
}

backends::Device defaultDevice() {
  if (tDefaultDevice) return *tDefaultDevice;
  static const backends::Device device = [] {
    const char* env = std::getenv("TESSEL_DEVICE");
    if (!env || !*env) return backends::Device::Cpu;
    auto d = backends::deviceFromName(env);
    // A bad TESSEL_DEVICE must not be silently ignored; cpu keeps the program runnable and
    // the first device query reports the problem.
    return d.value_or(backends::Device::Cpu);
  }();
  return device;
}

void ensureDevice(backends::Device device) {
  switch (device) {
    case backends::Device::Cpu:
      return;
    case backends::Device::Vulkan: {
      // Starting Vulkan costs tens of milliseconds, so programs that never ask pay nothing.
      static const bool available = backends::vulkan::registerVulkanBackend();
      if (!available)
        throwUserError(ErrorKind::DeviceError,
                       "no Vulkan device on this machine (a GPU driver, or Mesa's lavapipe from "
                       "mesa-vulkan-drivers, is needed)");
      return;
    }
    case backends::Device::Tpu: {
      static const bool registered = (backends::tpu::registerTpuBackend(), true);
      (void)registered;
      return;
    }
  }
}

backends::Tensor hostTensor(const backends::Tensor& t) {
  if (t.device() == backends::Device::Cpu) return t;
  return backends::toDevice(t, backends::Device::Cpu);
}

backends::Tensor onDevice(const backends::Tensor& t, backends::Device device) {
  if (t.device() == device) return t;
  ensureDevice(device);
  return backends::toDevice(t, device);
}

namespace {

std::string cpuName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "host cpu";
}

Value deviceDict(const char* device, int64_t index, const std::string& name,
                 const std::string& type) {
  Ref<DictObj> d = make<DictObj>();
  d->set("device", makeStr(device));
  d->set("index", Value::integer(index));
  d->set("name", makeStr(name));
  d->set("type", makeStr(type));
  return d.value();
}

}  // namespace

Value listDevices() {
  std::vector<Value> out;
  out.push_back(deviceDict("cpu", 0, cpuName(), "cpu"));
  for (const auto& info : backends::vulkan::availableVulkanDevices())
    out.push_back(deviceDict("vulkan", info.index, info.name, info.type));
  // The tpu is modelled on the host (static memory, bounded shapes), so it is always there.
  out.push_back(deviceDict("tpu", 0, "host-modelled tpu (static memory, bounded dynamic shapes)",
                           "tpu"));
  return makeList(std::move(out));
}

}  // namespace tessel::interp
