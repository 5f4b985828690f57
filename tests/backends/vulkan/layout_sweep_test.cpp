// The layout sweep (tests/backends/layout_sweep.h) on vulkan: every op with inputs that are
// offset, transposed, stepped and expanded views of device buffers.
#include "tests/backends/layout_sweep.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::backends::vulkan {
namespace {

class LayoutSweep : public VulkanTest, public ::testing::WithParamInterface<shapes::OpKind> {};

TEST_P(LayoutSweep, ViewsGiveTheContiguousResult) {
  testing::sweepLayouts(GetParam(), Device::Vulkan);
}

INSTANTIATE_TEST_SUITE_P(AllOps, LayoutSweep, ::testing::ValuesIn(testing::allOps()),
                         [](const auto& info) { return std::string(shapes::opName(info.param)); });

}  // namespace
}  // namespace tessel::backends::vulkan
