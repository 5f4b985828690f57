// Device smoke tests: registration, round trips, one op.
#include <gtest/gtest.h>

#include "backends/dispatch.h"
#include "backends/vulkan/vulkan.h"
#include "tests/vulkan/vk_test_util.h"

namespace tessel::backends::vulkan {
namespace {

TEST_F(VulkanTest, ListsDevices) {
  auto devs = availableVulkanDevices();
  ASSERT_FALSE(devs.empty());
  EXPECT_FALSE(devs[0].name.empty());
}

TEST_F(VulkanTest, RoundTrip) {
  std::vector<float> v = {1, 2, 3, 4, 5, 6};
  Tensor x = Tensor::fromData(std::span<const float>(v), {2, 3});
  Tensor d = toVulkan(x);
  EXPECT_EQ(d.device(), Device::Vulkan);
  Tensor back = toCpu(d);
  EXPECT_EQ(back.toDoubles(), x.toDoubles());
  Tensor y = toCpu(call(shapes::OpKind::Add, {d, d}));
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{2, 4, 6, 8, 10, 12}));
}

// The linear elementwise paths (Note [Linear elementwise]): eight-word steps (offsets multiple
// of 8), four-word steps (multiple of 4), scalar otherwise, with ragged tails and a broadcast
// scalar operand.
TEST_F(VulkanTest, LinearElementwiseOffsetsAndTails) {
  std::vector<float> v(2200);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i % 97) - 40.0f;
  Tensor x = Tensor::fromData(std::span<const float>(v), {int64_t(v.size())});
  Tensor d = toVulkan(x);
  Tensor s = toVulkan(Tensor::fromData(std::span<const float>(std::vector<float>{0.5f}), {}));
  for (int64_t off : {0, 4, 8, 12, 1}) {
    for (int64_t n : {2048, 2051, 2045, 7, 1}) {
      SCOPED_TRACE(std::to_string(off) + " " + std::to_string(n));
      Tensor a = d.slice(0, off, off + n, 1), b = d.slice(0, 16, 16 + n, 1);
      Tensor want = call(shapes::OpKind::Mul, {call(shapes::OpKind::Add, {x.slice(0, off, off + n, 1),
                                                                          x.slice(0, 16, 16 + n, 1)}),
                                               toCpu(s)});
      Tensor got = toCpu(call(shapes::OpKind::Mul, {call(shapes::OpKind::Add, {a, b}), s}));
      EXPECT_EQ(got.toDoubles(), want.toDoubles());
      shapes::OpAttrs toI32;
      toI32.dtype = shapes::DType::I32;
      Tensor gotI = toCpu(call(shapes::OpKind::Neg, {call(shapes::OpKind::Cast, {a}, toI32)}));
      Tensor wantI = call(shapes::OpKind::Neg, {call(shapes::OpKind::Cast, {x.slice(0, off, off + n, 1)}, toI32)});
      EXPECT_EQ(gotI.toDoubles(), wantI.toDoubles());
    }
  }
}

}  // namespace
}  // namespace tessel::backends::vulkan
