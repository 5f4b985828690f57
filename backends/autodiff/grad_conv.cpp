// Gradient rules of conv2d and of its two backward ops. Each backward op is linear in each of
// its operands, and their adjoints are again the three conv ops (same options), so the rules
// close over the family: grad of grad traces and compiles like the first gradient.
//   y  = conv2d(x, w):            dx = backward_input(g, w),   dw = backward_weight(g, x)
//   gx = backward_input(gy, w):   dgy = conv2d(G, w),          dw = backward_weight(gy, G)
//   gw = backward_weight(gy, x):  dgy = conv2d(x, G),          dx = backward_input(gy, G)
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

std::vector<Var> gradConv2d(const GradEntry& e, const Var& g) {
  const Var &x = e.inputs[0], &w = e.inputs[1];
  std::vector<Var> grads = {conv(OpKind::Conv2dBackwardInput, g, w, e.attrs.conv, x.shape()),
                            conv(OpKind::Conv2dBackwardWeight, g, x, e.attrs.conv, w.shape())};
  if (e.inputs.size() > 2) grads.push_back(sum(g, {0, 2, 3}));
  return grads;
}

std::vector<Var> gradConv2dBackwardInput(const GradEntry& e, const Var& g) {
  const Var &gy = e.inputs[0], &w = e.inputs[1];
  return {conv(OpKind::Conv2d, g, w, e.attrs.conv),
          conv(OpKind::Conv2dBackwardWeight, gy, g, e.attrs.conv, w.shape())};
}

std::vector<Var> gradConv2dBackwardWeight(const GradEntry& e, const Var& g) {
  const Var &gy = e.inputs[0], &x = e.inputs[1];
  return {conv(OpKind::Conv2d, x, g, e.attrs.conv),
          conv(OpKind::Conv2dBackwardInput, gy, g, e.attrs.conv, x.shape())};
}

}  // namespace tessel::backends::autodiff
