// The tpu Backend: host transfers and eager kernels on materialized tensors, the settings and
// the counters. Ops the interpreter runs on tpu tensors are recorded lazily instead (lazy.h).
#include <cstring>

#include "backends/backend.h"
#include "backends/cpu/loops.h"
#include "backends/tpu/tpu.h"

namespace tessel::backends::tpu {

namespace {

/// `t`'s bytes tagged as the tpu's (tpu memory is host memory in this model: no copy).
Tensor tagged(const Tensor& t, Device device) {
  if (t.device() == device) return t;
  auto s = Storage::borrow(t.storage()->data(), t.storage()->bytes(), device, t.storage());
  return Tensor::view(std::move(s), t.shape(), t.strides(), t.offset(), t.dtype());
}

/// A contiguous copy of `src` on `device`: a transfer between host and device memory.
Tensor transfer(const Tensor& src, Device device) {
  Tensor out = Tensor::empty(src.shape(), src.dtype(), device);
  cpu::copyToContiguous(src, out.data<char>());
  return out;
}

class TpuBackend final : public Backend {
 public:
  Device device() const override { return Device::Tpu; }
  std::vector<Tensor> run(shapes::OpKind op, std::span<const Tensor> inputs,
                          const shapes::OpAttrs& attrs) override {
    std::vector<Tensor> out = backendFor(Device::Cpu).run(op, inputs, attrs);
    for (Tensor& t : out) t = tagged(t, Device::Tpu);
    return out;
  }
  Tensor toHost(const Tensor& src) override { return transfer(src, Device::Cpu); }
  Tensor fromHost(const Tensor& host) override { return transfer(host, Device::Tpu); }
};

}  // namespace

TpuConfig& tpuConfig() {
  static TpuConfig c;
  return c;
}

TpuStats& tpuStats() {
  static TpuStats s;
  return s;
}

void registerTpuBackend() {
  static TpuBackend backend;
  registerBackend(Device::Tpu, &backend);
}

}  // namespace tessel::backends::tpu
