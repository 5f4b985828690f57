// EagerEmitter: handles index a vector of tensors.
#include "backends/autodiff/eager_emitter.h"

#include <algorithm>
#include <unordered_set>

#include "backends/backend.h"
#include "backends/autodiff/tape.h"
#include "backends/dispatch.h"

namespace tessel::backends::autodiff {

Handle EagerEmitter::add(Tensor t) {
  values_.push_back(std::move(t));
  return static_cast<Handle>(values_.size() - 1);
}

Var EagerEmitter::wrap(const Tensor& t) {
  auto [it, fresh] = wrapped_.try_emplace(t.id(), 0);
  if (fresh) it->second = add(t);
  pinned_ = std::max(pinned_, static_cast<size_t>(it->second) + 1);
  return Var(this, it->second);
}

Handle EagerEmitter::op(shapes::OpKind op, std::span<const Handle> inputs,
                        const shapes::OpAttrs& attrs) {
  std::vector<Tensor> in;
  in.reserve(inputs.size());
  for (Handle h : inputs) in.push_back(values_[h]);
  return add(dispatch(op, in, attrs).at(0));
}

shapes::SymShape EagerEmitter::shape(Handle h) const {
  const Dims& d = values_[h].shape();
  return shapes::SymShape(d.begin(), d.end());
}

Handle EagerEmitter::constant(double v, shapes::DType dtype, Handle like) {
  Tensor c = Tensor::scalar(v, dtype);
  const Device device = values_[like].device();
  return add(device == Device::Cpu ? c : toDevice(c, device));
}

Handle EagerEmitter::create(shapes::OpKind op, const shapes::OpAttrs& attrs, Handle like) {
  return add(dispatch(op, {}, attrs, values_[like].device()).at(0));
}

Handle EagerEmitter::replayRand(const RngState& rng, const shapes::SymShape& shape, Handle like) {
  RngState now = rngState();
  setRngState(rng);
  shapes::OpAttrs a;
  a.shape = shape;
  // The same Philox words on every device (Note in create.comp), so the mask is the forward's.
  Tensor u = dispatch(shapes::OpKind::Rand, {}, a, values_[like].device()).at(0);
  setRngState(now);
  return add(u);
}

void EagerEmitter::release(std::span<const Handle> live) {
  if (values_.size() < nextSweep_) return;
  std::unordered_set<Handle> keep(live.begin(), live.end());
  for (size_t h = pinned_; h < values_.size(); ++h)
    if (!keep.count(static_cast<Handle>(h))) values_[h] = Tensor();
  nextSweep_ = values_.size() * 2;
}

// gradients() takes its own tape off the stack first, so any tape still active records the
// backward's ops.
bool EagerEmitter::recordedForHigherOrder() const {
  return anyTapeActive();
}

}  // namespace tessel::backends::autodiff
