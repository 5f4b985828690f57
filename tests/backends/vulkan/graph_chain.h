// The 20-op elementwise chain of the vulkan graph tests and bench_vulkan_graph: unary ops and
// binary ops with the input and with a scalar, bounded values throughout.
#pragma once

#include "backends/graph/graph_builder.h"

namespace tessel::graph::testing {

inline ValueId elementwiseChain20(GraphBuilder& b, ValueId x) {
  using K = shapes::OpKind;
  const ValueId half = b.constant(backends::Tensor::scalar(0.5, shapes::DType::F32));
  ValueId y = x;
  auto un = [&](K k) { y = b.op(k, {y}); };
  auto bin = [&](K k, ValueId o) { y = b.op(k, {y, o}); };
  bin(K::Mul, x);     un(K::Tanh);        bin(K::Add, x);     un(K::Sigmoid);
  bin(K::Sub, x);     un(K::Abs);         un(K::Neg);         un(K::Sin);
  bin(K::Mul, half);  un(K::Cos);         bin(K::Add, x);     un(K::Relu);
  bin(K::Mul, x);     un(K::Tanh);        bin(K::Sub, x);     un(K::Sigmoid);
  bin(K::Add, x);     un(K::Abs);         un(K::Neg);         un(K::Exp);
  return y;
}

}  // namespace tessel::graph::testing
