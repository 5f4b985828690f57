// Gradient rules of pooling and resizing. Each forward op's gradient is its backward op of the
// table ([grad, x] -> x's shape, same attributes), so a compiled step runs one kernel for it.
// avg/adaptive/interpolate are linear maps and their backward ops are the transposes: the
// gradient of a backward op with respect to its grad operand is the forward op again (double
// backward). max_pool2d_backward depends on x through the choice of maximum only (no gradient
// there, as PyTorch's for the argmax) and is linear in its grad: its transpose is
// max_pool2d_double_backward (the grad read at each argmax), and that one's is
// max_pool2d_backward again, so max pooling is differentiable to any order.
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"
#include "shapes/pool_geometry.h"

namespace tessel::backends::autodiff {

namespace {

constexpr int kGap = int(OpKind::MaxPool2dBackward) - int(OpKind::MaxPool2d);

std::vector<Var> forwardGrad(const GradEntry& e, const Var& g) {
  const OpKind back = OpKind(int(e.op) + kGap);
  return {poolOp(back, {g, e.inputs[0]}, e.attrs)};
}

// d/dgrad of a linear backward op: the forward op on the incoming gradient; x only gave shapes.
std::vector<Var> backwardGrad(const GradEntry& e, const Var& gg) {
  return {poolOp(shapes::poolForward(e.op), {gg}, e.attrs), Var()};
}

}  // namespace

std::vector<Var> gradMaxPool2d(const GradEntry& e, const Var& g) {
  return forwardGrad(e, g);
}
std::vector<Var> gradAvgPool2d(const GradEntry& e, const Var& g) {
  return forwardGrad(e, g);
}
std::vector<Var> gradAdaptiveAvgPool2d(const GradEntry& e, const Var& g) {
  return forwardGrad(e, g);
}
std::vector<Var> gradInterpolate(const GradEntry& e, const Var& g) {
  return forwardGrad(e, g);
}
std::vector<Var> gradMaxPool2dBackward(const GradEntry& e, const Var& gg) {
  return {poolOp(OpKind::MaxPool2dDoubleBackward, {gg, e.inputs[1]}, e.attrs), Var()};
}
std::vector<Var> gradMaxPool2dDoubleBackward(const GradEntry& e, const Var& g) {
  return {poolOp(OpKind::MaxPool2dBackward, {g, e.inputs[1]}, e.attrs), Var()};
}
std::vector<Var> gradAvgPool2dBackward(const GradEntry& e, const Var& g) {
  return backwardGrad(e, g);
}
std::vector<Var> gradAdaptiveAvgPool2dBackward(const GradEntry& e, const Var& g) {
  return backwardGrad(e, g);
}
std::vector<Var> gradInterpolateBackward(const GradEntry& e, const Var& g) {
  return backwardGrad(e, g);
}

}  // namespace tessel::backends::autodiff
