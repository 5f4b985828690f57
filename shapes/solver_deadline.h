// A wall-clock net under Z3's rlimit: a check that runs past its budget is interrupted
// (Note [A wall-clock net under rlimit] in solver_deadline.cpp). Free of z3 headers: the
// solver passes how to interrupt its context.
#pragma once

#include <chrono>
#include <cstdint>

namespace tessel::shapes {

/// The wall budget of one check under `rlimit`: far above what a check that honours rlimit
/// takes, so the net decides only checks that would otherwise run on.
std::chrono::milliseconds wallBudgetFor(uint32_t rlimit);

/// While alive, `interrupt(arg)` is called once (from a watchdog thread) if `budget` passes.
/// Interrupting a check that has already returned is harmless: Z3 clears the flag when the
/// next check starts.
class ScopedCheckDeadline {
 public:
  using Interrupt = void (*)(void* arg);
  ScopedCheckDeadline(Interrupt interrupt, void* arg, std::chrono::milliseconds budget);
  ~ScopedCheckDeadline();
  ScopedCheckDeadline(const ScopedCheckDeadline&) = delete;
  ScopedCheckDeadline& operator=(const ScopedCheckDeadline&) = delete;

  /// Whether the budget passed and the interrupt was sent (call after the check returned).
  bool fired() const;

 private:
  uint64_t ticket_;
};

}  // namespace tessel::shapes
