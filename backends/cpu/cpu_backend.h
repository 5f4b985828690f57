// The cpu backend: eager kernels on the host.
#pragma once

#include "backends/backend.h"

namespace tessel::backends::cpu {

class CpuBackend final : public Backend {
 public:
  Device device() const override { return Device::Cpu; }
  std::vector<Tensor> run(shapes::OpKind op, std::span<const Tensor> inputs,
                          const shapes::OpAttrs& attrs) override;
};

}  // namespace tessel::backends::cpu
