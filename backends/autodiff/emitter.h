// Emitter: where gradient rules send the ops they build, so that one rule per op serves eager
// autodiff (ops run through dispatch()) and tracing (ops become nodes of the traced graph).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "backends/rng.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"

namespace tessel::backends::autodiff {

// Note [Emitters]
// Gradient rules never see a Tensor: they compute with Vars, (emitter, handle) pairs, and the
// ops in grad_ops.h, which call Emitter::op. EagerEmitter (eager_emitter.h) maps handles to
// Tensors and runs dispatch(); the interpreter's trace emitter maps them to the fake tensors of
// a @compile trace and emits graph nodes. Sizes are SymInts: constants eagerly, symbols while
// tracing, so rules decide size questions through shapes::evaluate & co. like shape rules do.

/// An opaque id of a value, meaningful only to the emitter that made it.
using Handle = uint32_t;

class Emitter {
 public:
  virtual ~Emitter() = default;
  /// Runs (or records) `op` on the values and returns its single output.
  virtual Handle op(shapes::OpKind op, std::span<const Handle> inputs,
                    const shapes::OpAttrs& attrs) = 0;
  virtual shapes::SymShape shape(Handle h) const = 0;
  virtual shapes::DType dtype(Handle h) const = 0;
  /// A 0-d constant of `dtype` holding v, on the device of `like` (eager values live on a
  /// device; a constant that met them from the cpu would be a device mismatch).
  virtual Handle constant(double v, shapes::DType dtype, Handle like) = 0;
  /// A creation op (no tensor inputs: full, arange, ...) whose result lives where `like` does.
  virtual Handle create(shapes::OpKind op, const shapes::OpAttrs& attrs, Handle like) {
    (void)like;
    return this->op(op, {}, attrs);
  }
  /// rand(shape) drawn with the generator in state `rng` (dropout's rule replays its mask).
  /// A UserError where the random draws cannot be replayed (inside a traced graph).
  /// (On the device of `like`.)
  virtual Handle replayRand(const RngState& rng, const shapes::SymShape& shape, Handle like) = 0;
  /// The backward walk's hint that only `live` (and the values it was given) are still needed.
  virtual void release(std::span<const Handle> live) { (void)live; }
  /// Whether another tape records what this backward emits (a second derivative is being
  /// taken): rules whose fused op has no gradient then emit differentiable ops instead.
  virtual bool recordedForHigherOrder() const = 0;
};

/// A value of an emitter: what gradient rules compute with. A default Var is "no value" (no
/// gradient flows to that input).
class Var {
 public:
  Var() = default;
  Var(Emitter* em, Handle h) : em_(em), h_(h) {}
  bool defined() const { return em_ != nullptr; }
  Emitter& emitter() const { return *em_; }
  Handle handle() const { return h_; }
  shapes::SymShape shape() const { return em_->shape(h_); }
  shapes::DType dtype() const { return em_->dtype(h_); }
  int64_t ndim() const { return static_cast<int64_t>(shape().size()); }
  /// The size of dim d (negative wraps).
  shapes::SymInt size(int64_t d) const;
  shapes::SymInt numel() const { return shapes::product(shape()); }

 private:
  Emitter* em_ = nullptr;
  Handle h_ = 0;
};

/// One recorded op, in the terms the gradient rules read.
struct GradEntry {
  shapes::OpKind op;
  std::vector<Var> inputs;
  shapes::OpAttrs attrs;
  std::vector<Var> outputs;
  RngState rng;  // the generator before the op ran (dropout)
};

}  // namespace tessel::backends::autodiff
