// Benchmarks of pooling on the cpu (docs/perf.md, "pooling"): max_pool2d and
// avg_pool2d on [32, 64, 56, 56] through eager dispatch (a fresh output per call, as in a
// script), forward and forward + backward, 1 thread. bench/torch_pool_baseline.py times
// PyTorch 1.13 on the same work.
#include <benchmark/benchmark.h>

#include "backends/dispatch.h"
#include "bench/bench_util.h"

namespace {

using tessel::backends::Tensor;
using tessel::bench::randomTensor;
using tessel::shapes::OpAttrs;
using tessel::shapes::OpKind;

// range(0): kernel, range(1): stride, range(2): padding.
OpAttrs window(const benchmark::State& state) {
  OpAttrs a;
  auto& p = a.pool;
  p.kernel[0] = p.kernel[1] = state.range(0);
  p.stride[0] = p.stride[1] = state.range(1);
  p.padding[0] = p.padding[1] = state.range(2);
  return a;
}

template <OpKind K>
void BM_Pool(benchmark::State& state) {
  Tensor x = randomTensor({32, 64, 56, 56});
  const OpAttrs a = window(state);
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(K, {x}, a));
  state.SetBytesProcessed(int64_t(state.iterations()) * x.numel() * 4);
}

// Forward, then the backward op with a grad of ones (what a training step runs).
template <OpKind K, OpKind Back>
void BM_PoolTrain(benchmark::State& state) {
  Tensor x = randomTensor({32, 64, 56, 56});
  const OpAttrs a = window(state);
  Tensor g = tessel::backends::call(K, {x}, a);
  for (auto _ : state) {
    Tensor y = tessel::backends::call(K, {x}, a);
    benchmark::DoNotOptimize(tessel::backends::call(Back, {y, x}, a));
  }
}

void windows(benchmark::internal::Benchmark* b) {
  b->Args({3, 2, 1})->Args({2, 2, 0})->Args({3, 1, 1})->Unit(benchmark::kMillisecond);
}

BENCHMARK_TEMPLATE(BM_Pool, OpKind::MaxPool2d)->Apply(windows);
BENCHMARK_TEMPLATE(BM_Pool, OpKind::AvgPool2d)->Apply(windows);
BENCHMARK_TEMPLATE(BM_PoolTrain, OpKind::MaxPool2d, OpKind::MaxPool2dBackward)->Apply(windows);
BENCHMARK_TEMPLATE(BM_PoolTrain, OpKind::AvgPool2d, OpKind::AvgPool2dBackward)->Apply(windows);

}  // namespace

BENCHMARK_MAIN();
