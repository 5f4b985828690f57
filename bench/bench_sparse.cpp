// Benchmarks of the scatter, scan, jagged and sampling ops on the cpu (docs/perf.md, "sparse,
// scan and sort ops"): each op through eager dispatch (a fresh output per call, as in a
// script) on 1 thread, beside a STREAM-like triad on the same arrays for the machine's
// bandwidth.
// bench/torch_sparse_baseline.py times PyTorch 1.13 on the same sizes.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "backends/cpu/scatter_rows.h"
#include "backends/dispatch.h"
#include "backends/storage.h"
#include "bench/bench_util.h"

namespace {

using tessel::backends::Tensor;
using tessel::bench::randomTensor;
using tessel::shapes::OpAttrs;
using tessel::shapes::OpKind;

constexpr int64_t k16M = int64_t{1} << 24;

void setBytes(benchmark::State& state, double bytesPerIteration) {
  state.counters["GB/s"] =
      benchmark::Counter(bytesPerIteration, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

__attribute__((optimize("O3"))) void triad(float* __restrict a, const float* __restrict b,
                                           const float* __restrict c, float s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

// The triad on 16M floats: the machine's sustainable bandwidth (2 reads and 1 write).
void BM_Triad(benchmark::State& state) {
  auto alloc = [] { return tessel::backends::Storage::allocate(k16M * sizeof(float)); };
  auto sa = alloc(), sb = alloc(), sc = alloc();
  float* a = static_cast<float*>(sa->data());
  float* b = static_cast<float*>(sb->data());
  float* c = static_cast<float*>(sc->data());
  for (int64_t i = 0; i < k16M; ++i) a[i] = 0, b[i] = 1, c[i] = 2;
  for (auto _ : state) {
    triad(a, b, c, 3.0f, k16M);
    benchmark::DoNotOptimize(a);
    benchmark::ClobberMemory();
  }
  setBytes(state, 3.0 * k16M * sizeof(float));
}
BENCHMARK(BM_Triad)->Unit(benchmark::kMillisecond);

__attribute__((optimize("O3"))) void copy(float* __restrict a, const float* __restrict b,
                                          int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = b[i];
}

// STREAM's copy on 16M floats (1 read and 1 write): the reference for the scans, which move the
// same bytes.
void BM_Copy(benchmark::State& state) {
  auto sa = tessel::backends::Storage::allocate(k16M * sizeof(float));
  auto sb = tessel::backends::Storage::allocate(k16M * sizeof(float));
  float* a = static_cast<float*>(sa->data());
  float* b = static_cast<float*>(sb->data());
  for (int64_t i = 0; i < k16M; ++i) a[i] = 0, b[i] = 1;
  for (auto _ : state) {
    copy(a, b, k16M);
    benchmark::DoNotOptimize(a);
    benchmark::ClobberMemory();
  }
  setBytes(state, 2.0 * k16M * sizeof(float));
}
BENCHMARK(BM_Copy)->Unit(benchmark::kMillisecond);

// cumsum of 16M floats (one row): reads 4 and writes 4 bytes per element.
void BM_Cumsum16M(benchmark::State& state) {
  Tensor x = randomTensor({k16M});
  OpAttrs a;
  a.dim = 0;
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Cumsum, {x}, a));
  setBytes(state, 8.0 * k16M);
}
BENCHMARK(BM_Cumsum16M)->Unit(benchmark::kMillisecond);

// cumsum over the rows of [4096, 4096] (dim 0: a running sum of whole rows).
void BM_CumsumDim0(benchmark::State& state) {
  Tensor x = randomTensor({4096, 4096});
  OpAttrs a;
  a.dim = 0;
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Cumsum, {x}, a));
  setBytes(state, 8.0 * k16M);
}
BENCHMARK(BM_CumsumDim0)->Unit(benchmark::kMillisecond);

// index_add of 1M rows of 64 floats into 100K rows (random targets), and scatter_add of the
// same elements with a [1M, 64] index (each row's elements to one target row).
constexpr int64_t kRows = 1 << 20, kTargets = 100000, kCols = 64;

