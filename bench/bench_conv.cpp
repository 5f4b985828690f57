// Benchmarks of conv2d (docs/perf.md, "conv2d"): forward and backward (backward data,
// backward weights and the bias gradient, as one training step needs them) through eager
// dispatch, on [32, 64, 56, 56] with a 3x3 kernel, padding 1, 64 -> 64 channels, and on small
// images [n, 3, 28, 28] -> 16 channels whose batch n changes at every call. Wall time, so
// OMP_NUM_THREADS (oneDNN's threads) counts: bench/conv_compare.py runs this beside
// bench/torch_conv_baseline.py on 1 and 2 threads and prints the ratios.
#include <benchmark/benchmark.h>

#include "backends/dispatch.h"
#include "bench/bench_util.h"

namespace {

using tessel::backends::Dims;
using tessel::backends::Tensor;
using tessel::bench::randomTensor;
using tessel::shapes::OpAttrs;
using tessel::shapes::OpKind;

OpAttrs pad1(const Dims& result = {}) {
  OpAttrs a;
  a.conv.padBegin = a.conv.padEnd = {1, 1};
  a.shape = tessel::shapes::SymShape(result.begin(), result.end());
  return a;
}

// One backward step: the three gradients of conv2d(x, w, b) given gy, in the order autodiff
// emits them, so the sum takes the bias gradient the weight backward summed and the weight
// backward the blocked gy the data backward made (Note [Conv backward reuse]).
void backward(const Tensor& gy, const Tensor& x, const Tensor& w) {
  using tessel::backends::call;
  benchmark::DoNotOptimize(call(OpKind::Conv2dBackwardInput, {gy, w}, pad1(x.shape())));
  benchmark::DoNotOptimize(call(OpKind::Conv2dBackwardWeight, {gy, x}, pad1(w.shape())));
  OpAttrs sum;
  sum.dims = {0, 2, 3};
  benchmark::DoNotOptimize(call(OpKind::Sum, {gy}, sum));
}

void BM_Conv2dForward(benchmark::State& state) {
  Tensor x = randomTensor({32, 64, 56, 56}), w = randomTensor({64, 64, 3, 3});
  Tensor b = randomTensor({64});
  for (auto _ : state)
    benchmark::DoNotOptimize(tessel::backends::call(OpKind::Conv2d, {x, w, b}, pad1()));
}
BENCHMARK(BM_Conv2dForward)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Conv2dBackward(benchmark::State& state) {
  Tensor x = randomTensor({32, 64, 56, 56}), w = randomTensor({64, 64, 3, 3});
  Tensor gy = randomTensor({32, 64, 56, 56});
  for (auto _ : state) backward(gy, x, w);
}
BENCHMARK(BM_Conv2dBackward)->Unit(benchmark::kMillisecond)->UseRealTime();

// Small images, the batch changing at every call (one cycle of 8 sizes per iteration).
constexpr int64_t kBatches[] = {16, 7, 32, 1, 24, 13, 64, 40};

void BM_Conv2dSmallForward(benchmark::State& state) {
  std::vector<Tensor> xs;
  for (int64_t n : kBatches) xs.push_back(randomTensor({n, 3, 28, 28}));
  Tensor w = randomTensor({16, 3, 3, 3}), b = randomTensor({16});
  for (auto _ : state)
    for (const Tensor& x : xs)
      benchmark::DoNotOptimize(tessel::backends::call(OpKind::Conv2d, {x, w, b}, pad1()));
}
BENCHMARK(BM_Conv2dSmallForward)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Conv2dSmallBackward(benchmark::State& state) {
  std::vector<Tensor> xs, gys;
  for (int64_t n : kBatches) {
    xs.push_back(randomTensor({n, 3, 28, 28}));
    gys.push_back(randomTensor({n, 16, 28, 28}));
  }
  Tensor w = randomTensor({16, 3, 3, 3});
  for (auto _ : state)
    for (size_t i = 0; i < xs.size(); ++i) backward(gys[i], xs[i], w);
}
BENCHMARK(BM_Conv2dSmallBackward)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
