// The cases of every op of shapes/op_list.def, shared by the cross-backend tests: inputs over
// shapes that include empty and size-1 dims, broadcasting, strided views and every dtype, with
// the op's attributes; some are errors on purpose (the error kinds must match too). The vulkan
// parity test runs each on vulkan against the cpu; the layout sweep (layout_sweep_test.cpp)
// runs each again with every input replaced by a view of the same values (offset, transposed,
// stepped, expanded) on every device.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"

namespace tessel::backends::testing {

struct Case {
  std::vector<Tensor> inputs;  // cpu tensors
  shapes::OpAttrs attrs;
  std::string what;
};

/// Random inputs from a fixed seed.
class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  // Values: f32 in [-3, 3], i32 in [-5, 5] (nonzero when asked), bool.
  Tensor tensor(const Dims& shape, DType t, bool nonzero = false) {
    const int64_t n = numelOf(shape);
    if (t == DType::F32) {
      std::vector<float> v(n);
      for (auto& x : v) x = std::uniform_real_distribution<float>(-3, 3)(rng_);
      return Tensor::fromData(std::span<const float>(v), shape);
    }
    if (t == DType::I32) {
      std::vector<int32_t> v(n);
      for (auto& x : v) {
        x = std::uniform_int_distribution<int>(-5, 5)(rng_);
        if (nonzero && x == 0) x = 1;
      }
      return Tensor::fromData(std::span<const int32_t>(v), shape);
    }
    std::vector<bool> v(n);
    for (size_t i = 0; i < v.size(); ++i) v[i] = rng_() % 2 || nonzero;
    return Tensor::fromBools(v, shape);
  }
  Dims randomShape(int maxRank, int maxDim) {
    Dims s(std::uniform_int_distribution<int>(0, maxRank)(rng_));
    for (auto& d : s) d = std::uniform_int_distribution<int>(0, maxDim)(rng_);
    return s;
  }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::mt19937 rng_;
};

/// An f32 tensor of `shape` from row-major values.
Tensor floats(std::vector<float> v, Dims shape);
/// The cases of `op` (never empty for an op of op_list.def).
std::vector<Case> casesFor(shapes::OpKind op, Gen& g);
/// "f32[2,3,] i32[4,] " for messages.
std::string describe(const Case& c);
/// Every op of op_list.def.
std::vector<shapes::OpKind> allOps();

}  // namespace tessel::backends::testing
