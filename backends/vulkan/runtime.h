// Runtime: the one Vulkan device of the process (context, memory pools, kernels, stream) and
// device tensors: Storage objects whose bytes live in a device buffer. Internal.
#pragma once

#include <memory>
#include <mutex>

#include "backends/tensor.h"
#include "backends/vulkan/context.h"
#include "backends/vulkan/kernels.h"
#include "backends/vulkan/memory.h"
#include "backends/vulkan/stream.h"

namespace tessel::backends::vulkan {

class Runtime {
 public:
  /// The runtime, created on first call; DeviceError when no device can be used.
  static const std::shared_ptr<Runtime>& instance();
  /// The runtime if it exists, without creating it.
  static Runtime* existing();
  ~Runtime();

  VulkanContext& context() { return *ctx_; }
  MemoryPool& pool() { return *pool_; }
  MemoryPool& staging() { return *staging_; }
  Kernels& kernels() { return *kernels_; }
  CommandStream& stream() { return *stream_; }
  /// Serializes use of the stream and pools (eager ops may come from several threads).
  std::recursive_mutex& mutex() { return mu_; }

 private:
  Runtime() = default;
  // Destroyed in reverse: the stream (waits for the device) before pipelines, pools, device.
  std::unique_ptr<VulkanContext> ctx_;
  std::unique_ptr<MemoryPool> pool_;
  std::unique_ptr<MemoryPool> staging_;
  std::unique_ptr<Kernels> kernels_;
  std::unique_ptr<CommandStream> stream_;
  std::recursive_mutex mu_;
};

// Note [Device storage]
// A device tensor is an ordinary Tensor whose Storage says Device::Vulkan. Storage (storage.h)
// owns host bytes and has no hook for foreign memory, so the Storage object here is a small
// tag (its data() is a 64-byte host block never read by kernels) held inside a DeviceMemory
// that owns the pool range; the shared_ptr<Storage> handed to tensors aliases the
// DeviceMemory's control block, so the range returns to the pool when the last view goes, and
// std::get_deleter finds the DeviceMemory from any such shared_ptr. Each DeviceMemory also
// holds the Runtime, which therefore outlives every device tensor.

/// The device range behind a tensor's storage; nullptr when the storage is not a Vulkan one.
const Allocation* allocationOf(const std::shared_ptr<Storage>& storage);
/// A fresh contiguous device tensor (uninitialized).
Tensor emptyDevice(const Dims& shape, DType dtype);
/// The buffer range of a device tensor's storage (the whole allocation; the tensor's element
/// offset is passed to kernels separately). Keeps the storage alive until the work has run.
BufferArg bufferOf(const Tensor& t);
/// A scratch device buffer of `bytes` (for counts, flags, block sums), kept alive with its work.
struct Scratch {
  std::shared_ptr<Storage> storage;
  BufferArg arg;
  char* mapped;  ///< host address when the pool is mappable, else nullptr
};
Scratch scratch(size_t bytes);

}  // namespace tessel::backends::vulkan
