// Tape recording and the thread-local stack of active tapes.
#include "backends/autodiff/tape.h"

#include <algorithm>
#include <string>

#include "backends/dispatch.h"
#include "shapes/user_error.h"

namespace tessel::backends::autodiff {

namespace {
thread_local std::vector<Tape*> tActive;

// The forward op whose gradient op has no gradient of its own, or nullptr. Ops that are not
// differentiable by nature (argmax, comparisons, randint) stay silent constants on a tape.
// layer_norm and scaled_dot_product_attention emit their composite formulas while an outer tape
// records (grad_nn.cpp, grad_attention.cpp), so their ops should never meet a recording tape.
const char* forwardOfGradientlessOp(shapes::OpKind op) {
  switch (op) {
    case shapes::OpKind::AttentionBackward:
    case shapes::OpKind::AttentionLse:
      return "scaled_dot_product_attention";
    case shapes::OpKind::LayerNormBackward:
      return "layer_norm";
    default:
      return nullptr;
  }
}
}  // namespace

bool lacksSecondDerivative(shapes::OpKind op) {
  return forwardOfGradientlessOp(op) != nullptr;
}

void refuseSecondDerivative(shapes::OpKind op) {
  throwUserError(ErrorKind::TypeError, std::string("grad: the second derivative of ") +
                                           forwardOfGradientlessOp(op) + " is not supported (" +
                                           std::string(shapes::opName(op)) +
                                           ", in its gradient, has no gradient)");
}

Tensor Tape::watch(const Tensor& x) {
  Tensor fresh = call(shapes::OpKind::Contiguous, {x});
  tracked_.insert(fresh.id());
  return fresh;
}

void Tape::record(shapes::OpKind op, std::span<const Tensor> inputs, const shapes::OpAttrs& attrs,
                  std::span<const Tensor> outputs, RngState rng) {
  const bool differentiable = isDifferentiable(op);
  if (!differentiable && !lacksSecondDerivative(op)) return;  // before any lookup: most ops
  bool any = false;
  for (const Tensor& t : inputs) any = any || tracks(t);
  if (!any) return;
  if (!differentiable) refuseSecondDerivative(op);
  entries_.push_back({op, std::vector<Tensor>(inputs.begin(), inputs.end()), attrs,
                      std::vector<Tensor>(outputs.begin(), outputs.end()), rng});
  for (const Tensor& t : outputs)
    if (t.dtype() == DType::F32) tracked_.insert(t.id());
}

TapeScope::TapeScope(Tape& tape) : tape_(&tape) {
  tActive.push_back(tape_);
}

TapeScope::~TapeScope() {
  auto it = std::find(tActive.rbegin(), tActive.rend(), tape_);
  TESSEL_ASSERT(it != tActive.rend(), "TapeScope closed twice");
  tActive.erase(std::next(it).base());
}

SuspendTape::SuspendTape(const Tape& tape) {
  auto it = std::find(tActive.begin(), tActive.end(), &tape);
  if (it == tActive.end()) return;
  tape_ = *it;
  position_ = static_cast<size_t>(it - tActive.begin());
  tActive.erase(it);
}

SuspendTape::~SuspendTape() {
  if (tape_) tActive.insert(tActive.begin() + static_cast<std::ptrdiff_t>(position_), tape_);
}

bool anyTapeActive() {
  return !tActive.empty();
}

void recordOnActiveTapes(shapes::OpKind op, std::span<const Tensor> inputs,
                         const shapes::OpAttrs& attrs, std::span<const Tensor> outputs,
                         RngState rng) {
  for (Tape* t : tActive) t->record(op, inputs, attrs, outputs, rng);
}

}  // namespace tessel::backends::autodiff
