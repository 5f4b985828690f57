// Storage: a refcounted, 64-byte aligned buffer that tensors view (tensor.h).
#pragma once

#include <cstddef>
#include <memory>

#include "backends/device.h"

namespace tessel::backends {

/// Raw bytes of one or more tensors. Views share one Storage through shared_ptr; the
/// buffer is freed (or returned to the block cache, see Note [Block cache]) with the last.
class Storage {
  struct Key {};  // private: only allocate() can make one, yet make_shared can construct

 public:
  /// Uninitialized storage of at least `bytes` bytes, 64-byte aligned.
  static std::shared_ptr<Storage> allocate(size_t bytes, Device device = Device::Cpu);

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
};

/// Bytes held by the block cache right now (for tests and stats).
size_t cachedStorageBytes();

}  // namespace tessel::backends
