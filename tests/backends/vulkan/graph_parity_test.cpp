// Every op of op_list.def as a compiled graph on vulkan (VulkanGraphExecutor) against the cpu
// graph executor on the same inputs, for several sizes including empty and size-1 ones, unfused
// and (elementwise ops) inside a fused chain that runs as one generated kernel. The cases are
// those of tests/backends/graph/op_parity_test.cpp (tests/backends/graph/op_parity_cases.h).
#include <map>

#include "backends/rng.h"
#include "backends/vulkan/graph_executor.h"
#include "tests/backends/graph/op_parity_cases.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::graph::testing {
namespace {

using backends::vulkan::VulkanGraphExecutor;
using backends::vulkan::toCpu;
using backends::vulkan::toVulkan;

// Runs one case: a graph built at hints (6, 4), then sizes (n, m) through the guard program
// on the cpu executor and the vulkan executor, same inputs, same random seed.
void checkParity(OpKind op, const Case& build, bool fuse) {
  // Sizes: the hint, others, size 1 and empty (where the op admits them: guards decide).
  static constexpr std::array<int64_t, 2> kSizes[] = {{6, 4}, {9, 3},  {2, 7},  {17, 5},
                                                      {1, 1}, {0, 3}, {33, 65}};
  CaseGraph c(build, fuse);
  VulkanGraphExecutor vk(c.graph, c.options);
  if (fuse) {
    EXPECT_EQ(vk.stats().fusedGroups, 1u) << vk.explain();
    EXPECT_EQ(vk.generatedKernels(), 1u) << vk.explain();
  }
  const int ran = compareWithCpuExecutor(
      op, build, fuse, c, vk, kSizes, [](const Tensor& t) { return toVulkan(t); },
      [&](const Tensor& got, const Tensor& want) {
        EXPECT_EQ(got.device(), backends::Device::Vulkan);
        // conv2d's backward weight sums thousands of products at n=33, m=65, in another order.
        const bool conv = op == OpKind::Conv2d || op == OpKind::Conv2dBackwardInput ||
                          op == OpKind::Conv2dBackwardWeight;
        const double tol = op == OpKind::Randn ? 1e-4 : conv ? 1e-3 : 2e-5;
        EXPECT_TRUE(sameTensor(toCpu(got), want, tol)) << vk.explain();
        if (fuse) {
          EXPECT_EQ(vk.vulkanRunStats().fusedFallbacks, 0u);
        }
      });
  EXPECT_GE(ran, 3) << "too few sizes admitted by the guards";
}

class VulkanGraphParity : public backends::vulkan::VulkanTest {};

TEST_F(VulkanGraphParity, EveryOpHasACase) {
  expectEveryOpHasACase();
}

TEST_F(VulkanGraphParity, EveryOpMatchesTheCpuExecutor) {
  checkEveryCase(checkParity, false);
}

// A second and third elementwise op after each, so elementwise ops run in a generated kernel.
TEST_F(VulkanGraphParity, EveryElementwiseOpMatchesWhenFused) {
  checkEveryCase(checkParity, true);
}

}  // namespace
}  // namespace tessel::graph::testing
