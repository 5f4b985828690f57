// CompilerState: what one Interpreter knows about compilation: the `config` knobs, the logs and
// structured trace, the PGO profiles, every compiled frame (for stats() totals), and the
// dynamic-source allow-list. Destroyed after every value of its Interpreter, it saves the
// profiles and closes the trace.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "interp/compile/compile_log.h"
#include "interp/values/objects.h"

namespace tessel::interp {

struct FrameObj;
class CompileTrace;
class PgoStore;

/// The fields of the built-in `config` module (compiler.md, "config").
struct CompilerConfig {
  int64_t recompile_limit = 8;
  bool automatic_dynamic = true;
  bool duck_shape = true;
  bool specialize_float = false;  // compiler.md: floats become inputs when they vary
  bool backed_size_oblivious = false;
  bool pgo = true;
  bool compiler_collectives = false;
  /// x.item() inside a trace stays in the graph as a number instead of breaking it.
  bool capture_scalar_outputs = false;
  int64_t solver_rlimit = 2'000'000;
  /// The tpu's memory and bounded dynamic shapes (backends.md, "tpu"); mirrored into the
  /// process-wide backends::tpu::tpuConfig() on every assignment.
  int64_t tpu_memory_bytes = int64_t{16} << 30;
  bool tpu_bounded_dynamic = true;
  /// How long a collective waits for every rank (docs/distributed.md); mirrored into the
  /// process-wide backends::dist::distConfig().
  int64_t dist_timeout_s = 300;
  /// The cycle collector (language.md, "Memory"), mirrored into the running interpreter's
  /// GcHeap: automatic collections on, and CPython's three thresholds (young allocations;
  /// collections of the next younger generation).
  bool gc = true;
  int64_t gc_threshold0 = 2000;
  int64_t gc_threshold1 = 10;
  int64_t gc_threshold2 = 10;
  int64_t gc_increment = 20000;  // old containers per step; 0: the old generation at once
};

class CompilerState {
 public:
  CompilerState();
  ~CompilerState();
  CompilerState(const CompilerState&) = delete;
  CompilerState& operator=(const CompilerState&) = delete;
  CompilerConfig config;
  CompileLog log;
  /// The structured trace (--trace-dir / TESSEL_TRACE); null when off.
  std::unique_ptr<CompileTrace> trace;
  /// PGO profiles (config.pgo): loaded at first compiles, saved when this state is destroyed.
  std::unique_ptr<PgoStore> pgo;
  /// TESSEL_DYNAMIC_SOURCES: source names ("x", "y.shape[1]", "n") dynamic from the first
  /// compile.
  std::unordered_set<std::string> dynamicSources;
  /// Every frame made by compile()/@compile, in creation order (its index is its frame id).
  std::vector<FrameObj*> frames;
  /// The `config` module value (created on first import/lookup).
  Value configModule;
};

}  // namespace tessel::interp
