// bench_vulkan_graph: compiled graphs on vulkan (docs/perf.md, "vulkan graphs"). The 20-op
// elementwise chain of tests/backends/vulkan/graph_chain.h over n floats as one generated kernel
// (VulkanGraphExecutor), the same graph unfused (the eager vulkan kernels, one dispatch per
// op, in one command buffer) and the cpu graph executor's fused loop, in the same run. Bytes
// counted: 8 per element (the chain reads x and writes y), so GB/s compare directly.
// Bandwidth-bound case: `(x * 2 + y) * 0.5` over n f32 (3 ops, 2 inputs, 1 output; 12 bytes
// per element read + written), fused, unfused and on the cpu executor, next to the eager
// AddF32 kernel (c = a + b, also 12 bytes per element) in the same run.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <vector>

#include "backends/dispatch.h"
#include "backends/graph/cpu_executor.h"
#include "backends/vulkan/graph_executor.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/shape_env.h"
#include "tests/backends/vulkan/graph_chain.h"

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

// (x * 2 + y) * 0.5: two inputs of one dynamic size, three elementwise ops.
struct Axpy {
  shapes::ShapeEnv env;
  graph::Graph g;
  Axpy() {
    shapes::ScopedShapeEnv scope(&env);
    graph::GraphBuilder b(&env);
    shapes::SymbolOptions o;
    o.dynamic = shapes::DimDynamic::Dynamic;
    auto n = env.createSymbol("n", 1024, o);
    graph::ValueId x = b.input("x", {n}, shapes::DType::F32);
    graph::ValueId y = b.input("y", {n}, shapes::DType::F32);
    auto scalar = [&](double v) { return b.constant(Tensor::scalar(v, shapes::DType::F32)); };
    using K = shapes::OpKind;
    graph::ValueId t = b.op(K::Add, {b.op(K::Mul, {x, scalar(2.0)}), y});
    b.output(b.op(K::Mul, {t, scalar(0.5)}));
    g = b.build();
  }
};
Axpy& axpy() {
  static Axpy a;
  return a;
}

Tensor hostInput(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = float(i % 1000) / 500.0f - 1.0f;
  return Tensor::fromData(std::span<const float>(v), {n});
}

// Runs `g` on n-element vulkan inputs (one per graph input), synchronizing every iteration.
void runGraphOnVulkan(benchmark::State& state, const graph::Graph& g, bool fuse,
                      int64_t bytesPerElement) {
  if (!vk::registerVulkanBackend()) {
    state.SkipWithError("no Vulkan device");
    return;
  }
  const int64_t n = state.range(0);
  graph::CompileOptions o;
  o.fusion = fuse;
  vk::VulkanGraphExecutor exe(g, o);
  std::vector<Tensor> inputs;  // separate buffers: a shared one would be read from cache
  for (size_t i = 0; i < g.inputs().size(); ++i) inputs.push_back(vk::toVulkan(hostInput(n)));
  exe.run(inputs);
  vk::synchronize();
  for (auto _ : state) {
    std::vector<Tensor> y = exe.run(inputs);
    vk::synchronize();
    benchmark::DoNotOptimize(y);
  }
  state.SetBytesProcessed(state.iterations() * n * bytesPerElement);
  state.counters["dispatches"] = double(exe.vulkanRunStats().dispatches);
}

void runVulkan(benchmark::State& state, bool fuse) { runGraphOnVulkan(state, chain().g, fuse, 8); }

void BM_VulkanGraphChain20Fused(benchmark::State& state) { runVulkan(state, true); }
void BM_VulkanGraphChain20Unfused(benchmark::State& state) { runVulkan(state, false); }

// The same on the cpu graph executor (its fused loop), for the same-run ratio.
void runGraphOnCpu(benchmark::State& state, const graph::Graph& g, int64_t bytesPerElement) {
  const int64_t n = state.range(0);
  graph::CpuGraphExecutor exe(g);
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < g.inputs().size(); ++i) inputs.push_back(hostInput(n));
  for (auto _ : state) {
    std::vector<Tensor> y = exe.run(inputs);
    benchmark::DoNotOptimize(y);
  }
  state.SetBytesProcessed(state.iterations() * n * bytesPerElement);
}

void BM_CpuGraphChain20Fused(benchmark::State& state) { runGraphOnCpu(state, chain().g, 8); }

void runAxpyVulkan(benchmark::State& state, bool fuse) {
  runGraphOnVulkan(state, axpy().g, fuse, 12);
}

void BM_VulkanGraphAxpyFused(benchmark::State& state) { runAxpyVulkan(state, true); }
void BM_VulkanGraphAxpyUnfused(benchmark::State& state) { runAxpyVulkan(state, false); }

void BM_CpuGraphAxpyFused(benchmark::State& state) { runGraphOnCpu(state, axpy().g, 12); }

// The eager contiguous add (bench_vulkan's BM_VulkanAddF32): the linear elementwise path.
void BM_VulkanEagerAddF32(benchmark::State& state) {
  if (!vk::registerVulkanBackend()) {
    state.SkipWithError("no Vulkan device");
    return;
  }
  const int64_t n = state.range(0);
  Tensor a = vk::toVulkan(hostInput(n)), b = vk::toVulkan(hostInput(n));
  for (auto _ : state) {
    Tensor c = tessel::backends::call(shapes::OpKind::Add, {a, b});
    vk::synchronize();
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(state.iterations() * n * 12);
}

BENCHMARK(BM_VulkanGraphAxpyFused)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VulkanGraphAxpyUnfused)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuGraphAxpyFused)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VulkanEagerAddF32)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();

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
