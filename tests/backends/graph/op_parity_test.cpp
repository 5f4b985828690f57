// Every op of op_list.def: one graph with symbolic sizes, run for several sizes, equals eager
// dispatch on the same inputs (the cpu backend's parity test, backends.md and style.md rule 9).
#include "backends/rng.h"
#include "op_parity_cases.h"

namespace tessel::graph::testing {
namespace {

// Runs one case: a graph built at hints (6, 4), then sizes (n, m) in kSizes through the
// guard program (checked, then bindSymbols) and the executor, against eager dispatch.
void checkParity(OpKind op, const Case& build, bool fuse) {
  static constexpr int64_t kSizes[][2] = {{6, 4}, {9, 3}, {2, 7}, {17, 5}};
  CaseGraph c(build, fuse);
  const Graph& graph = c.graph;
  CpuGraphExecutor exe(graph, c.options);
  if (fuse) {
    EXPECT_EQ(exe.stats().fusedGroups, 1u) << exe.explain();
  }
  shapes::GuardProgram guards = c.env.compileGuards();
  for (auto [n, m] : kSizes) {
    SCOPED_TRACE(std::string(shapes::opName(op)) + " at n=" + std::to_string(n) +
                 ", m=" + std::to_string(m));
    const std::vector<int64_t> sources{n, m};
    ASSERT_TRUE(guards.passes(sources)) << guards.failureReason(guards.check(sources), sources);
    EagerHarness e(1234 + uint32_t(n * 31 + m));
    e.n = n;
    e.m = m;
    backends::seed(7);
    const Tensor want = e.values[build(e)];
    backends::seed(7);
    std::vector<Tensor> got = exe.run(e.inputs, guards.bindSymbols(sources));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(sameTensor(got[0], want, 0)) << graph.toString();
  }
}

TEST(OpParity, EveryOpHasACase) {
  expectEveryOpHasACase();
}

TEST(OpParity, EveryOpMatchesEagerForSeveralSizes) {
  checkEveryCase(checkParity, false);
}

// The same cases with a second elementwise op after each, so elementwise ops run fused.
TEST(OpParity, EveryElementwiseOpMatchesEagerWhenFused) {
  checkEveryCase(checkParity, true);
}

}  // namespace
}  // namespace tessel::graph::testing
