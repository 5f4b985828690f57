// Tape: the record of ops that reverse-mode autodiff walks backwards.
#pragma once

#include <span>
#include <unordered_set>
#include <vector>

#include "backends/rng.h"
#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"

namespace tessel::backends::autodiff {

// Note [Tapes]
// grad(f) in the interpreter is:
//     Tape tape;
//     Tensor x = tape.watch(arg);             // a new identity for the argument
//     Tensor y;
//     { TapeScope scope(tape); y = f(x); }    // every dispatch() is offered to the tape
//     auto g = gradients(tape, y, {x});       // after the scope: runs backward ops
// A tape records an op only when one of its inputs is a watched tensor or an output of an op
// it recorded, so work on constants costs nothing. Active tapes form a thread-local stack and
// every active tape sees every op, so grad(grad(f)) works: the backward ops of the inner
// gradients() run through dispatch() too and are recorded on the outer tape, which can then
// differentiate them again. Tensors are identified by their TensorImpl (Tensor::id()); watch()
// makes a fresh identity so that f(x, x) differentiates each argument separately.

/// One recorded op.
struct TapeEntry {
  shapes::OpKind op;
  std::vector<Tensor> inputs;
  shapes::OpAttrs attrs;
  std::vector<Tensor> outputs;
  RngState rng;  // the generator before the op ran (dropout's rule replays it)
};

class Tape {
 public:
  /// A new identity for x (recorded on enclosing tapes) that this tape differentiates against.
  Tensor watch(const Tensor& x);
  /// True when gradients can flow to t through this tape.
  bool tracks(const Tensor& t) const { return tracked_.count(t.id()) > 0; }
  const std::vector<TapeEntry>& entries() const { return entries_; }
  /// Records the op if one of its inputs is tracked (called by dispatch() through the stack).
  void record(shapes::OpKind op, std::span<const Tensor> inputs, const shapes::OpAttrs& attrs,
              std::span<const Tensor> outputs, RngState rng);

 private:
  std::vector<TapeEntry> entries_;
  std::unordered_set<const TensorImpl*> tracked_;
};

/// Activates a tape on this thread for the scope's lifetime; scopes nest.
class TapeScope {
 public:
  explicit TapeScope(Tape& tape);
  ~TapeScope();
  TapeScope(const TapeScope&) = delete;
  TapeScope& operator=(const TapeScope&) = delete;

 private:
  Tape* tape_;
};

/// While alive, `tape` is taken off this thread's active stack (if it is on it) and put back
/// at the same place afterwards. gradients() uses it so that backward ops are never appended
/// to the tape it is walking.
class SuspendTape {
 public:
  explicit SuspendTape(const Tape& tape);
  ~SuspendTape();
  SuspendTape(const SuspendTape&) = delete;
  SuspendTape& operator=(const SuspendTape&) = delete;

 private:
  Tape* tape_ = nullptr;
  size_t position_ = 0;
};

/// True when some tape is active on this thread (dispatch's fast check).
bool anyTapeActive();
/// A gradient op without a gradient of its own (attention's and layer_norm's fused backward
/// ops, which their rules replace by composite formulas while another tape records): a tape
/// (eager or traced) that meets one with a tracked operand is taking a second derivative
/// through it, and skipping it would make that silently wrong, so it calls
/// refuseSecondDerivative instead.
bool lacksSecondDerivative(shapes::OpKind op);
[[noreturn]] void refuseSecondDerivative(shapes::OpKind op);
/// Offers an op to every active tape.
void recordOnActiveTapes(shapes::OpKind op, std::span<const Tensor> inputs,
                         const shapes::OpAttrs& attrs, std::span<const Tensor> outputs,
                         RngState rng);

/// Reverse mode: the gradient of `output` (a one-element f32 tensor) with respect to each of
/// `wrt`, shaped like it; zeros for a tensor the output does not depend on. Call it after the
/// tape's scope has closed. Errors: ShapeError when output has more than one element,
/// TypeError when it or a wrt tensor is not f32.
std::vector<Tensor> gradients(const Tape& tape, const Tensor& output, std::span<const Tensor> wrt);

/// Whether an op has a gradient rule (comparisons, argmax, nonzero, randint... do not).
bool isDifferentiable(shapes::OpKind op);

}  // namespace tessel::backends::autodiff
