// randperm, multinomial and bernoulli on the device against the cpu under one seed(), exactly:
// every element's Philox word by its index, multinomial's integer keys and running sums (Note
// [Exact sampling keys]), under both sort schedulings (randperm and multinomial without
// replacement sort on the device); sizes across the 256-category chunks and the row passes,
// weights over the whole f32 range, and the value errors raised after the run with the cpu's
// messages.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/dispatch.h"
#include "backends/rng.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::backends::vulkan {
namespace {

using shapes::OpAttrs;
using shapes::OpKind;

class Sampling : public VulkanSchedulingTest {};

// Runs op on the cpu and then on the device from the same generator state: same values, and
// both leave the generator at the same counter.
void expectSame(OpKind op, const std::vector<Tensor>& host, const OpAttrs& a) {
  const RngState start = rngState();
  const std::vector<double> want = dispatch(op, host, a, Device::Cpu).at(0).toDoubles();
  const RngState cpuEnd = rngState();
  setRngState(start);
  std::vector<Tensor> dev;
  for (const Tensor& t : host) dev.push_back(toVulkan(t));
  const std::vector<double> got = toCpu(dispatch(op, dev, a, Device::Vulkan).at(0)).toDoubles();
  EXPECT_EQ(rngState().next, cpuEnd.next) << "the backends reserve different word counts";
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      ADD_FAILURE() << "element " << i << ": cpu " << want[i] << " vulkan " << got[i];
      return;
    }
}

OpAttrs draws(int64_t n, bool replacement) {
  OpAttrs a;
  a.shape = {n};
  a.scalars = {replacement ? 1.0 : 0.0};
  return a;
}

Tensor weights(std::mt19937& rng, int64_t rows, int64_t k, bool wideRange) {
  std::vector<float> w(size_t(rows * k));
  for (float& v : w) {
    const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
    v = kind == 0 ? 0.0f : std::uniform_real_distribution<float>(0.01f, 1.0f)(rng);
    if (wideRange && kind == 1) v *= 1e-38f;  // subnormal
    if (wideRange && kind == 2) v *= 1e30f;
  }
  return rows == 1 ? Tensor::fromData(std::span<const float>(w), Dims{k})
                   : Tensor::fromData(std::span<const float>(w), Dims{rows, k});
}

TEST_P(Sampling, RandpermMatchesCpu) {
  seed(31);
  for (int64_t n : {0, 1, 2, 255, 256, 257, 1000, 70001}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    OpAttrs a;
    a.shape = {n};
    a.dtype = DType::I32;
    expectSame(OpKind::Randperm, {}, a);
  }
}

TEST_P(Sampling, MultinomialMatchesCpu) {
  std::mt19937 rng(32);
  seed(32);
  for (bool wide : {false, true})
    for (auto [rows, k] : std::vector<std::pair<int64_t, int64_t>>{
             {1, 1}, {1, 7}, {1, 256}, {1, 257}, {3, 300}, {5, 1000}, {1, 70000}, {300, 20}}) {
      const Tensor p = weights(rng, rows, k, wide);
      int64_t nonzero = k;  // the smallest row's count of nonzero weights
      const std::vector<double> v = p.toDoubles();
      for (int64_t r = 0; r < rows; ++r) {
        int64_t c = 0;
        for (int64_t j = 0; j < k; ++j) c += v[size_t(r * k + j)] > 0;
        nonzero = std::min(nonzero, c);
      }
      if (nonzero == 0) continue;
      SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(k) + (wide ? " wide" : ""));
      expectSame(OpKind::Multinomial, {p}, draws(std::min<int64_t>(nonzero, 50), false));
      expectSame(OpKind::Multinomial, {p}, draws(nonzero, false));
      expectSame(OpKind::Multinomial, {p}, draws(3 * k + 1, true));
    }
}

TEST_P(Sampling, BernoulliMatchesCpu) {
  std::mt19937 rng(33);
  seed(33);
  for (int64_t n : {0, 1, 5, 1001}) {
    std::vector<float> p(static_cast<size_t>(n));
    for (float& v : p) v = std::uniform_real_distribution<float>(0, 1)(rng);
    if (n > 4) p[0] = 0, p[1] = 1, p[2] = -0.0f, p[3] = 1e-42f;
    expectSame(OpKind::Bernoulli, {Tensor::fromData(std::span<const float>(p), Dims{n})}, {});
  }
}

// Bad values are flagged on the device and raised after the run with the cpu's message.
TEST_P(Sampling, ValueErrorsNameTheValue) {
  auto expectError = [](OpKind op, std::vector<float> v, Dims shape, const OpAttrs& a,
                        const std::string& want) {
    SCOPED_TRACE(want);
    const Tensor p = toVulkan(Tensor::fromData(std::span<const float>(v), shape));
    try {
      call(op, {p}, a);
      ADD_FAILURE() << "no error";
    } catch (const UserError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::ValueError);
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  expectError(OpKind::Multinomial, {1, -0.5f, 2}, {3}, draws(1, true), "got -0.5");
  expectError(OpKind::Multinomial, {1, NAN, 2}, {3}, draws(1, false), "at category 1");
  expectError(OpKind::Multinomial, {1, INFINITY}, {2}, draws(1, true), "finite");
  expectError(OpKind::Multinomial, {1, 2, 0, 0}, {2, 2}, draws(1, true), "sum to zero in row 1");
  expectError(OpKind::Multinomial, {1, 0, 2}, {3}, draws(3, false),
              "cannot draw 3 samples without replacement from 2");
  expectError(OpKind::Bernoulli, {0.5f, 1.5f}, {2}, {}, "got 1.5");
  expectError(OpKind::Bernoulli, {NAN}, {1}, {}, "flat index 0");
  // The session goes on: a good call after the errors.
  const Tensor ok =
      toVulkan(Tensor::fromData(std::span<const float>(std::vector<float>{0, 1}), Dims{2}));
  EXPECT_EQ(toCpu(call(OpKind::Multinomial, {ok}, draws(1, false))).toInts(),
            std::vector<int64_t>{1});
}

TESSEL_BOTH_SCHEDULINGS(Sampling);

}  // namespace
}  // namespace tessel::backends::vulkan
