// The cpu backend: eager kernels on the host.
#pragma once

#include "backends/backend.h"

namespace tessel::backends::cpu {

class CpuBackend final : public Backend {
 public:
  Device device() const override { return Device::Cpu; }
  std::vector<Tensor> run(shapes::OpKind op, std::span<const Tensor> inputs,
                          const shapes::OpAttrs& attrs) override;
  /// The cpu device is the host: both are the identity (tensors are immutable).
  Tensor toHost(const Tensor& src) override { return src; }
  Tensor fromHost(const Tensor& host) override { return host; }
};

}  // namespace tessel::backends::cpu
