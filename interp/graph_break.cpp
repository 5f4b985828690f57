// The core's side of graph breaks: which trace is running, and reporting a break to it.
#include "interp/graph_break.h"

#include "interp/evaluator.h"

namespace tessel::interp {

namespace {
thread_local TraceHooks* tActiveHooks = nullptr;
}  // namespace

TraceHooks* activeTraceHooks() {
  return tActiveHooks;
}

bool tracing() {
  return tActiveHooks != nullptr;
}

void graphBreak(ErrorKind kind, const std::string& reason) {
  if (tActiveHooks) tActiveHooks->graphBreak(kind, reason);
}

void Evaluator::setTraceHooks(TraceHooks* hooks) {
  traceHooks_ = hooks;
  treeWalkOnly_ = traceHooks_ || blockRunner_;
  tActiveHooks = hooks;
  setTraceEpoch(hooks != nullptr);
}

}  // namespace tessel::interp
