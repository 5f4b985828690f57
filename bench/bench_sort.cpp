// Benchmarks of the sort and detection ops on the cpu (docs/perf.md, "sort, topk and
// nms"): sort of 1M floats (values and indices: argsort, then the values gathered), topk(k =
// 100) of 1M, nms of 5,000 boxes, through eager dispatch on 1 thread.
// bench/torch_sort_baseline.py times PyTorch 1.13 and torchvision on the same inputs.
#include <benchmark/benchmark.h>

#include <vector>

#include "backends/dispatch.h"
#include "bench/bench_util.h"

namespace {

using tessel::backends::Tensor;
using tessel::bench::randomTensor;
using tessel::shapes::OpAttrs;
using tessel::shapes::OpKind;

constexpr int64_t k1M = int64_t{1} << 20;

void BM_Sort1M(benchmark::State& state) {
  Tensor x = randomTensor({k1M});
  OpAttrs a;
  a.dim = 0;
  for (auto _ : state) {
    Tensor idx = tessel::backends::call(OpKind::Argsort, {x}, a);
    benchmark::DoNotOptimize(tessel::backends::call(OpKind::Gather, {x, idx}, a));
  }
}
BENCHMARK(BM_Sort1M)->Unit(benchmark::kMillisecond);

void BM_Topk100Of1M(benchmark::State& state) {
  Tensor x = randomTensor({k1M});
  OpAttrs a;
  a.dim = 0;
  a.descending = true;
  a.stop = tessel::shapes::SymInt(100);
  for (auto _ : state) {
    Tensor idx = tessel::backends::call(OpKind::Topk, {x}, a);
    benchmark::DoNotOptimize(tessel::backends::call(OpKind::Gather, {x, idx}, a));
  }
}
BENCHMARK(BM_Topk100Of1M)->Unit(benchmark::kMillisecond);

// 5,000 boxes of 20-99 pixels over a 1000 x 1000 image and their scores, from integer formulas
// that the Python baseline repeats exactly (no shared random generator needed).
void BM_Nms5000(benchmark::State& state) {
  constexpr int64_t n = 5000;
  std::vector<float> b, s;
  for (int64_t i = 0; i < n; ++i) {
    const float x = float(i * 7919 % 1000), y = float(i * 104729 % 1000);
    b.insert(b.end(), {x, y, x + float(20 + i * 31 % 80), y + float(20 + i * 17 % 80)});
    s.push_back(float(i * 2654435761 % 10007) / 10007.0f);
  }
  Tensor boxes = Tensor::fromData(std::span<const float>(b), {n, 4});
  Tensor scores = Tensor::fromData(std::span<const float>(s), {n});
  OpAttrs a;
  a.scalars = {0.5};
  int64_t kept = 0;
  for (auto _ : state) {
    Tensor keep = tessel::backends::call(OpKind::Nms, {boxes, scores}, a);
    kept = keep.numel();
    benchmark::DoNotOptimize(keep);
  }
  state.counters["kept"] = double(kept);
}
BENCHMARK(BM_Nms5000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
