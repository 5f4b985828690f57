// The fixture of the vulkan tests: skips without a device, and checks after every test that
// the validation layers reported nothing (zero messages is part of passing).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"

namespace tessel::backends::vulkan {

class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!registerVulkanBackend()) GTEST_SKIP() << "no Vulkan device on this machine";
    before_ = vulkanStats().validationMessages;
  }
  void TearDown() override {
    if (IsSkipped()) return;
    synchronize();
    EXPECT_EQ(vulkanStats().validationMessages, before_) << "validation layer messages";
  }
  uint64_t before_ = 0;
};

/// A VulkanTest run twice, with the work spread as on a GPU (param true) and as on a CPU
/// device (false) whatever this device is (setRowsInWorkgroupsForTesting; restored after), so
/// lavapipe checks the GPU choices too. Instantiate with kBothSchedulings.
class VulkanSchedulingTest : public VulkanTest, public ::testing::WithParamInterface<bool> {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (!IsSkipped()) setRowsInWorkgroupsForTesting(GetParam());
  }
  void TearDown() override {
    if (!IsSkipped()) setRowsInWorkgroupsForTesting(std::nullopt);
    VulkanTest::TearDown();
  }
};

inline std::string schedulingName(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "Gpu" : "CpuDevice";
}
#define TESSEL_BOTH_SCHEDULINGS(Suite) \
  INSTANTIATE_TEST_SUITE_P(Scheduling, Suite, ::testing::Bool(), schedulingName)

}  // namespace tessel::backends::vulkan
