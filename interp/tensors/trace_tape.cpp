// TraceTape: recording traced ops and emitting the backward through emitOp.
#include "interp/tensors/trace_tape.h"

#include <algorithm>

#include "backends/autodiff/backward.h"
#include "backends/autodiff/tape.h"
#include "interp/tensors/op_sink.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/trace_context.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace ad = backends::autodiff;
using ad::Handle;

namespace {


// What identifies a value on a tape: its graph value (fake tensors) or its lazy tpu tensor.
const void* identityOf(const Value& v) {
  auto* t = v.as<TensorObj>();
  TESSEL_ASSERT(t->fake || t->lazy, "trace tapes only see fake and tpu tensors");
  return t->lazy ? static_cast<const void*>(t->lazy.get()) : t->fake.get();
}

// Takes a tape off the active stack while its backward runs (ad::SuspendTape's twin). Scopes
// nest, so the tapes pushed meanwhile are gone again when it is put back in its place.
class Suspend {
 public:
  explicit Suspend(TraceTape* tape) {
    TraceTape** link = &traceContext().tapes;
    while (*link && *link != tape) link = &TraceTape::below(**link);
    if (!*link) return;
    tape_ = tape;
    link_ = link;
    *link = TraceTape::below(*tape);
  }
  ~Suspend() {
    if (tape_) *link_ = tape_;
  }

 private:
  TraceTape* tape_ = nullptr;
  TraceTape** link_ = nullptr;  // what pointed at the tape
};

}  // namespace

Handle TraceTape::handleOf(const Value& v) {
  auto [it, fresh] = handles_.emplace(identityOf(v), static_cast<Handle>(handles_.size()));
  return it->second;
}

ad::Var TraceTape::var(const Value& fake) {
  Handle h = handleOf(fake);
  values_.emplace(h, fake);
  return ad::Var(this, h);
}

Value TraceTape::watch(const Value& leaf) {
  Value fresh = emitOp(shapes::OpKind::Contiguous, {leaf});
  tracked_.insert(var(fresh).handle());
  return fresh;
}

void TraceTape::record(shapes::OpKind op, std::span<const Value> operands,
                       const shapes::OpAttrs& attrs, const Value& output) {
  const bool differentiable = ad::isDifferentiable(op);
  if (!differentiable && !ad::lacksSecondDerivative(op)) return;
  bool any = false;
  for (const Value& v : operands) any = any || tracked_.count(handleOf(v));
  if (!any) return;
  if (!differentiable) ad::refuseSecondDerivative(op);
  ad::GradEntry e{op, {}, attrs, {var(output)}, {}};
  for (const Value& v : operands) e.inputs.push_back(var(v));
  entries_.push_back(std::move(e));
  if (dtypeOf(output) == shapes::DType::F32) tracked_.insert(handleOf(output));
}

std::vector<Value> TraceTape::gradients(const Value& output, std::span<const Value> wrt) {
  Suspend suspend(this);
  // A result computed without tracked ops (or captured data) still needs a graph value.
  const bool onTape = isFake(output) || output.as<TensorObj>()->lazy;
  ad::Var out = var(onTape ? output : emitOp(shapes::OpKind::Contiguous, {output}));
  std::vector<ad::Var> wrtVars;
  for (const Value& w : wrt) wrtVars.push_back(var(w));
  auto tracked = [this](Handle h) { return tracked_.count(h) > 0; };
  std::vector<Value> result;
  for (const ad::Var& g : ad::backward(entries_, out, wrtVars, tracked))
    result.push_back(values_.at(g.handle()));
  return result;
}

Handle TraceTape::op(shapes::OpKind op, std::span<const Handle> in, const shapes::OpAttrs& attrs) {
  std::vector<Value> operands;
  operands.reserve(in.size());
  for (Handle h : in) operands.push_back(values_.at(h));
  return var(emitOp(op, operands, attrs)).handle();
}

shapes::SymShape TraceTape::shape(Handle h) const {
  return shapeOf(values_.at(h));
}

shapes::DType TraceTape::dtype(Handle h) const {
  return dtypeOf(values_.at(h));
}

Handle TraceTape::constant(double v, shapes::DType dtype, Handle like) {
  shapes::OpAttrs a;  // a 0-d full: constants are graph values too
  a.scalars = {v};
  a.dtype = dtype;
  return create(shapes::OpKind::Full, a, like);
}

Handle TraceTape::create(shapes::OpKind op, const shapes::OpAttrs& attrs, Handle like) {
  // Inside a trace the graph's device is the tracer's; eagerly on the tpu, a creation op must
  // be recorded there too (a host constant meeting tpu values would be a device mismatch).
  if (values_.at(like).as<TensorObj>()->lazy) return var(emitLazyOp(op, {}, attrs)).handle();
  return var(emitOp(op, {}, attrs)).handle();
}

Handle TraceTape::replayRand(const backends::RngState&, const shapes::SymShape&, Handle) {
  // Traced dropout keeps its mask as a value (Note [Traced dropout] in tensor_ops.cpp), so no
  // rule asks a trace tape to replay random words.
  TESSEL_ASSERT(false, "a trace tape was asked to replay a random op");
}

TraceTapeScope::TraceTapeScope(TraceTape& tape) : tape_(&tape) {
  TraceTape::below(tape) = traceContext().tapes;
  traceContext().tapes = tape_;
}

TraceTapeScope::~TraceTapeScope() {
  TESSEL_ASSERT(traceContext().tapes == tape_, "TraceTapeScopes closed out of order");
  traceContext().tapes = TraceTape::below(*tape_);
}

bool anyTraceTapeActive() {
  return traceContext().tapes != nullptr;
}

// gradients() suspends this tape, so any trace tape (or eager tape) still active records the
// backward's ops.
bool TraceTape::recordedForHigherOrder() const {
  return anyTraceTapeActive() || backends::autodiff::anyTapeActive();
}

void recordOnTraceTapes(shapes::OpKind op, std::span<const Value> operands,
                        const shapes::OpAttrs& attrs, const Value& output) {
  for (TraceTape* t = traceContext().tapes; t; t = TraceTape::below(*t))
    t->record(op, operands, attrs, output);
}

}  // namespace tessel::interp
