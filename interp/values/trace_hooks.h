// TraceHooks: what a tracer sees of the code it traces. Declared here, below eval/, because
// graphBreak() (graph_break.h), which values/ and every layer above call, reports through it.
#pragma once

#include <cstdint>
#include <string>

#include "interp/syntax/ast.h"
#include "interp/values/objects.h"
#include "shapes/user_error.h"

namespace tessel::interp {

/// What a tracer (interp/compile/tracer.h) needs to see while a @compile function runs on
/// fake tensors: each statement (for guard provenance and graph breaks) and each global the
/// body reads (globals are guarded like arguments). Installed with setTraceHooks
/// (trace_context.h); the engine then runs the traced form of each body, which reports to it.
class TraceHooks {
 public:
  virtual ~TraceHooks() = default;
  /// `span` is where guards added by the statement point (an if's condition).
  virtual void enterStatement(Stmt* stmt, Span span) = 0;
  virtual void leaveStatement() = 0;
  virtual void globalRead(ModuleObj& module, uint32_t slot, const Value& value) = 0;
  /// The running statement cannot be traced (interp/values/graph_break.h); never returns.
  [[noreturn]] virtual void graphBreak(ErrorKind kind, const std::string& reason) = 0;
  /// False under fullgraph: what would break the graph is an error instead.
  virtual bool breaksAllowed() const = 0;
  /// x.item() on the traced tensor `x`: a scalar kept in the graph (config.
  /// capture_scalar_outputs), or none when item() must break the graph instead.
  virtual Value captureItem(const Value& x) = 0;
};

}  // namespace tessel::interp
