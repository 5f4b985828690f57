// Pipelines are built once per kernel, never per size; running out of device memory is a
// DeviceError after which the backend keeps working.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "backends/dispatch.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::backends::vulkan {
namespace {

using shapes::OpAttrs;
using shapes::OpKind;

Tensor filled(Dims shape, float v) {
  std::vector<float> data(numelOf(shape), v);
  return toVulkan(Tensor::fromData(std::span<const float>(data), shape));
}

TEST_F(VulkanTest, PipelineCountDoesNotGrowWithSizes) {
  auto runAll = [](int64_t n) {
    Tensor a = filled({n, 3}, 1.5f), b = filled({3}, 2.0f);
    Tensor s = call(OpKind::Add, {a, b});
    OpAttrs r;
    r.dims = {0};
    Tensor t = call(OpKind::Sum, {s}, r);
    Tensor m = call(OpKind::Matmul, {s, filled({3, n}, 0.5f)});
    OpAttrs sm;
    sm.dim = 1;
    Tensor sf = call(OpKind::Softmax, {m}, sm);
    return toCpu(t).toDoubles()[0] + toCpu(sf).numel();
  };
  runAll(1);  // builds the pipelines these ops use
  const uint64_t before = vulkanStats().pipelinesCreated;
  for (int64_t n = 2; n < 102; ++n) EXPECT_DOUBLE_EQ(runAll(n), 3.5 * double(n) + double(n * n));
  EXPECT_EQ(vulkanStats().pipelinesCreated, before);
}

TEST_F(VulkanTest, OutOfMemoryIsDeviceErrorAndRecoverable) {
  OpAttrs huge;
  huge.shape = {int64_t(1) << 22, int64_t(1) << 20};  // 16 TiB of f32
  huge.scalars = {1.0};
  try {
    dispatch(OpKind::Full, {}, huge, Device::Vulkan);
    FAIL() << "a 16 TiB tensor was allocated";
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::DeviceError);
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
  Tensor x = filled({4}, 2.0f);
  EXPECT_EQ(toCpu(call(OpKind::Mul, {x, x})).toDoubles(), (std::vector<double>{4, 4, 4, 4}));
}

TEST_F(VulkanTest, LargeGridSplitsOverWorkgroupLimit) {
  // 65535 * 256 elements fit in one row of workgroups; this needs a second one.
  const int64_t n = 65535 * 256 + 1000;
  Tensor x = filled({n}, 1.0f);
  Tensor y = call(OpKind::Add, {x, x});
  OpAttrs all;
  EXPECT_DOUBLE_EQ(toCpu(call(OpKind::Sum, {y}, all)).item(), 2.0 * double(n));
}

// Rows longer than one reduction pass (Note [Long arg reductions]): the extreme is found
// across chunks, the first of equal extremes wins, and NaN counts as the extreme, as on cpu.
TEST_F(VulkanTest, ArgReductionsOverLongRows) {
  const int64_t R = 3 * 524288 + 17;  // four chunks, the last one short
  std::vector<float> data(size_t(2 * R));
  for (size_t i = 0; i < data.size(); ++i) data[i] = float(i % 1009) / 1009.0f;
  data[size_t(R - 5)] = 7.0f;              // row 0: max in the short last chunk...
  data[size_t(600000)] = 7.0f;             // ...tied with an earlier one in chunk 1
  data[size_t(R + 1000000)] = -9.0f;       // row 1: min in chunk 1
  data[size_t(R + 1572870)] = std::nanf("");  // row 1: a NaN in the last chunk beats both
  const Tensor host = Tensor::fromData(std::span<const float>(data), {2, R});
  const Tensor dev = toVulkan(host);
  for (OpKind op : {OpKind::Argmax, OpKind::Argmin}) {
    for (const std::vector<int64_t>& dims : {std::vector<int64_t>{1}, {-1}, {}}) {
      OpAttrs a;
      a.dims = dims;  // {}: over the flattened tensor
      const auto cpu = call(op, {host}, a).toInts();
      const auto vk = toCpu(call(op, {dev}, a)).toInts();
      EXPECT_EQ(vk, cpu) << shapes::opName(op);
    }
  }
  OpAttrs a;
  a.dims = {1};
  EXPECT_EQ(toCpu(call(OpKind::Argmax, {dev}, a)).toInts(),
            (std::vector<int64_t>{600000, 1572870}));
  EXPECT_EQ(toCpu(call(OpKind::Argmin, {dev}, a)).toInts(), (std::vector<int64_t>{0, 1572870}));
  // Past 65535 * 256 elements, where one pass per row could not go (the old limit).
  const int64_t longR = 65535 * 256 + 100;
  std::vector<float> ramp(size_t(longR), 0.0f);
  ramp[size_t(longR - 3)] = 1.0f;
  const Tensor longRow = toVulkan(Tensor::fromData(std::span<const float>(ramp), {longR}));
  EXPECT_EQ(toCpu(call(OpKind::Argmax, {longRow}, OpAttrs{})).toInts(),
            (std::vector<int64_t>{longR - 3}));
}

// unique's sorts, the merge sort of a GPU (Note [Merge sort]: run and segment boundaries, odd
// run counts) and the radix sort of a CPU device (Note [Radix sort]: chunk boundaries, negative
// ints and floats, -0.0, ties), against cpu with NaN (sorts last; each NaN is its own value, as
// on cpu) and every dtype; sizes past the first few build no pipeline.
class UniqueSorts : public VulkanSchedulingTest {};

TEST_P(UniqueSorts, AtEverySize) {
  std::mt19937 rng(3);
  uint64_t pipelines = 0;
  for (int64_t n : {1, 2, 31, 32, 33, 257, 1000, 1025, 70001, 300007, 600011}) {
    for (int range : {3, 1 << 30}) {
      std::vector<int32_t> ints(n);
      for (auto& v : ints) v = std::uniform_int_distribution<int>(-range, range)(rng);
      std::vector<float> floats(n);
      for (auto& v : floats) v = float(std::uniform_int_distribution<int>(-range, range)(rng)) * 0.5f;
      if (n > 3) floats[n / 3] = floats[n / 2] = std::nanf("");
      if (n > 5) floats[n / 5] = -0.0f;
      std::vector<bool> bools(n);
      for (size_t i = 0; i < bools.size(); ++i) bools[i] = rng() % 3 == 0;
      for (const Tensor& host : {Tensor::fromData(std::span<const int32_t>(ints), {n}),
                                 Tensor::fromData(std::span<const float>(floats), {n}),
                                 Tensor::fromBools(bools, {n})}) {
        SCOPED_TRACE("n " + std::to_string(n) + " range " + std::to_string(range) + " " +
                     std::string(name(host.dtype())));
        const std::vector<double> want = call(OpKind::Unique, {host}).toDoubles();
        const std::vector<double> got = toCpu(call(OpKind::Unique, {toVulkan(host)})).toDoubles();
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i)
          if (!(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])))) {
            ADD_FAILURE() << "element " << i << ": cpu " << want[i] << " vulkan " << got[i];
            break;
          }
      }
    }
    if (n == 2) pipelines = vulkanStats().pipelinesCreated;
  }
  EXPECT_EQ(vulkanStats().pipelinesCreated, pipelines);
}

