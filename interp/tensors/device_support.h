// Devices as the interpreter sees them (backends.md): the default device, lazily starting the
// Vulkan backend the first time a program asks for it, and host copies for printing.
#pragma once

#include <optional>

#include "backends/device.h"
#include "backends/tensor.h"
#include "interp/values/value.h"

namespace tessel::interp {

/// Where creation ops put their results: the running interpreter's device option, else
/// TESSEL_DEVICE, else cpu.
backends::Device defaultDevice();
/// Sets the device option of the interpreter running on this thread (Interpreter::Entry);
/// returns the previous one.
std::optional<backends::Device> setThreadDefaultDevice(std::optional<backends::Device> device);
/// Makes sure `device` has a registered backend (starting Vulkan on first use); DeviceError
/// when this machine has none.
void ensureDevice(backends::Device device);
/// `t` itself on cpu; otherwise a host copy (the only way data crosses to the host).
backends::Tensor hostTensor(const backends::Tensor& t);
/// `t` on `device` (no copy when it is already there).
backends::Tensor onDevice(const backends::Tensor& t, backends::Device device);
/// devices(): what this machine offers, as dicts with the device, an index and a name.
Value listDevices();

}  // namespace tessel::interp
