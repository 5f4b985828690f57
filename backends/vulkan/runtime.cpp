// The process's Vulkan runtime and device storage (Note [Device storage]).
#include "backends/vulkan/runtime.h"

#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

std::shared_ptr<Runtime>& slot() {
  static std::shared_ptr<Runtime> rt;
  return rt;
}

struct DeviceMemory {
  std::shared_ptr<Runtime> runtime;
  Allocation alloc;
  std::shared_ptr<Storage> tag;
  MemoryCharge charge;  // against the running interpreter's budget (Note [Memory budget])
  ~DeviceMemory() {
    if (alloc.buffer == VK_NULL_HANDLE) return;  // allocation failed
    std::lock_guard<std::recursive_mutex> lock(runtime->mutex());
    // Pending commands may still touch the range (Note [Eager batching]); the pool outlives
    // the stream, whose destructor flushes.
    MemoryPool* pool = &runtime->pool();
    runtime->stream().afterFlush([pool, a = alloc] { pool->release(a); });
  }
};

// The deleter type marks our control blocks; it also remembers the object it deletes.
struct DeviceMemoryDeleter {
  DeviceMemory* self;
  void operator()(DeviceMemory* p) const { delete p; }
};

// Tensors and ranges dropped while work is pending keep their budget charge and their pool
// range until the flush frees them (Note [Eager batching]): when `get` finds the memory gone,
// flush and try once more before saying so.
template <class F>
auto orAfterFlush(Runtime& rt, F get) {
  try {
    return get();
  } catch (const UserError&) {
    std::lock_guard<std::recursive_mutex> lock(rt.mutex());
    if (!rt.stream().pending()) throw;
    rt.stream().flush();
    return get();
  }
}

std::shared_ptr<Storage> deviceStorage(size_t bytes) {
  const std::shared_ptr<Runtime>& rt = Runtime::instance();
  MemoryCharge charge = orAfterFlush(*rt, [&] { return chargeMemory(bytes); });
  auto* mem = new DeviceMemory{rt, {}, nullptr, std::move(charge)};
  std::shared_ptr<DeviceMemory> owner(mem, DeviceMemoryDeleter{mem});
  {
    // On a throw `owner` frees mem, releasing nothing.
    std::lock_guard<std::recursive_mutex> lock(rt->mutex());
    mem->alloc = orAfterFlush(*rt, [&] { return rt->pool().allocate(bytes); });
  }
  mem->tag = Storage::allocate(0, Device::Vulkan);
  return std::shared_ptr<Storage>(owner, mem->tag.get());
}

}  // namespace

const std::shared_ptr<Runtime>& Runtime::instance() {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  std::shared_ptr<Runtime>& rt = slot();
  if (!rt) {
    std::shared_ptr<Runtime> r(new Runtime);
    r->ctx_ = VulkanContext::create();
    r->pool_ = std::make_unique<MemoryPool>(*r->ctx_, MemoryPool::Kind::Device);
    r->staging_ = std::make_unique<MemoryPool>(*r->ctx_, MemoryPool::Kind::Staging);
    r->kernels_ = std::make_unique<Kernels>(*r->ctx_);
    r->stream_ = std::make_unique<CommandStream>(*r->ctx_, r->kernels_->layout());
    rt = std::move(r);
  }
  return rt;
}

Runtime* Runtime::existing() { return slot().get(); }

Runtime::~Runtime() { stream_.reset(); }

const Allocation* allocationOf(const std::shared_ptr<Storage>& storage) {
  auto* d = std::get_deleter<DeviceMemoryDeleter>(storage);
  return d ? &d->self->alloc : nullptr;
}

Tensor emptyDevice(const Dims& shape, DType dtype) {
  const size_t bytes = size_t(numelOf(shape)) * size_t(elementSize(dtype));
  return Tensor::view(deviceStorage(bytes), shape, contiguousStrides(shape), 0, dtype);
}

BufferArg bufferOf(const Tensor& t) {
  const Allocation* a = allocationOf(t.storage());
  if (!a)
    throwUserError(ErrorKind::DeviceError,
                   "vulkan: a tensor on '" + std::string(deviceName(t.device())) +
                       "' reached the vulkan backend; move it with .to(\"vulkan\")");
  Runtime::existing()->stream().keepAlive(t.storage());
  return {a->buffer, a->offset, a->size};
}

Scratch scratch(size_t bytes) {
  std::shared_ptr<Storage> s = deviceStorage(bytes);
  const Allocation* a = allocationOf(s);
  Runtime::existing()->stream().keepAlive(s);
  return {s, {a->buffer, a->offset, a->size}, a->mapped};
}

}  // namespace tessel::backends::vulkan
