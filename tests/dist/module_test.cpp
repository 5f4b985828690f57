// The `dist` module from scripts in one process of a world (label `dist`; see
// collectives_test.cpp for how CTest runs this binary): every device, @compile, compiler
// collectives' compile counts. Scripts print what must be equal on every rank, and compute
// what they expect from dist.rank() and dist.world_size().
#include <gtest/gtest.h>

#include <sstream>

#include "backends/dist/world.h"
#include "backends/vulkan/vulkan.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"

using namespace tessel;

namespace {

std::string run(const std::string& code) {
  interp::Interpreter interp;
  std::ostringstream out;
  interp.setOutput(&out);
  try {
    interp.runSource("<dist test>", code);
  } catch (const interp::ScriptError& e) {
    return out.str() + "error: " + interp::formatDiagnostic(e, interp.sources());
  }
  return out.str();
}

const char* kEveryCollective = R"(
let r = dist.rank()
let n = dist.world_size()
let t = (tensor([1.0, 2.0]) * (r + 1)).to(DEV)
let s = dist.all_reduce(t)
assert s.device == DEV, "all_reduce left " + DEV
assert s.tolist() == [n * (n + 1) / 2, n * (n + 1)], "sum"
assert dist.all_reduce(t, op = "max").tolist() == [1.0 * n, 2.0 * n], "max"
assert dist.all_reduce(t, op = "min").tolist() == [1.0, 2.0], "min"
assert dist.all_reduce(t, op = "mean").tolist() == [(n + 1) / 2, n + 1.0], "mean"
let i = tensor([r, 1]).to(DEV)
assert dist.all_reduce(i).tolist() == [n * (n - 1) // 2, n], "i32 sum"
let b = tensor([r == 0, true]).to(DEV)
assert dist.all_reduce(b, op = "min").tolist() == [n == 1, true], "bool min"
let c = dist.broadcast(t, src = n - 1)
assert c.device == DEV and c.tolist() == [1.0 * n, 2.0 * n], "broadcast"
let g = dist.all_gather(ones([r + 1], dtype = i32).to(DEV))
assert len(g) == n, "all_gather length"
for k in range(n) { assert g[k].device == DEV and g[k].shape[0] == k + 1, "all_gather part" }
dist.barrier()
print("ok", DEV)
)";

std::string onDevice(const std::string& device) {
  std::string code = kEveryCollective;
  for (size_t p; (p = code.find("DEV")) != std::string::npos;)
    code.replace(p, 3, "\"" + device + "\"");
  return run(code);
}

TEST(DistModule, RankWorldSizeInfo) {
  EXPECT_EQ(run("print(dist.rank(), dist.world_size(), len(dist.info()) > 0)\n"
                "import dist\nprint(dist.world_size())"),
            std::to_string(backends::dist::rank()) + " " +
                std::to_string(backends::dist::worldSize()) + " true\n" +
                std::to_string(backends::dist::worldSize()) + "\n");
}

TEST(DistModule, EveryCollectiveOnCpu) {
  EXPECT_EQ(onDevice("cpu"), "ok cpu\n");
}
TEST(DistModule, EveryCollectiveOnTpu) {
  EXPECT_EQ(onDevice("tpu"), "ok tpu\n");
}
TEST(DistModule, EveryCollectiveOnVulkan) {
  if (backends::vulkan::availableVulkanDevices().empty())
    GTEST_SKIP() << "no Vulkan device here (install mesa-vulkan-drivers for lavapipe)";
  EXPECT_EQ(onDevice("vulkan"), "ok vulkan\n");
}

TEST(DistModule, ArgumentErrors) {
  EXPECT_NE(run("dist.all_reduce(ones([2]), op = \"prod\")")
                .find("ValueError: dist.all_reduce(): unknown op \"prod\" (sum, max, min, mean)"),
            std::string::npos);
  EXPECT_NE(run("dist.all_gather([1, 2])").find("TypeError"), std::string::npos);
  EXPECT_NE(run("config.dist_timeout_s = 0").find("config.dist_timeout_s must be at least 1"),
            std::string::npos);
}

// A collective in a compiled function is a graph break (Note [Collectives break graphs]).
TEST(DistModule, CollectivesBreakGraphs) {
  EXPECT_EQ(run("@compile\n"
                "fn f(x) { return dist.all_reduce(x * 2, op = \"max\") + 1 }\n"
                "print(f(ones([3])).tolist(), stats(f)[\"graph_breaks\"])\n"
                "@compile(fullgraph = true)\n"
                "fn g(x) { return dist.all_reduce(x) }\n"
                "g(ones([3]))\n"),
            "[3.0, 3.0, 3.0] 1\n"
            "error: <dist test>:5:18: ValueError: dist.all_reduce() is a collective across "
            "ranks (a graph break; fullgraph = true allows none)\n"
            " 5 | fn g(x) { return dist.all_reduce(x) }\n"
            "   |                  ^~~~~~~~~~~~~~~~~~\n"
            "  in g(), called from <dist test>:6:1\n");
}

// Compiler collectives: rank r calls f with sizes 10 + 5r, then 11 + 5r. With the
// exchange the size is dynamic from the first compile on every rank: one compile each; without
// it two (the second made dynamic by automatic dynamic). A world of one has nothing to
// exchange: two compiles either way.
TEST(DistModule, CompilerCollectivesCompileOnce) {
  const char* code = R"(
config.compiler_collectives = ON
@compile
fn f(x) { return x * 2 + 1 }
let n = 10 + 5 * dist.rank()
f(ones([n]))
f(ones([n + 1]))
print(stats(f)["compiles"], stats(f)["cache_hits"])
)";
  auto withCollectives = [&](bool on) {
    std::string c = code;
    c.replace(c.find("ON"), 2, on ? "true" : "false");
    return run(c);
  };
  const bool many = backends::dist::worldSize() > 1;
  EXPECT_EQ(withCollectives(true), many ? "1 1\n" : "2 0\n");
  EXPECT_EQ(withCollectives(false), "2 0\n");
}

// Sizes equal on every rank stay static: the exchange changes nothing then.
TEST(DistModule, CompilerCollectivesKeepAgreedSizesStatic) {
  EXPECT_EQ(run("config.compiler_collectives = true\n"
                "@compile\n"
                "fn f(x) { return x.sum() }\n"
                "f(ones([8]))\n"
                "print(stats(f)[\"guards\"])\n"),
            "[\"x.shape[0] == 8\"]\n");
}

}  // namespace
