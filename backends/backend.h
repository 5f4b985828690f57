// Backend: runs ops on one device. The cpu backend is the reference (backends.md).
#pragma once

#include <span>
#include <vector>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"

namespace tessel::backends {

/// One device's eager kernels. run() validates its inputs with the op's shape rule
/// (shapes::inferShape, the one rule per op) and returns the op's outputs.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual Device device() const = 0;
  virtual std::vector<Tensor> run(shapes::OpKind op, std::span<const Tensor> inputs,
                                  const shapes::OpAttrs& attrs) = 0;
  /// `src` (on this backend's device) copied to a cpu tensor.
  virtual Tensor toHost(const Tensor& src) = 0;
  /// A cpu tensor copied to this backend's device.
  virtual Tensor fromHost(const Tensor& host) = 0;
};

/// The backend for `device`; DeviceError when this build has none for it.
Backend& backendFor(Device device);
/// The devices that have a backend in this process (cpu first).
std::vector<Device> availableDevices();
/// `t` on `device` (how `x.to("vulkan")` moves data): t itself when it is already there, else
/// a copy through host memory (DeviceError when either device has no backend).
Tensor toDevice(const Tensor& t, Device device);
/// Installs the backend for a device (vulkan/ and tpu/ call this); the caller keeps ownership.
void registerBackend(Device device, Backend* backend);

}  // namespace tessel::backends
