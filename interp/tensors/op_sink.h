// The one place tensor ops leave the interpreter (architecture.md, "One evaluator"): eager ops
// go to backends::dispatch; while a @compile function is being traced, a sink installed by the
// tracer receives them instead and adds them to the graph being built.
#pragma once

#include <initializer_list>
#include <span>

#include "interp/values/value.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"

namespace tessel::interp {

/// A receiver of tensor ops. Operands are tensor values or numbers (numbers are 0-d tensors).
class OpSink {
 public:
  virtual ~OpSink() = default;
  virtual Value emit(shapes::OpKind op, std::span<const Value> operands,
                     const shapes::OpAttrs& attrs) = 0;
};

/// Runs `op` on whatever receives ops on this thread: the innermost ScopedOpSink, else eager
/// dispatch. Returns the op's single output as a value.
Value emitOp(shapes::OpKind op, std::span<const Value> operands, const shapes::OpAttrs& attrs = {});
inline Value emitOp(shapes::OpKind op, std::initializer_list<Value> operands,
                    const shapes::OpAttrs& attrs = {}) {
  return emitOp(op, std::span<const Value>(operands.begin(), operands.size()), attrs);
}

/// Records `op` on the tpu's lazy segment (tpu operands, or a creation op that must live there).
Value emitLazyOp(shapes::OpKind op, std::span<const Value> operands, const shapes::OpAttrs& attrs);

/// Makes `sink` the receiver of ops on this thread for the scope's lifetime; scopes nest.
class ScopedOpSink {
 public:
  explicit ScopedOpSink(OpSink* sink);
  ~ScopedOpSink();
  ScopedOpSink(const ScopedOpSink&) = delete;
  ScopedOpSink& operator=(const ScopedOpSink&) = delete;

 private:
  OpSink* previous_;
};

/// The current sink, or nullptr when ops run eagerly.
OpSink* currentOpSink();

}  // namespace tessel::interp
