// The core's side of graph breaks: reporting a break to the trace that is running.
#include "interp/values/graph_break.h"

#include "interp/values/trace_hooks.h"

namespace tessel::interp {

void graphBreak(ErrorKind kind, const std::string& reason) {
  if (TraceHooks* hooks = traceContext().hooks) hooks->graphBreak(kind, reason);
}

}  // namespace tessel::interp
