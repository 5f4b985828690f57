// The tpu backend's public face (backends.md, "tpu"): its settings, its counters, and the call
// that installs it. A device that needs static memory, modelled on the host: programs are
// planned at compile time (program.h) and eager ops are lazy (lazy.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::backends {
class Tensor;
}

namespace tessel::backends::tpu {

/// config.tpu_memory_bytes and config.tpu_bounded_dynamic, and where perf lines go.
struct TpuConfig {
  uint64_t memoryBytes = uint64_t{16} << 30;  ///< the device's memory (default 16 GiB)
  /// Data-dependent ops give bounded dynamic sizes; false makes them sync and give static
  /// sizes (PyTorch/XLA without XLA_EXPERIMENTAL).
  bool boundedDynamic = true;
  /// Receives one line per compile and cache hit (TESSEL_LOGS=perf); may be empty.
  std::function<void(const std::string&)> perfLog;
};
TpuConfig& tpuConfig();

/// One compiled program, as stats()["tpu"]["programs"] shows it.
struct ProgramRecord {
  std::string name;          ///< "lazy#3" or the compiled function's "f@compile[0/1]"
  uint64_t arenaBytes = 0;   ///< planned arena (intermediates and scratch)
  uint64_t outputBytes = 0;  ///< output buffers at their bounds
  uint64_t boundBytes = 0;   ///< the solver's bound on peak live bytes of intermediates
  size_t ops = 0;            ///< nodes after optimization
  double compileMs = 0;
};

/// stats()["tpu"]: process-wide, like the device.
struct TpuStats {
  uint64_t compilations = 0;
  uint64_t cacheHits = 0;       ///< lazy programs found in the cache
  uint64_t executions = 0;      ///< program runs
  uint64_t runAllocations = 0;  ///< heap allocations made while programs ran (planned: 0)
  double paddingRatio = 0;      ///< last run: 1 - real / bounded bytes of dynamic buffers
  std::vector<ProgramRecord> programs;
};
TpuStats& tpuStats();

/// One interpreter's tpu config and stats (embedding.md: interpreters are independent).
struct TpuState {
  TpuConfig config;
  TpuStats stats;
};
/// Makes tpuConfig() and tpuStats() on this thread answer `state` for the scope's lifetime
/// (nests); without one they answer the process's own.
class ScopedTpuState {
 public:
  explicit ScopedTpuState(TpuState* state);
  ~ScopedTpuState();
  ScopedTpuState(const ScopedTpuState&) = delete;
  ScopedTpuState& operator=(const ScopedTpuState&) = delete;

 private:
  TpuState* previous_;
};

/// Registers the tpu backend (idempotent).
void registerTpuBackend();

/// `t`'s bytes tagged as the tpu's: tpu memory is host memory in this model, so a host tensor
/// becomes a tpu tensor without a copy (the storage keeps `t`'s alive).
Tensor taggedAsTpu(const Tensor& t);

}  // namespace tessel::backends::tpu
