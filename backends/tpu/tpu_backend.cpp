// The tpu Backend: host transfers and eager kernels on materialized tensors, the settings and
// the counters. Ops the interpreter runs on tpu tensors are recorded lazily instead (lazy.h).
#include <cstring>

#include "backends/backend.h"
#include "backends/cpu/loops.h"
#include "backends/tpu/tpu.h"

namespace tessel::backends::tpu {

namespace {

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
    for (Tensor& t : out) t = taggedAsTpu(t);
    return out;
  }
  Tensor toHost(const Tensor& src) override { return transfer(src, Device::Cpu); }
  Tensor fromHost(const Tensor& host) override { return transfer(host, Device::Tpu); }
};

}  // namespace

Tensor taggedAsTpu(const Tensor& t) {
  if (t.device() == Device::Tpu) return t;
  auto s = Storage::borrow(t.storage()->data(), t.storage()->bytes(), Device::Tpu, t.storage());
  return Tensor::view(std::move(s), t.shape(), t.strides(), t.offset(), t.dtype());
}

namespace {

thread_local TpuState* tState = nullptr;

TpuState& processState() {
  static TpuState* s = new TpuState;  // leaked: lazy tensors may run after main returns
  return *s;
}

}  // namespace

ScopedTpuState::ScopedTpuState(TpuState* state) : previous_(tState) {
  tState = state;
}
ScopedTpuState::~ScopedTpuState() {
  tState = previous_;
}

TpuConfig& tpuConfig() {
  return tState ? tState->config : processState().config;
}

TpuStats& tpuStats() {
  return tState ? tState->stats : processState().stats;
}

void registerTpuBackend() {
  static TpuBackend backend;
  registerBackend(Device::Tpu, &backend);
}

}  // namespace tessel::backends::tpu
