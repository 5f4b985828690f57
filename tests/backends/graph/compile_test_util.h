// Helpers for the graph tests: random tensors, eager references, comparisons, error kinds.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backends/dispatch.h"
#include "backends/graph/cpu_executor.h"
#include "backends/graph/graph_builder.h"
#include "backends/tensor.h"
#include "shapes/guard_program.h"
#include "shapes/shape_env.h"
#include "shapes/source_loc.h"
#include "shapes/user_error.h"

namespace tessel::graph::testing {

using backends::Dims;
using shapes::DType;
using shapes::OpAttrs;
using shapes::OpKind;
using shapes::ShapeEnv;
using shapes::SymInt;
using shapes::SymShape;

/// A shape environment, current while the test builds a graph, and a builder over it.
struct Env {
  ShapeEnv env;
  shapes::ScopedShapeEnv scope{&env};
  GraphBuilder b{&env};
};

/// What kind of data a random input holds.
enum class Fill { Float, Positive, Bool, Int, Index };

/// A random tensor: Float in [-2, 2], Positive in [0.25, 3], Bool, Int in [-5, 5],
/// Index in [0, 2) (valid for every size >= 2).
inline Tensor randomTensor(std::mt19937& rng, const Dims& shape, Fill fill) {
  const int64_t n = backends::numelOf(shape);
  switch (fill) {
    case Fill::Float:
    case Fill::Positive: {
      std::uniform_real_distribution<float> d(fill == Fill::Float ? -2.0f : 0.25f,
                                              fill == Fill::Float ? 2.0f : 3.0f);
      std::vector<float> v(n);
      for (float& x : v) x = d(rng);
      return Tensor::fromData(std::span<const float>(v), shape);
    }
    case Fill::Bool: {
      std::vector<bool> v(n);
      for (size_t i = 0; i < v.size(); ++i) v[i] = rng() % 2;
      return Tensor::fromBools(v, shape);
    }
    case Fill::Int:
    case Fill::Index: {
      std::vector<int32_t> v(n);
      for (int32_t& x : v) x = fill == Fill::Int ? int32_t(rng() % 11) - 5 : int32_t(rng() % 2);
      return Tensor::fromData(std::span<const int32_t>(v), shape);
    }
  }
  return {};
}

inline Tensor eager(OpKind op, std::vector<Tensor> in, const OpAttrs& attrs = {}) {
  return backends::dispatch(op, in, attrs)[0];
}

/// Same shape and dtype; ints and bools exactly equal, floats within a relative tolerance
/// (0 means bit-for-bit), NaN equal to NaN.
inline ::testing::AssertionResult sameTensor(const Tensor& got, const Tensor& want,
                                             double tol = 1e-5) {
  if (got.shape() != want.shape()) {
    std::string g, w;
    for (int64_t d : got.shape()) g += std::to_string(d) + " ";
    for (int64_t d : want.shape()) w += std::to_string(d) + " ";
    return ::testing::AssertionFailure() << "shape [" << g << "] != [" << w << "]";
  }
  if (got.dtype() != want.dtype())
    return ::testing::AssertionFailure()
           << "dtype " << shapes::name(got.dtype()) << " != " << shapes::name(want.dtype());
  std::vector<double> a = got.toDoubles(), b = want.toDoubles();
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    const double lim = tol * std::max(1.0, std::fabs(b[i]));
    if (a[i] == b[i] || (tol > 0 && std::fabs(a[i] - b[i]) <= lim)) continue;
    return ::testing::AssertionFailure() << "element " << i << ": " << a[i] << " != " << b[i];
  }
  return ::testing::AssertionSuccess();
}

/// The kind of UserError f throws; Interrupted stands for "no error".
inline ErrorKind errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.kind();
  }
  return ErrorKind::Interrupted;
}

/// A dynamic size symbol (no duck sizing, so distinct sources stay distinct symbols).
inline SymInt dynamicSize(ShapeEnv& env, const std::string& source, int64_t hint,
                          std::optional<int64_t> max = std::nullopt) {
  shapes::SymbolOptions o;
  o.dynamic = shapes::DimDynamic::Dynamic;
  o.max = max;
  return env.createSymbol(source, hint, o);
}

inline std::vector<Tensor> runGraph(GraphExecutable& exe, std::vector<Tensor> inputs,
                                    std::vector<int64_t> symbols = {}) {
  return exe.run(inputs, symbols);
}

}  // namespace tessel::graph::testing