Tensor randomRows(int64_t n, int64_t targets) {
  OpAttrs a;
  a.shape = {n};
  a.dtype = tessel::shapes::DType::I32;
  a.scalars = {0, double(targets)};
  return tessel::backends::call(OpKind::Randint, {}, a);
}

// index_add of 1M rows of 64 floats into 100K rows, the target rows random or in order.
void indexAddRows(benchmark::State& state, bool sortedTargets) {
  Tensor x = randomTensor({kTargets, kCols}), src = randomTensor({kRows, kCols});
  Tensor idx = randomRows(kRows, kTargets);
  if (sortedTargets) std::sort(idx.data<int32_t>(), idx.data<int32_t>() + kRows);
  OpAttrs a;
  a.dim = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(tessel::backends::call(OpKind::IndexAdd, {x, idx, src}, a));
  // src and index read once, the output written once and updated in place.
  setBytes(state, 4.0 * kRows * kCols + 4.0 * kRows + 8.0 * kTargets * kCols);
}
void BM_IndexAdd(benchmark::State& state) {
  indexAddRows(state, false);
}
BENCHMARK(BM_IndexAdd)->Unit(benchmark::kMillisecond);

// What the random targets cost (Note [Random target rows]): the same index_add with its index
// sorted (identical bytes, but the target rows are visited in order), and the target-row
// updates alone (the same kernel adding one 1024-row block of source over and over: no source
// stream), which bound how close the random case can come to the triad.
void BM_IndexAddSortedTargets(benchmark::State& state) {
  indexAddRows(state, true);
}
BENCHMARK(BM_IndexAddSortedTargets)->Unit(benchmark::kMillisecond);

// The argument is the number of target rows: 100K is index_add's; the smaller ones show where
// the targets stop fitting this core's share of the caches.
void BM_TargetRowUpdatesOnly(benchmark::State& state) {
  constexpr int64_t kBlock = 1024;
  const int64_t targets = state.range(0);
  Tensor x = randomTensor({targets, kCols}), src = randomTensor({kBlock, kCols});
  Tensor idx = randomRows(kRows, targets);
  float* dst = x.data<float>();
  for (auto _ : state) {
    for (int64_t r = 0; r < kRows; r += kBlock)
      tessel::backends::cpu::indexAddRowsF32(dst, src.data<float>(), idx.data<int32_t>() + r,
                                             std::min(kBlock, kRows - r), kCols, targets, 1.0f);
    benchmark::ClobberMemory();
  }
  // The bytes index_add's count gives this part: the target read and written.
  setBytes(state, 8.0 * targets * kCols);
}
BENCHMARK(BM_TargetRowUpdatesOnly)
    ->Arg(kTargets)
    ->Arg(50000)
    ->Arg(25000)
    ->Arg(12500)
    ->Unit(benchmark::kMillisecond);

void BM_ScatterAdd(benchmark::State& state) {
  Tensor x = randomTensor({kTargets, kCols}), src = randomTensor({kRows, kCols});
  Tensor rows = randomRows(kRows, kTargets);
  OpAttrs ex;
  ex.shape = {kRows, kCols};
  OpAttrs un;
  un.dim = 1;
  Tensor idx = tessel::backends::call(
      OpKind::Contiguous,
      {tessel::backends::call(OpKind::Expand,
                              {tessel::backends::call(OpKind::Unsqueeze, {rows}, un)}, ex)});
  OpAttrs a;
  a.dim = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(tessel::backends::call(OpKind::ScatterAdd, {x, idx, src}, a));
  setBytes(state, 8.0 * kRows * kCols + 8.0 * kTargets * kCols);
}
BENCHMARK(BM_ScatterAdd)->Unit(benchmark::kMillisecond);

