// VulkanBackend::run, registration, transfers and stats.
#include "backends/vulkan/vulkan_backend.h"

#include <cstring>

#include "backends/eager_signature.h"
#include "backends/vulkan/counters.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

std::vector<Tensor> VulkanBackend::run(OpKind op, std::span<const Tensor> inputs,
                                       const OpAttrs& attrs) {
  std::lock_guard<std::recursive_mutex> lock(Runtime::instance()->mutex());
  const std::optional<OpSignature> sig = eagerSignature(op, inputs, attrs);
  if (!sig) return {runDataDependent(op, inputs, attrs)};
  const OpSignature& out = *sig;
  const shapes::OpCategory cat = shapes::opCategory(op);
  switch (cat) {
    case shapes::OpCategory::Unary:
      return {runUnary(op, inputs[0], out)};
    case shapes::OpCategory::Binary:
      return {runBinary(op, inputs[0], inputs[1], out)};
    case shapes::OpCategory::Ternary:
      return {runTernary(op, inputs, out)};
    case shapes::OpCategory::Reduce:
      return {runReduce(op, inputs[0], attrs, out)};
    case shapes::OpCategory::Scan:
      return {runScan(op, inputs[0], attrs, out)};
    case shapes::OpCategory::Shape:
      return {runShapeOp(op, inputs, attrs, out)};
    case shapes::OpCategory::Index:
      return {runIndexOp(op, inputs, attrs, out)};
    case shapes::OpCategory::NN:
      return {runNN(op, inputs, attrs, out)};
    case shapes::OpCategory::Create:
      return {runCreate(op, attrs, out)};
    case shapes::OpCategory::Sort:
      return {runSort(op, inputs, attrs, out)};
    case shapes::OpCategory::Convert:
      if (op == OpKind::Cast) return {castDevice(inputs[0], out.dtype)};
      return {contiguousDevice(inputs[0]).alias()};
    case shapes::OpCategory::DataDependent:
      break;
  }
  TESSEL_ASSERT(false, "op category without kernels");
  return {};
}

bool registerVulkanBackend() {
  static VulkanBackend backend;
  try {
    Runtime::instance();
  } catch (const UserError&) {
    return false;
  }
  registerBackend(Device::Vulkan, &backend);
  return true;
}

Tensor toVulkan(const Tensor& t) {
  if (t.device() == Device::Vulkan) return t;
  Runtime& r = *Runtime::instance();
  std::lock_guard<std::recursive_mutex> lock(r.mutex());
  Tensor c = t.contiguous();
  Tensor out = emptyDevice(c.shape(), c.dtype());
  const size_t bytes = size_t(c.numel()) * size_t(elementSize(c.dtype()));
  if (bytes == 0) return out;
  const Allocation* a = allocationOf(out.storage());
  if (a->mapped) {
    // Fresh memory no recorded command touches: write it directly.
    std::memcpy(a->mapped, c.bytes(), bytes);
    return out;
  }
  Allocation stage = r.staging().allocate(bytes);
  std::memcpy(stage.mapped, c.bytes(), bytes);
  r.stream().copy({stage.buffer, stage.offset, stage.size}, bufferOf(out), bytes);
  try {
    r.stream().flush();  // the staging range is reused right after
  } catch (...) {
    r.staging().release(stage);
    throw;
  }
  r.staging().release(stage);
  return out;
}

Tensor toCpu(const Tensor& t) {
  if (t.device() != Device::Vulkan) return t;
  Runtime& r = *Runtime::instance();
  std::lock_guard<std::recursive_mutex> lock(r.mutex());
  Tensor c = contiguousDevice(t);
  Tensor out = Tensor::empty(c.shape(), c.dtype());
  const size_t bytes = size_t(c.numel()) * size_t(elementSize(c.dtype()));
  if (bytes == 0) return out;
  const Allocation* a = allocationOf(c.storage());
  const VkDeviceSize start = VkDeviceSize(c.offset()) * elementSize(c.dtype());
  if (a->mapped) {
    r.stream().flush();
    std::memcpy(out.data<char>(), a->mapped + start, bytes);
    return out;
  }
  readBack(bufferOf(c), start, out.data<char>(), bytes);
  return out;
}

Tensor VulkanBackend::toHost(const Tensor& src) { return toCpu(src); }
Tensor VulkanBackend::fromHost(const Tensor& host) { return toVulkan(host); }

void synchronize() {
  if (Runtime* r = Runtime::existing()) {
    std::lock_guard<std::recursive_mutex> lock(r->mutex());
    r->stream().flush();
  }
}

VulkanStats vulkanStats() {
  VulkanStats s;
  s.pipelinesCreated = counters().pipelinesCreated.load();
  s.dispatches = counters().dispatches.load();
  s.submits = counters().submits.load();
  s.barriers = counters().barriers.load();
  s.validationMessages = counters().validationMessages.load();
  if (Runtime* r = Runtime::existing()) {
    std::lock_guard<std::recursive_mutex> lock(r->mutex());
    s.bytesInUse = r->pool().bytesInUse();
    s.bytesReserved = r->pool().bytesReserved();
    s.deviceName = r->context().name();
    s.validationEnabled = r->context().validationEnabled();
  }
  return s;
}

}  // namespace tessel::backends::vulkan
