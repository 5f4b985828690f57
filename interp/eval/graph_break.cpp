// The core's side of graph breaks: which trace is running, and reporting a break to it.
#include "interp/eval/graph_break.h"

#include "interp/eval/evaluator.h"
#include "interp/values/objects.h"
#include "interp/values/trace_context.h"

namespace tessel::interp {

TraceHooks* activeTraceHooks() {
  return traceContext().hooks;
}

bool tracing() {
  return traceContext().hooks != nullptr;
}

void graphBreak(ErrorKind kind, const std::string& reason) {
  if (TraceHooks* hooks = traceContext().hooks) hooks->graphBreak(kind, reason);
}

void setTraceHooks(TraceHooks* hooks) {
  TraceContext& t = traceContext();
  t.hooks = hooks;
  t.regions = t.runner && !hooks;
  setTraceEpoch(hooks != nullptr);
}

}  // namespace tessel::interp
