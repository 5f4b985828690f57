// Which sgemm (Note [Which sgemm] in backends/cpu/sgemm.cpp): OpenBLAS's cblas_sgemm against
// oneDNN's dnnl_sgemm in one process, on the GEMMs of one step of bench/mlp (an MLP
// 784-256-256-10, batch sizes 32..512 as in train.dsl: forward x @ w^T, backward grads of the
// activations and of the weights) and on square matrices. Run single-threaded for the figures
// of docs/perf.md ("sgemm library"):
//   OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 build/bench/bench_sgemm
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <dnnl.h>
#include <immintrin.h>

#include <vector>

namespace {

enum Library { kOpenBlas, kOneDnn };

void rowMajorSgemm(Library library, bool ta, bool tb, int m, int n, int k, const float* a,
                   const float* b, float* c) {
  const int lda = ta ? m : k, ldb = tb ? k : n;
  if (library == kOpenBlas)
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m,
                n, k, 1.0f, a, lda, b, ldb, 0.0f, c, n);
  else
    dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, n);
}

struct Gemm {
  bool ta, tb;
  int m, n, k;
};

// The eight GEMMs of a training step at batch b (bench/mlp/train.dsl's graph).
std::vector<Gemm> mlpStep(int b) {
  return {{false, true, b, 256, 784},  {false, true, b, 256, 256},   {false, true, b, 10, 256},
          {false, false, b, 256, 10},  {true, false, 10, 256, b},    {false, false, b, 256, 256},
          {true, false, 256, 256, b},  {true, false, 256, 784, b}};
}

// Every step of train.dsl's timed range (20..199) in each iteration (so Time / 180 is one step's
// GEMMs), and the GFLOP/s over all of them.
void BM_MlpStepGemms(benchmark::State& state) {
  const auto library = Library(state.range(0));
  std::vector<float> a(512 * 784, 0.5f), b(784 * 512, 0.25f), c(512 * 784);
  double flops = 0;
  for (int i = 20; i < 200; ++i)
    for (const Gemm& g : mlpStep(32 + (i * 97) % 481)) flops += 2.0 * g.m * g.n * g.k;
  for (auto _ : state)
    for (int i = 20; i < 200; ++i)
      for (const Gemm& g : mlpStep(32 + (i * 97) % 481))
        rowMajorSgemm(library, g.ta, g.tb, g.m, g.n, g.k, a.data(), b.data(), c.data());
  state.counters["GFLOP/s"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
  state.SetLabel(library == kOpenBlas ? "openblas" : "onednn");
}
BENCHMARK(BM_MlpStepGemms)->Arg(kOpenBlas)->Arg(kOneDnn)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SquareSgemm(benchmark::State& state) {
  const auto library = Library(state.range(0));
  const int n = int(state.range(1));
  std::vector<float> a(size_t(n) * n, 0.5f), b(size_t(n) * n, 0.25f), c(size_t(n) * n);
  for (auto _ : state) rowMajorSgemm(library, false, false, n, n, n, a.data(), b.data(), c.data());
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  state.SetLabel(library == kOpenBlas ? "openblas" : "onednn");
}
BENCHMARK(BM_SquareSgemm)
    ->Args({kOpenBlas, 512})->Args({kOneDnn, 512})->Args({kOpenBlas, 1024})->Args({kOneDnn, 1024})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

// Small products, where a call's fixed cost decides (kSmallGemmFlops in sgemm.cpp): the 2x10
// and 10x1 layers of bench/tpu_mlp.dsl, 32^3, and the MLP's smallest at batch 32.
void BM_SmallSgemm(benchmark::State& state) {
  const auto library = Library(state.range(0));
  const int m = int(state.range(1)), n = int(state.range(2)), k = int(state.range(3));
  std::vector<float> a(size_t(m) * k, 0.5f), b(size_t(k) * n, 0.25f), c(size_t(m) * n);
  for (auto _ : state) rowMajorSgemm(library, false, false, m, n, k, a.data(), b.data(), c.data());
  state.SetLabel(library == kOpenBlas ? "openblas" : "onednn");
}
BENCHMARK(BM_SmallSgemm)
    ->Args({kOpenBlas, 16, 10, 2})->Args({kOneDnn, 16, 10, 2})
    ->Args({kOpenBlas, 64, 1, 10})->Args({kOneDnn, 64, 1, 10})
    ->Args({kOpenBlas, 32, 32, 32})->Args({kOneDnn, 32, 32, 32})
    ->Args({kOpenBlas, 32, 10, 256})->Args({kOneDnn, 32, 10, 256});

// The machine's f32 FMA peak on one core, the ceiling for the GFLOP/s above: 16 independent
// AVX-512 FMA chains (enough to cover the latency of two FMA pipes), 2 flops per lane.
__attribute__((target("avx512f"))) void BM_FmaPeak(benchmark::State& state) {
  if (!__builtin_cpu_supports("avx512f")) {
    state.SkipWithError("no AVX-512 on this machine");
    return;
  }
  constexpr int kChains = 16, kRounds = 1 << 16;
  for (auto _ : state) {
    __m512 acc[kChains];
    for (int j = 0; j < kChains; ++j) acc[j] = _mm512_set1_ps(float(j));
    const __m512 x = _mm512_set1_ps(0.999f), y = _mm512_set1_ps(1e-6f);
    for (int r = 0; r < kRounds; ++r)
#pragma GCC unroll 16
      for (int j = 0; j < kChains; ++j) acc[j] = _mm512_fmadd_ps(acc[j], x, y);
    for (int j = 0; j < kChains; ++j) benchmark::DoNotOptimize(acc[j]);
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * 16 * kChains * kRounds,
                                                 benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}
BENCHMARK(BM_FmaPeak)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
