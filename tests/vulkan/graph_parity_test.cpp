// Every op of op_list.def as a compiled graph on vulkan (VulkanGraphExecutor) against the cpu
// graph executor on the same inputs, for several sizes including empty and size-1 ones, unfused
// and (elementwise ops) inside a fused chain that runs as one generated kernel. The cases are
// those of tests/compile/op_parity_test.cpp (tests/compile/op_parity_cases.h).
#include <map>

#include "backends/rng.h"
#include "backends/vulkan/graph_executor.h"
#include "tests/compile/op_parity_cases.h"
#include "tests/vulkan/vk_test_util.h"

namespace tessel::graph::testing {
namespace {

using backends::vulkan::VulkanGraphExecutor;
using backends::vulkan::toCpu;
using backends::vulkan::toVulkan;

// Runs one case: a graph built at hints (6, 4), then sizes (n, m) through the guard program
// on the cpu executor and the vulkan executor, same inputs, same random seed.
void checkParity(OpKind op, const Case& build, bool fuse) {
  // Sizes: the hint, others, size 1 and empty (where the op admits them: guards decide).
  static constexpr int64_t kSizes[][2] = {{6, 4}, {9, 3}, {2, 7}, {17, 5}, {1, 1}, {0, 3},
                                          {33, 65}};
  CaseGraph c(build, fuse);
  const Graph& graph = c.graph;
  CpuGraphExecutor cpu(graph, c.options);
  VulkanGraphExecutor vk(graph, c.options);
  if (fuse) {
    EXPECT_EQ(vk.stats().fusedGroups, 1u) << vk.explain();
    EXPECT_EQ(vk.generatedKernels(), 1u) << vk.explain();
  }
  shapes::GuardProgram guards = c.env.compileGuards();
  int ran = 0;
  for (auto [n, m] : kSizes) {
    SCOPED_TRACE(std::string(shapes::opName(op)) + " at n=" + std::to_string(n) +
                 ", m=" + std::to_string(m) + (fuse ? " (fused)" : ""));
    const std::vector<int64_t> sources{n, m};
    if (!guards.passes(sources)) continue;  // e.g. index ops need n >= 2
    EagerHarness e(1234 + uint32_t(n * 31 + m));
    e.n = n;
    e.m = m;
    build(e);
    std::vector<Tensor> dev;
    for (const Tensor& t : e.inputs) dev.push_back(toVulkan(t));
    const std::vector<int64_t> syms = guards.bindSymbols(sources);
    backends::seed(7);
    std::vector<Tensor> want;
    ErrorKind cpuErr = errorOf([&] { want = cpu.run(e.inputs, syms); });
    backends::seed(7);
    std::vector<Tensor> got;
    ErrorKind vkErr = errorOf([&] { got = vk.run(dev, syms); });
    ASSERT_EQ(vkErr, cpuErr);
    if (cpuErr != ErrorKind::Interrupted) continue;
    ++ran;
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].device(), backends::Device::Vulkan);
    const double tol = op == OpKind::Randn ? 1e-4 : 2e-5;
    EXPECT_TRUE(sameTensor(toCpu(got[0]), want[0], tol)) << vk.explain();
    if (fuse) {
      EXPECT_EQ(vk.vulkanRunStats().fusedFallbacks, 0u);
    }
  }
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