TESSEL_BOTH_SCHEDULINGS(UniqueSorts);

// Transposed, sliced and batched operands of products large enough to be copied to aligned
// layouts first (Note [Matmul operand copies]), and the same below the copy threshold.
TEST_F(VulkanTest, MatmulOfStridedOperands) {
  std::mt19937 rng(9);
  auto random = [&](Dims shape) {
    std::vector<float> v(numelOf(shape));
    for (auto& x : v) x = std::uniform_real_distribution<float>(-1, 1)(rng);
    return Tensor::fromData(std::span<const float>(v), shape);
  };
  struct Case {
    Tensor a, b;
    std::function<Tensor(const Tensor&)> va, vb;
  };
  auto id = [](const Tensor& t) { return t; };
  auto t01 = [](const Tensor& t) { return t.transpose(0, 1); };
  auto t12 = [](const Tensor& t) { return t.transpose(1, 2); };
  const Case cases[] = {
      {random({96, 128}), random({96, 132}), t01, id},                        // a^T b
      {random({128, 96}), random({132, 96}), id, t01},                        // a b^T (linear)
      {random({96, 128}), random({140, 96}), t01, t01},                       // a^T b^T
      {random({128, 96}), random({96, 141}), id,
       [](const Tensor& t) { return t.slice(1, 1, 129, 1); }},               // offset 1
      {random({3, 64, 72}), random({3, 80, 72}), id, t12},                    // batched b^T
      {random({12, 8}), random({12, 8}), t01, id},                            // small: no copy
  };
  for (const Case& c : cases) {
    const Tensor want = call(OpKind::Matmul, {c.va(c.a), c.vb(c.b)});
    const Tensor got = toCpu(call(OpKind::Matmul, {c.va(toVulkan(c.a)), c.vb(toVulkan(c.b))}));
    ASSERT_EQ(got.shape(), want.shape());
    const std::vector<double> w = want.toDoubles(), g = got.toDoubles();
    for (size_t i = 0; i < w.size(); ++i)
      if (!(std::fabs(w[i] - g[i]) <= 1e-4 + 1e-4 * std::fabs(w[i]))) {
        ADD_FAILURE() << "element " << i << ": cpu " << w[i] << " vulkan " << g[i];
        break;
      }
  }
}

TEST_F(VulkanTest, TensorsStayOnDeviceAndBatch) {
  Tensor x = filled({1000}, 1.0f);
  const uint64_t submits = vulkanStats().submits;
  Tensor y = x;
  for (int i = 0; i < 50; ++i) y = call(OpKind::Add, {y, x});
  EXPECT_EQ(y.device(), Device::Vulkan);
  EXPECT_EQ(vulkanStats().submits, submits) << "eager ops waited for the device";
  EXPECT_EQ(toCpu(y).toDoubles()[999], 51.0);
}

}  // namespace
}  // namespace tessel::backends::vulkan