// A jagged batch: 16K sequences of lengths (37 i + 11) mod 64 (516K rows in all) of
// 64 floats, as flat values [T, 64] plus lengths. segment_reduce pools each sequence (sum and
// max), repeat_interleave broadcasts the pooled rows back to their tokens; bincount of 16M
// values in [0, 1000). bench/torch_sparse_baseline.py builds the same batch.
constexpr int64_t kSeqs = 16384;
Tensor jaggedLengths(int64_t& total) {
  std::vector<int32_t> v(kSeqs);
  total = 0;
  for (int64_t i = 0; i < kSeqs; ++i) total += v[i] = int32_t((37 * i + 11) % 64);
  return Tensor::fromData(std::span<const int32_t>(v), {kSeqs});
}
void BM_SegmentReduce(benchmark::State& state) {
  int64_t total;
  Tensor lengths = jaggedLengths(total);
  Tensor values = randomTensor({total, kCols});
  OpAttrs a;
  a.scatterMode = state.range(0) ? tessel::shapes::ScatterMode::Amax
                                 : tessel::shapes::ScatterMode::Sum;
  for (auto _ : state)
    benchmark::DoNotOptimize(tessel::backends::call(OpKind::SegmentReduce, {values, lengths}, a));
  setBytes(state, 4.0 * total * kCols + 4.0 * kSeqs * kCols);
}
BENCHMARK(BM_SegmentReduce)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
void BM_RepeatInterleave(benchmark::State& state) {
  int64_t total;
  Tensor lengths = jaggedLengths(total);
  Tensor pooled = randomTensor({kSeqs, kCols});
  OpAttrs a;
  a.dim = 0;
  a.shape = {total};
  for (auto _ : state)
    benchmark::DoNotOptimize(tessel::backends::call(OpKind::RepeatInterleave, {pooled, lengths}, a));
  setBytes(state, 4.0 * total * kCols + 4.0 * kSeqs * kCols);
}
BENCHMARK(BM_RepeatInterleave)->Unit(benchmark::kMillisecond);
void BM_Bincount16M(benchmark::State& state) {
  Tensor x = randomRows(k16M, 1000);
  OpAttrs a;
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Bincount, {x}, a));
  setBytes(state, 4.0 * k16M);
}
BENCHMARK(BM_Bincount16M)->Unit(benchmark::kMillisecond);

// The sampling ops (randperm, multinomial, bernoulli): a shuffle of 1M indices, draws from 64
// rows of 1000 weights with and without replacement, one draw from 1M weights, 1M coin flips.
void BM_Randperm1M(benchmark::State& state) {
  OpAttrs a;
  a.shape = {int64_t{1} << 20};
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Randperm, {}, a));
}
BENCHMARK(BM_Randperm1M)->Unit(benchmark::kMillisecond);
void multinomialBench(benchmark::State& state, tessel::backends::Dims probs, int64_t n,
                      bool replacement) {
  Tensor p = randomTensor(probs);
  OpAttrs a;
  a.shape = {n};
  a.scalars = {replacement ? 1.0 : 0.0};
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Multinomial, {p}, a));
}
void BM_Multinomial64x1000Draw100(benchmark::State& state) {
  multinomialBench(state, {64, 1000}, 100, false);
}
BENCHMARK(BM_Multinomial64x1000Draw100)->Unit(benchmark::kMillisecond);
void BM_Multinomial64x1000Replace1000(benchmark::State& state) {
  multinomialBench(state, {64, 1000}, 1000, true);
}
BENCHMARK(BM_Multinomial64x1000Replace1000)->Unit(benchmark::kMillisecond);
void BM_Multinomial1MDraw1(benchmark::State& state) {
  multinomialBench(state, {int64_t{1} << 20}, 1, false);
}
BENCHMARK(BM_Multinomial1MDraw1)->Unit(benchmark::kMillisecond);
void BM_Bernoulli1M(benchmark::State& state) {
  Tensor p = randomTensor({int64_t{1} << 20});
  for (auto _ : state) benchmark::DoNotOptimize(tessel::backends::call(OpKind::Bernoulli, {p}));
}
BENCHMARK(BM_Bernoulli1M)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
