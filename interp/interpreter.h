// Interpreter: one Tessel session. The class is declared in interp/eval/session.h, where the
// layers below (the engine, tensors, natives) see it; this header adds what only its users
// above need: the Entry that every way into an interpreter opens.
#pragma once

#include <optional>

#include "backends/device.h"
#include "backends/memory_budget.h"
#include "backends/tpu/tpu.h"
#include "interp/eval/session.h"
#include "interp/values/gc.h"

namespace tessel::interp {

/// What an interpreter installs on its thread while it runs (Note [Interpreter entry]).
class Interpreter::Entry {
 public:
  explicit Entry(Interpreter& interp);
  ~Entry();
  Entry(const Entry&) = delete;
  Entry& operator=(const Entry&) = delete;

 private:
  Interpreter& interp_;
  backends::ScopedMemoryBudget budget_;
  backends::tpu::ScopedTpuState tpu_;
  std::optional<backends::Device> previousDevice_;
  GcHeap* previousHeap_;
};

}  // namespace tessel::interp
