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

}  // namespace
}  // namespace tessel::backends::vulkan
