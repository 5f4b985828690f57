// Per-interpreter caps on tensor memory (Note [Memory budget]).
#include "backends/memory_budget.h"

#include <string>

#include "shapes/user_error.h"

namespace tessel::backends {

namespace {

thread_local std::shared_ptr<MemoryBudget> tBudget;

std::string mib(int64_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

MemoryCharge::MemoryCharge(std::shared_ptr<MemoryBudget> budget, size_t bytes)
    : budget_(std::move(budget)), bytes_(bytes) {
  if (!budget_) return;
  const int64_t add = static_cast<int64_t>(bytes);
  const int64_t before = budget_->held_.fetch_add(add, std::memory_order_relaxed);
  if (add >= 0 && before + add <= budget_->limit_) return;
  budget_->held_.fetch_sub(add, std::memory_order_relaxed);
  const int64_t limit = budget_->limit_;
  budget_.reset();
  throwUserError(ErrorKind::LimitError,
                 "memory limit exceeded: a tensor of " + std::to_string(bytes) + " bytes (" +
                     mib(add) + ") does not fit: " + std::to_string(before) + " of the " +
                     std::to_string(limit) + " bytes allowed (" + mib(limit) +
                     ") are held by live tensors");
}

MemoryCharge& MemoryCharge::operator=(MemoryCharge&& o) noexcept {
  if (this != &o) {
    release();
    budget_ = std::move(o.budget_);
    bytes_ = o.bytes_;
  }
  return *this;
}

void MemoryCharge::release() {
  if (budget_) budget_->held_.fetch_sub(static_cast<int64_t>(bytes_), std::memory_order_relaxed);
  budget_.reset();
}

MemoryCharge chargeMemory(size_t bytes) {
  if (!tBudget) return {};
  return MemoryCharge(tBudget, bytes);
}

ScopedMemoryBudget::ScopedMemoryBudget(std::shared_ptr<MemoryBudget> budget)
    : previous_(std::move(tBudget)) {
  tBudget = std::move(budget);
}

ScopedMemoryBudget::~ScopedMemoryBudget() {
  tBudget = std::move(previous_);
}

}  // namespace tessel::backends
