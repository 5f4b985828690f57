// MemoryBudget: a cap on the tensor bytes one interpreter holds (Options::maxMemoryBytes,
// `tessel --max-memory`). Lower layers charge it without knowing which interpreter runs.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace tessel::backends {

// Note [Memory budget]
// An interpreter installs its budget on the thread that runs it (ScopedMemoryBudget, nested
// per entry into the interpreter). Every tensor allocation made on that thread, on any device,
// takes a MemoryCharge from it: an allocation that would take the held bytes past the limit
// throws a LimitError before any memory is taken, so the script fails at that statement and
// the session goes on. A charge remembers its budget, so bytes are given back to the right
// interpreter when the tensor dies, on whatever thread that happens (the count is atomic).
// Borrowed memory (a DLPack tensor an app lends, a planned tpu arena's views) is not charged:
// the arena itself was.
class MemoryBudget {
 public:
  explicit MemoryBudget(int64_t limitBytes) : limit_(limitBytes) {}
  int64_t limit() const { return limit_; }
  int64_t held() const { return held_.load(std::memory_order_relaxed); }

 private:
  friend class MemoryCharge;
  const int64_t limit_;
  std::atomic<int64_t> held_{0};
};

/// Bytes charged to a budget, given back when the charge is destroyed. Empty when no budget
/// was installed.
class MemoryCharge {
 public:
  MemoryCharge() = default;
  /// Charges `bytes` to `budget`; LimitError (nothing charged) when that exceeds its limit.
  MemoryCharge(std::shared_ptr<MemoryBudget> budget, size_t bytes);
  MemoryCharge(MemoryCharge&& o) noexcept : budget_(std::move(o.budget_)), bytes_(o.bytes_) {}
  MemoryCharge& operator=(MemoryCharge&& o) noexcept;
  MemoryCharge(const MemoryCharge&) = delete;
  MemoryCharge& operator=(const MemoryCharge&) = delete;
  ~MemoryCharge() { release(); }

 private:
  void release();
  std::shared_ptr<MemoryBudget> budget_;
  size_t bytes_ = 0;
};

/// Charges `bytes` to the budget installed on this thread (an empty charge when none is).
MemoryCharge chargeMemory(size_t bytes);

/// Installs `budget` (may be null: no cap) on this thread for the scope's lifetime; nests.
class ScopedMemoryBudget {
 public:
  explicit ScopedMemoryBudget(std::shared_ptr<MemoryBudget> budget);
  ~ScopedMemoryBudget();
  ScopedMemoryBudget(const ScopedMemoryBudget&) = delete;
  ScopedMemoryBudget& operator=(const ScopedMemoryBudget&) = delete;

 private:
  std::shared_ptr<MemoryBudget> previous_;
};

}  // namespace tessel::backends
