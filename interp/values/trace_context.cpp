// This thread's TraceContext (Note [Trace context] in trace_context.h) and what installs its
// tracer.
#include "interp/values/trace_context.h"

namespace tessel::interp {

thread_local constinit TraceContext detail::tTraceContext{};

#if defined(TESSEL_SANITIZED)
TraceContext& traceContext() {
  return detail::tTraceContext;
}
#endif

void setTraceHooks(TraceHooks* hooks) {
  TraceContext& t = traceContext();
  t.hooks = hooks;
  t.regions = t.runner && !hooks;
  // A new trace epoch for a tracer installing its hooks, none when they are removed.
  t.epoch = hooks ? ++t.epochs : 0;
}

}  // namespace tessel::interp
