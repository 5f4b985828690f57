// The layout sweep (layout_sweep.h) on the cpu: every op with inputs that are offset,
// transposed, stepped and expanded views. The tpu's eager kernels are the cpu's.
#include "tests/backends/layout_sweep.h"

namespace tessel::backends::testing {
namespace {

class LayoutSweep : public ::testing::TestWithParam<shapes::OpKind> {};

TEST_P(LayoutSweep, ViewsGiveTheContiguousResult) {
  sweepLayouts(GetParam(), Device::Cpu);
}

INSTANTIATE_TEST_SUITE_P(AllOps, LayoutSweep, ::testing::ValuesIn(allOps()),
                         [](const auto& info) { return std::string(shapes::opName(info.param)); });

}  // namespace
}  // namespace tessel::backends::testing
