// Storage: a refcounted, 64-byte aligned buffer that tensors view (tensor.h).
#pragma once

#include <cstddef>
#include <memory>

#include "backends/device.h"
#include "backends/memory_budget.h"

namespace tessel::backends {

/// Raw bytes of one or more tensors. Views share one Storage through shared_ptr; the
/// buffer is freed (or returned to the block cache, see Note [Block cache]) with the last.
class Storage {
  struct Key {};  // private: only allocate() can make one, yet make_shared can construct

 public:
  /// Uninitialized storage of at least `bytes` bytes, 64-byte aligned.
  static std::shared_ptr<Storage> allocate(size_t bytes, Device device = Device::Cpu);

  /// Storage over `bytes` bytes at `data` that it does not own: `owner` keeps them alive (an
  /// arena planned by the tpu backend, say) and nothing is freed when the storage dies.
  static std::shared_ptr<Storage> borrow(void* data, size_t bytes, Device device,
                                         std::shared_ptr<const void> owner);

  Storage(Key, void* data, size_t bytes, Device device)
      : data_(data), bytes_(bytes), device_(device) {}
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  ~Storage();

  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  Device device() const { return device_; }

 private:
  void* data_;
  size_t bytes_;
  Device device_;
  std::shared_ptr<const void> owner_;  ///< set for borrowed bytes: they are not freed here
  MemoryCharge charge_;  ///< the interpreter's budget these bytes count against (if any)
};

/// Where Storage::allocate takes memory on this thread while a hook is installed (the tpu
/// backend's static memory plan, backends/tpu/program.cpp): allocate() returns bytes inside
/// planned memory and the owner that keeps them alive, or nullptr to use the heap.
class AllocationHook {
 public:
  virtual ~AllocationHook() = default;
  virtual void* allocate(size_t bytes, std::shared_ptr<const void>& owner) = 0;
  /// Called when allocate() returned nullptr and the heap served the request.
  virtual void heapFallback(size_t bytes) = 0;
  /// The device every storage made under the hook is tagged with.
  virtual Device device() const = 0;
};

/// Installs `hook` for the scope's lifetime on this thread; scopes nest.
class ScopedAllocationHook {
 public:
  explicit ScopedAllocationHook(AllocationHook* hook);
  ~ScopedAllocationHook();
  ScopedAllocationHook(const ScopedAllocationHook&) = delete;
  ScopedAllocationHook& operator=(const ScopedAllocationHook&) = delete;

 private:
  AllocationHook* previous_;
};

/// Bytes held by the block cache right now (for tests and stats).
size_t cachedStorageBytes();

/// The bytes Storage::allocate takes for a request of `bytes` (Note [Block cache]): 64-byte
/// multiples, four classes per octave from 64 KiB, multiples of 1 MiB from 16 MiB.
size_t storageSizeClass(size_t bytes);

}  // namespace tessel::backends
