// TraceTape: grad() while a @compile function is traced. It records the ops the tracer emits
// on watched values and runs the gradient rules (backends/autodiff) through emitOp, so the
// backward ops become nodes of the same graph as the forward (language.md, "Differentiation").
#pragma once

#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/autodiff/emitter.h"
#include "interp/values/value.h"

namespace tessel::interp {

// Note [Trace tapes]
// The eager Tape sees dispatch(); while tracing nothing is dispatched, so the tracer offers
// every op it adds to the graph to the active trace tapes (recordOnTraceTapes). Values are
// identified by their graph ValueId, which is also the Emitter handle. Like eager tapes, trace
// tapes stack and all of them see every op, so the backward ops of an inner grad are recorded
// on an outer one; a tape is taken off the stack while its own backward runs.
class TraceTape final : public backends::autodiff::Emitter {
 public:
  /// A fresh traced value for a tensor or float leaf, which gradients() can differentiate
  /// against.
  Value watch(const Value& leaf);
  /// Records the op when one of its operands (fake tensors) is tracked.
  void record(shapes::OpKind op, std::span<const Value> operands, const shapes::OpAttrs& attrs,
              const Value& output);
  /// The gradient of `output` (a one-element f32 tensor value) with respect to each watched
  /// value in `wrt`, as traced values; the errors of backends::autodiff::backward().
  std::vector<Value> gradients(const Value& output, std::span<const Value> wrt);

  // Emitter: ops go through emitOp into the tracer.
  backends::autodiff::Handle op(shapes::OpKind op, std::span<const backends::autodiff::Handle> in,
                                const shapes::OpAttrs& attrs) override;
  shapes::SymShape shape(backends::autodiff::Handle h) const override;
  shapes::DType dtype(backends::autodiff::Handle h) const override;
  backends::autodiff::Handle constant(double v, shapes::DType dtype,
                                      backends::autodiff::Handle like) override;
  bool recordedForHigherOrder() const override;
  backends::autodiff::Handle create(shapes::OpKind op, const shapes::OpAttrs& attrs,
                                    backends::autodiff::Handle like) override;
  backends::autodiff::Handle replayRand(const backends::RngState& rng,
                                        const shapes::SymShape& shape,
                                        backends::autodiff::Handle like) override;

  /// The tape this one was pushed over (TraceContext::tapes is a stack linked through them).
  static TraceTape*& below(TraceTape& t) { return t.below_; }

 private:
  backends::autodiff::Var var(const Value& fake);
  backends::autodiff::Handle handleOf(const Value& v);
  std::unordered_map<const void*, backends::autodiff::Handle> handles_;
  std::vector<backends::autodiff::GradEntry> entries_;
  std::unordered_set<backends::autodiff::Handle> tracked_;
  std::unordered_map<backends::autodiff::Handle, Value> values_;
  TraceTape* below_ = nullptr;
};

/// Makes `tape` see the traced ops of this thread for the scope's lifetime; scopes nest.
class TraceTapeScope {
 public:
  explicit TraceTapeScope(TraceTape& tape);
  ~TraceTapeScope();
  TraceTapeScope(const TraceTapeScope&) = delete;
  TraceTapeScope& operator=(const TraceTapeScope&) = delete;

 private:
  TraceTape* tape_;
};

/// True when a trace tape is active on this thread (the tracer's fast check).
bool anyTraceTapeActive();
/// Offers a traced op (operands and output are fake tensor values) to every active trace tape.
void recordOnTraceTapes(shapes::OpKind op, std::span<const Value> operands,
                        const shapes::OpAttrs& attrs, const Value& output);

}  // namespace tessel::interp
