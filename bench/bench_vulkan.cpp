// bench_vulkan: the vulkan backend on lavapipe or a GPU (docs/perf.md, "vulkan"): elementwise
// bandwidth, reductions, f32 matmul throughput, the host cost of recording one eager dispatch
// and of one round trip.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <vector>

#include "backends/dispatch.h"
#include "backends/vulkan/vulkan.h"

namespace {

using tessel::backends::Dims;
using tessel::backends::Tensor;
using tessel::backends::call;
using tessel::shapes::OpKind;
namespace vk = tessel::backends::vulkan;

Tensor deviceTensor(Dims shape, float v) {
  std::vector<float> data(tessel::backends::numelOf(shape), v);
  return vk::toVulkan(Tensor::fromData(std::span<const float>(data), shape));
}

bool ready(benchmark::State& state) {
  if (vk::registerVulkanBackend()) return true;
  state.SkipWithError("no Vulkan device");
  return false;
}

// c = a + b over n floats, waiting for the device each time: 12 bytes per element moved.
void BM_VulkanAddF32(benchmark::State& state) {
  if (!ready(state)) return;
  const int64_t n = state.range(0);
  Tensor a = deviceTensor({n}, 1.0f), b = deviceTensor({n}, 2.0f);
  for (auto _ : state) {
    Tensor c = call(OpKind::Add, {a, b});
    vk::synchronize();
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(state.iterations() * n * 12);
}
BENCHMARK(BM_VulkanAddF32)->Arg(1 << 20)->Arg(1 << 22)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();

// Reductions of 4096 x 4096 f32 (64 MiB read, 4 bytes per element), waiting for the device:
// arg 0 sums everything (tree mode), 1 sums each row (serial mode: 4096 short rows), 2 sums
// each column (column mode); Note [Reduction modes] in backends/vulkan/ops_reduce.cpp. The
// cpu backend's sum of the same tensor runs in BM_CpuSumF32 for the same-run ratio.
tessel::shapes::OpAttrs reduceAttrs(int64_t kind) {
  tessel::shapes::OpAttrs a;
  if (kind == 1) a.dims = {1};
  if (kind == 2) a.dims = {0};
  return a;
}
void BM_VulkanSumF32(benchmark::State& state) {
  if (!ready(state)) return;
  Tensor x = deviceTensor({4096, 4096}, 0.5f);
  const auto attrs = reduceAttrs(state.range(0));
  for (auto _ : state) {
    Tensor s = call(OpKind::Sum, {x}, attrs);
    vk::synchronize();
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(state.iterations() * x.numel() * 4);
}
BENCHMARK(BM_VulkanSumF32)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CpuSumF32(benchmark::State& state) {
  std::vector<float> data(4096 * 4096, 0.5f);
  Tensor x = Tensor::fromData(std::span<const float>(data), {4096, 4096});
  const auto attrs = reduceAttrs(state.range(0));
  for (auto _ : state) {
    Tensor s = call(OpKind::Sum, {x}, attrs);
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(state.iterations() * x.numel() * 4);
}
BENCHMARK(BM_CpuSumF32)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Context for the figures in the same run: the host's STREAM-like triad (a = b + s * c, 12
// bytes per element, as bench_tensor's BM_Triad) and the cpu backend's (OpenBLAS) matmul.
__attribute__((optimize("O3"))) void triad(float* __restrict a, const float* __restrict b,
                                           const float* __restrict c, float s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
void BM_HostTriad(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(n, 0.0f), b(n, 1.0f), c(n, 2.0f);
  for (auto _ : state) {
    triad(a.data(), b.data(), c.data(), 3.0f, n);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n * 12);
}
BENCHMARK(BM_HostTriad)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CpuMatmulF32(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> da(n * n, 0.5f), db(n * n, 0.25f);
  Tensor a = Tensor::fromData(std::span<const float>(da), {n, n});
  Tensor b = Tensor::fromData(std::span<const float>(db), {n, n});
  for (auto _ : state) {
    Tensor c = call(OpKind::Matmul, {a, b});
    benchmark::DoNotOptimize(c);
  }
  state.counters["GFLOP/s"] = benchmark::Counter(double(2 * n * n * n) * state.iterations() / 1e9,
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CpuMatmulF32)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_VulkanMatmulF32(benchmark::State& state) {
  if (!ready(state)) return;
  const int64_t n = state.range(0);
  Tensor a = deviceTensor({n, n}, 0.5f), b = deviceTensor({n, n}, 0.25f);
  for (auto _ : state) {
    Tensor c = call(OpKind::Matmul, {a, b});
    vk::synchronize();
    benchmark::DoNotOptimize(c);
  }
  state.counters["GFLOP/s"] = benchmark::Counter(double(2 * n * n * n) * state.iterations() / 1e9,
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_VulkanMatmulF32)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

// Host time to record one eager add of 4 floats (shape rule, allocation, push descriptors,
// push constants, barrier, vkCmdDispatch); the device runs the batch outside the timing.
void BM_VulkanDispatchHostCost(benchmark::State& state) {
  if (!ready(state)) return;
  Tensor a = deviceTensor({4}, 1.0f);
  int pending = 0;
  for (auto _ : state) {
    Tensor c = call(OpKind::Add, {a, a});
    benchmark::DoNotOptimize(c);
    if (++pending == 256) {
      state.PauseTiming();
      vk::synchronize();
      pending = 0;
      state.ResumeTiming();
    }
  }
  vk::synchronize();
}
BENCHMARK(BM_VulkanDispatchHostCost);

// The fixed cost of one round trip: a 4-element add recorded, submitted and waited for, and
// its result copied back to the host (what `print(x + 1)` or `.item()` pays on a tiny tensor).
void BM_VulkanRoundTrip(benchmark::State& state) {
  if (!ready(state)) return;
  Tensor a = deviceTensor({4}, 1.0f);
  for (auto _ : state) {
    Tensor c = vk::toCpu(call(OpKind::Add, {a, a}));
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_VulkanRoundTrip)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (vk::registerVulkanBackend()) std::printf("device: %s\n", vk::vulkanStats().deviceName.c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
