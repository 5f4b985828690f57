// Helpers shared by the Google Benchmark programs of bench/.
#pragma once

#include "backends/dispatch.h"
#include "backends/tensor.h"

namespace tessel::bench {

/// A cpu tensor of uniform [0, 1) floats (the Rand op, so every benchmark draws the same way).
inline backends::Tensor randomTensor(backends::Dims shape) {
  shapes::OpAttrs a;
  a.shape = shapes::SymShape(shape.begin(), shape.end());
  return backends::call(shapes::OpKind::Rand, {}, a);
}

}  // namespace tessel::bench
