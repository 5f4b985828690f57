// TraceContext: everything that says whether, and how, code on this thread is being traced or
// run as compiled regions, in one place (Note [Trace context]).
#pragma once

#include <cstdint>

namespace tessel::interp {

class BlockRunner;  // interp/eval/evaluator.h
class OpSink;       // interp/tensors/op_sink.h
class TraceHooks;   // interp/values/trace_hooks.h
class TraceTape;    // interp/tensors/trace_tape.h

// Note [Trace context]
// Tracing is a mode of the one evaluator (architecture.md, "One evaluator"), and several
// layers must know it: the evaluator (which handler tree runs, whether blocks go to a region
// runner), tensor bindings (who receives ops: a kernel or the graph being built), containers
// (which trace made them), grad() (which trace tapes record). Natives reach none of them
// through the Interpreter, so the state is per thread; it is one struct, so that what a trace
// changes is seen, saved and restored together. Plain pointers and counters only, so the
// variable is constant-initialized and trivially destroyed: reading it is a single load, with
// no guard for a thread's first use, which the evaluator's per-block test relies on.
struct TraceContext {
  /// The tracer running on this thread (interp/compile/tracer.h), or null.
  TraceHooks* hooks = nullptr;
  /// The runner of a compiled function with graph breaks (interp/compile/regions.h), or null.
  BlockRunner* runner = nullptr;
  /// runner && !hooks: blocks are handed to the runner (kept as one flag; every block tests
  /// it).
  bool regions = false;
  /// Who receives tensor ops (ScopedOpSink), or null for eager dispatch.
  OpSink* sink = nullptr;
  /// The innermost active trace tape; each links to the one it was pushed over.
  TraceTape* tapes = nullptr;
  /// Which trace is running (0: none), and how many were begun on this thread. Containers
  /// remember the epoch they were made in (objects.h).
  uint64_t epoch = 0;
  uint64_t epochs = 0;
};

// Note [Trace context and UBSan]
// GCC's -fsanitize=null cannot prove the address of an extern thread_local non-null, and
// reports "member access within null pointer" for every `traceContext().field` in other
// translation units (a known false positive; Clang's is fine). Sanitized builds therefore get
// the context from a function in trace_context.cpp, where the variable is defined; other
// builds read it in line, one load, as the engine's per-block test needs.
namespace detail {
extern thread_local constinit TraceContext tTraceContext;  // trace_context.cpp
}
#if defined(TESSEL_SANITIZED)
TraceContext& traceContext();
#else
/// This thread's trace context.
inline TraceContext& traceContext() {
  return detail::tTraceContext;
}
#endif

/// True while a @compile function is traced on this thread.
inline bool tracing() {
  return traceContext().hooks != nullptr;
}
/// The hooks of the trace running on this thread, or nullptr.
inline TraceHooks* activeTraceHooks() {
  return traceContext().hooks;
}
/// Installs (or, with nullptr, removes) the hooks of the tracer now running, and starts (or
/// ends) its trace epoch.
void setTraceHooks(TraceHooks* hooks);
/// Installs (or removes) the runner of a compiled function with graph breaks.
inline void setBlockRunner(BlockRunner* runner) {
  TraceContext& t = traceContext();
  t.runner = runner;
  t.regions = runner && !t.hooks;
}

}  // namespace tessel::interp
