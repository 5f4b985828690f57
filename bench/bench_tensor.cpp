// Tensor library benchmarks (docs/perf.md, "tensor (cpu)"): memory bandwidth baseline (a
// STREAM-like triad), large elementwise ops and reductions in GB/s, matmul in GFLOP/s, and the
// eager dispatch cost of a tiny op. bench/numpy_baseline.py prints the same figures for NumPy.
#include <benchmark/benchmark.h>

#include "bench/bench_util.h"

#include <memory>
#include <vector>

#include "backends/dispatch.h"
#include "backends/ops.h"
#include "backends/rng.h"
#include "backends/storage.h"

namespace {

using tessel::backends::Dims;
using tessel::backends::Tensor;
using tessel::shapes::OpAttrs;
using tessel::shapes::OpKind;

// 16M floats = 64 MiB per array: twice the L3 cache, so the figures are memory bandwidth.
constexpr int64_t kLarge = int64_t{1} << 24;

using tessel::bench::randomTensor;

void setBytes(benchmark::State& state, double bytesPerIteration) {
  state.counters["GB/s"] =
      benchmark::Counter(bytesPerIteration, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

// a[i] = b[i] + s * c[i]. Compiled at -O3 whatever the build type, so that the baseline is a
// vectorized loop like the kernels it is compared with (at -O2 GCC 12 leaves it scalar).
__attribute__((optimize("O3"))) void triad(float* __restrict a, const float* __restrict b,
                                           const float* __restrict c, float s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

// The triad on preallocated arrays: the machine's sustainable bandwidth, counted as STREAM
// does (two reads and one write per element).
void BM_Triad(benchmark::State& state) {
  auto alloc = [] { return tessel::backends::Storage::allocate(kLarge * sizeof(float)); };
  auto sa = alloc(), sb = alloc(), sc = alloc();
  float* a = static_cast<float*>(sa->data());
  float* b = static_cast<float*>(sb->data());
  float* c = static_cast<float*>(sc->data());
  for (int64_t i = 0; i < kLarge; ++i) a[i] = 0, b[i] = 1, c[i] = 2;
  const float s = 3.0f;
  for (auto _ : state) {
    triad(a, b, c, s, kLarge);
    benchmark::DoNotOptimize(a);
    benchmark::ClobberMemory();
  }
  setBytes(state, 3.0 * kLarge * sizeof(float));
}
BENCHMARK(BM_Triad)->Unit(benchmark::kMillisecond);

// Elementwise through dispatch: a fresh output per call, as every eager op.
void BM_Binary(benchmark::State& state, OpKind op) {
  Tensor x = randomTensor({kLarge}), y = randomTensor({kLarge});
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(op, {x, y}));
  setBytes(state, 3.0 * kLarge * sizeof(float));
}
BENCHMARK_CAPTURE(BM_Binary, add, OpKind::Add)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Binary, mul, OpKind::Mul)->Unit(benchmark::kMillisecond);

void BM_Exp(benchmark::State& state) {
  Tensor x = randomTensor({kLarge});
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Exp, {x}));
  setBytes(state, 2.0 * kLarge * sizeof(float));
}
BENCHMARK(BM_Exp)->Unit(benchmark::kMillisecond);

void BM_Sum(benchmark::State& state) {
  Tensor x = randomTensor({kLarge});
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Sum, {x}));
  setBytes(state, 1.0 * kLarge * sizeof(float));
}
BENCHMARK(BM_Sum)->Unit(benchmark::kMillisecond);

// Sum over the leading dim of a [4096, 4096] matrix: the row-accumulating layout.
void BM_SumDim0(benchmark::State& state) {
  Tensor x = randomTensor({4096, 4096});
  OpAttrs a;
  a.dims = {0};
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Sum, {x}, a));
  setBytes(state, 1.0 * kLarge * sizeof(float));
}
BENCHMARK(BM_SumDim0)->Unit(benchmark::kMillisecond);

void BM_Matmul(benchmark::State& state) {
  const int64_t n = state.range(0);
  Tensor a = randomTensor({n, n}), b = randomTensor({n, n});
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Matmul, {a, b}));
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
// sgemm (oneDNN, or OpenBLAS) may run on every core, so matmul is timed in wall-clock time;
// the single-threaded benchmarks use the process's CPU time, which other load on a shared
// machine disturbs less.
BENCHMARK(BM_Matmul)->Arg(512)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

// The whole eager path for x + y on 4 elements: device check, shape rule, allocation, kernel.
void BM_DispatchAdd4(benchmark::State& state) {
  Tensor x = randomTensor({4}), y = randomTensor({4});
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Add, {x, y}));
}
BENCHMARK(BM_DispatchAdd4);

}  // namespace

BENCHMARK_MAIN();
