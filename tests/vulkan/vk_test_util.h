// The fixture of the vulkan tests: skips without a device, and checks after every test that
// the validation layers reported nothing (zero messages is part of passing).
#pragma once

#include <gtest/gtest.h>

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

}  // namespace tessel::backends::vulkan
