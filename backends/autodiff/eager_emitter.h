// EagerEmitter: gradient rules run on concrete tensors through dispatch() (so that active
// tapes record them and grad(grad(f)) works).
#pragma once

#include <unordered_map>
#include <vector>

#include "backends/autodiff/emitter.h"
#include "backends/tensor.h"

namespace tessel::backends::autodiff {

class EagerEmitter final : public Emitter {
 public:
  /// The value for t; the same handle for every copy of one tensor (Tensor::id()). Wrapped
  /// tensors are never released.
  Var wrap(const Tensor& t);
  const Tensor& tensor(Handle h) const { return values_[h]; }
  Tensor tensor(const Var& v) const { return values_[v.handle()]; }

  Handle op(shapes::OpKind op, std::span<const Handle> inputs,
            const shapes::OpAttrs& attrs) override;
  shapes::SymShape shape(Handle h) const override;
  shapes::DType dtype(Handle h) const override { return values_[h].dtype(); }
  Handle constant(double v, shapes::DType dtype, Handle like) override;
  bool recordedForHigherOrder() const override;
  Handle create(shapes::OpKind op, const shapes::OpAttrs& attrs, Handle like) override;
  Handle replayRand(const RngState& rng, const shapes::SymShape& shape, Handle like) override;
  /// Drops the tensors of handles made by op() that are not in `live` (amortized: only when the
  /// number of values has doubled since the last sweep), so backward temporaries are freed.
  void release(std::span<const Handle> live) override;

 private:
  Handle add(Tensor t);
  std::vector<Tensor> values_;
  std::unordered_map<const TensorImpl*, Handle> wrapped_;
  size_t pinned_ = 0;      // handles below this came from wrap() before any op
  size_t nextSweep_ = 64;  // sweep when values_ reaches this size
};

}  // namespace tessel::backends::autodiff
