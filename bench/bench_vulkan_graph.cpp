// bench_vulkan_graph: compiled graphs on vulkan (docs/perf.md, "vulkan graphs"). The 20-op
// elementwise chain of tests/vulkan/graph_chain.h over n floats as one generated kernel
// (VulkanGraphExecutor), the same graph unfused (the eager vulkan kernels, one dispatch per
// op, in one command buffer) and the cpu graph executor's fused loop, in the same run. Bytes
// counted: 8 per element (the chain reads x and writes y), so GB/s compare directly.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <vector>

#include "backends/graph/cpu_executor.h"
#include "backends/vulkan/graph_executor.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/shape_env.h"
#include "tests/vulkan/graph_chain.h"

namespace {

using tessel::backends::Tensor;
namespace graph = tessel::graph;
namespace shapes = tessel::shapes;
namespace vk = tessel::backends::vulkan;

struct Chain {
  shapes::ShapeEnv env;
  graph::Graph g;
  Chain() {
    shapes::ScopedShapeEnv scope(&env);
    graph::GraphBuilder b(&env);
    shapes::SymbolOptions o;
    o.dynamic = shapes::DimDynamic::Dynamic;
    graph::ValueId x = b.input("x", {env.createSymbol("n", 1024, o)}, shapes::DType::F32);
    b.output(graph::testing::elementwiseChain20(b, x));
    g = b.build();
  }
};
Chain& chain() {
  static Chain c;
  return c;
}

Tensor hostInput(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = float(i % 1000) / 500.0f - 1.0f;
  return Tensor::fromData(std::span<const float>(v), {n});
}

void runVulkan(benchmark::State& state, bool fuse) {
  if (!vk::registerVulkanBackend()) {
    state.SkipWithError("no Vulkan device");
    return;
  }
  const int64_t n = state.range(0);
  graph::CompileOptions o;
  o.fusion = fuse;
  vk::VulkanGraphExecutor exe(chain().g, o);
  Tensor x = vk::toVulkan(hostInput(n));
  exe.run({x});
  vk::synchronize();
  for (auto _ : state) {
    std::vector<Tensor> y = exe.run({x});
    vk::synchronize();
    benchmark::DoNotOptimize(y);
  }
  state.SetBytesProcessed(state.iterations() * n * 8);
  state.counters["dispatches"] = double(exe.vulkanRunStats().dispatches);
}

void BM_VulkanGraphChain20Fused(benchmark::State& state) { runVulkan(state, true); }
void BM_VulkanGraphChain20Unfused(benchmark::State& state) { runVulkan(state, false); }

void BM_CpuGraphChain20Fused(benchmark::State& state) {
  const int64_t n = state.range(0);
  graph::CpuGraphExecutor exe(chain().g);
  Tensor x = hostInput(n);
  for (auto _ : state) {
    std::vector<Tensor> y = exe.run({x});
    benchmark::DoNotOptimize(y);
  }
  state.SetBytesProcessed(state.iterations() * n * 8);
}

BENCHMARK(BM_VulkanGraphChain20Fused)->Arg(1 << 16)->Arg(1 << 20)->Arg(1 << 22)->UseRealTime();
BENCHMARK(BM_VulkanGraphChain20Unfused)->Arg(1 << 16)->Arg(1 << 20)->Arg(1 << 22)->UseRealTime();
BENCHMARK(BM_CpuGraphChain20Fused)->Arg(1 << 16)->Arg(1 << 20)->Arg(1 << 22)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (vk::registerVulkanBackend()) std::printf("device: %s\n", vk::vulkanStats().deviceName.c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
