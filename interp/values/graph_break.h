// Graph breaks (compiler.md, "Graph breaks"): the places where a statement needs what a trace
// does not have (a tensor's data, a side effect that must happen at every call), and the
// signal that carries them to the compiler (interp/compile/regions.h).
#pragma once

#include <exception>
#include <string>

#include "interp/values/trace_context.h"
#include "shapes/user_error.h"

namespace tessel::interp {

/// A statement that cannot be put in a graph. The tracer throws it (TraceHooks::graphBreak);
/// it is deliberately not a UserError, so that the evaluator's handlers, which turn user
/// errors into script errors at a span, let it pass up to the compiler that catches it.
class GraphBreak : public std::exception {
 public:
  GraphBreak(ErrorKind kind, std::string reason) : kind_(kind), reason_(std::move(reason)) {}
  ErrorKind kind() const { return kind_; }
  const std::string& reason() const { return reason_; }
  const char* what() const noexcept override { return reason_.c_str(); }

 private:
  ErrorKind kind_;
  std::string reason_;
};

/// Reports that the running statement needs real data or an eager side effect. Outside a
/// trace it returns and the caller goes on eagerly. While tracing it does not return: the
/// tracer ends its graph before this statement (GraphBreak) or, under `fullgraph = true`,
/// fails with a UserError of `kind` (a branch on data: DataDependentError).
void graphBreak(ErrorKind kind, const std::string& reason);

}  // namespace tessel::interp
