// Helpers for the tensor tests: building tensors, running ops, comparing values, errors.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backends/dispatch.h"
#include "backends/ops.h"
#include "backends/tensor.h"
#include "shapes/user_error.h"

namespace tessel::backends::testing {

using shapes::OpAttrs;
using shapes::OpKind;

inline Tensor F(std::vector<float> v, Dims shape) {
  return Tensor::fromData(std::span<const float>(v), std::move(shape));
}
inline Tensor F(std::vector<float> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return F(std::move(v), {n});
}
inline Tensor I(std::vector<int32_t> v, Dims shape) {
  return Tensor::fromData(std::span<const int32_t>(v), std::move(shape));
}
inline Tensor I(std::vector<int32_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return I(std::move(v), {n});
}
inline Tensor B(std::vector<bool> v, Dims shape) {
  return Tensor::fromBools(v, std::move(shape));
}
inline Tensor B(std::vector<bool> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return B(std::move(v), {n});
}
/// 0, 1, 2, ... as f32 in the given shape.
inline Tensor iota(Dims shape) {
  std::vector<float> v(numelOf(shape));
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i);
  return F(v, std::move(shape));
}

inline Tensor run(OpKind op, std::vector<Tensor> in, const OpAttrs& attrs = {}) {
  return dispatch(op, in, attrs)[0];
}
inline OpAttrs dimsAttr(Dims dims, bool keepdim = false) {
  OpAttrs a;
  a.dims = std::move(dims);
  a.keepdim = keepdim;
  return a;
}
inline OpAttrs dimAttr(int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return a;
}
inline OpAttrs shapeAttr(Dims shape) {
  OpAttrs a;
  a.shape = shapes::SymShape(shape.begin(), shape.end());
  return a;
}

inline void expectValues(const Tensor& t, const std::vector<double>& want, double tol = 1e-5) {
  std::vector<double> got = t.toDoubles();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
      continue;
    }
    if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "at " << i;
      continue;
    }
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i]))) << "at " << i;
  }
}

/// Runs f, expects a UserError of `kind` whose message contains every one of `parts`.
template <class F>
void expectUserError(F&& f, ErrorKind kind, std::vector<std::string> parts = {}) {
  try {
    f();
    ADD_FAILURE() << "expected " << errorKindName(kind);
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    for (const std::string& p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
          << "message '" << e.what() << "' lacks '" << p << "'";
  }
}

}  // namespace tessel::backends::testing
