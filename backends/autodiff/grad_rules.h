// Gradient rules: one per differentiable op, written with the Var ops of grad_ops.h so that the
// same rule runs eagerly and inside a traced graph (Note [Emitters]), and can itself be
// differentiated.
#pragma once

#include <vector>

#include "backends/autodiff/emitter.h"
#include "backends/autodiff/tape.h"

namespace tessel::backends::autodiff {

/// The ops with a hand-written gradient rule; those of ops/elementwise.ops have formulas
/// (grad_formula.cpp). Every other op is non-differentiable.
// clang-format off
#define TESSEL_DIFFERENTIABLE_OPS(X)                                                          \
  X(Add) X(Sub) X(Mul) X(Div) X(Mod) X(Pow) X(Maximum) X(Minimum)                             \
  X(Where) X(Clamp)                                                                           \
  X(Sum) X(Mean) X(Max) X(Min) X(Cumsum) X(Cumprod)                                          \
  X(Reshape) X(Transpose) X(Permute) X(Unsqueeze) X(Squeeze) X(Flatten) X(Expand) X(Cat)      \
  X(Stack) X(Slice) X(Select)                                                                 \
  X(IndexSelect) X(Gather) X(MaskedSelect) X(MaskedScatter)                                   \
  X(IndexAdd) X(IndexCopy) X(Scatter) X(ScatterAdd) X(ScatterReduce)                          \
  X(Matmul) X(Softmax) X(LogSoftmax) X(LayerNorm) X(Linear) X(MseLoss) X(CrossEntropy)        \
  X(Dropout) X(Cast) X(Contiguous)                                                             \
  X(RepeatInterleave) X(SegmentReduce)                                                        \
  X(Conv2d) X(Conv2dBackwardInput) X(Conv2dBackwardWeight) X(Attention)                      \
  X(MaxPool2d) X(AvgPool2d) X(AdaptiveAvgPool2d) X(Interpolate)                              \
  X(AvgPool2dBackward) X(AdaptiveAvgPool2dBackward) X(InterpolateBackward) X(GeluBackward)   \
  X(MaxPool2dBackward) X(MaxPool2dDoubleBackward)
// clang-format on

/// Given an entry and the gradient of its output, the gradient of each input (an undefined
/// Var where none flows, e.g. integer operands). Results may still carry broadcast dims;
/// backward() sums them down to the input's shape.
using GradRule = std::vector<Var> (*)(const GradEntry& entry, const Var& grad);

#define TESSEL_X(Op) std::vector<Var> grad##Op(const GradEntry& e, const Var& g);
TESSEL_DIFFERENTIABLE_OPS(TESSEL_X)
#undef TESSEL_X

/// The rule for op, or nullptr when op is not differentiable.
GradRule gradRule(shapes::OpKind op);

}  // namespace tessel::backends::autodiff
