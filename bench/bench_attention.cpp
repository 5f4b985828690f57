// Fused attention on the cpu (docs/perf.md, "fused attention"): scaled_dot_product_attention at
// T = S = 512, D = 64, 8 heads, batch 1 and 4, forward and forward + backward (through the
// tape, as grad() runs it), wall time; threads from OMP_NUM_THREADS (run it with 1 and 2).
// bench/torch_attention_baseline.py times PyTorch 1.13's unfused softmax(q k^T * scale) v on
// the same sizes; bench/run_attention.sh runs both.
// `bench_attention --peak-memory` prints, for growing T, how much the resident set grows while
// one forward (and one forward + backward) runs, each in a fresh process: O(T * D), not O(T^2).
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "backends/autodiff/tape.h"
#include "backends/dispatch.h"
#include "bench/bench_util.h"

extern char** environ;

namespace {

using tessel::backends::Tensor;
using tessel::backends::autodiff::Tape;
using tessel::backends::autodiff::TapeScope;
using tessel::bench::randomTensor;
using tessel::shapes::OpAttrs;
using tessel::shapes::OpKind;
namespace be = tessel::backends;

constexpr int64_t kHeads = 8, kT = 512, kD = 64;

Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v) {
  return be::call(OpKind::Attention, {q, k, v}, OpAttrs{});
}

// sum(attention(q, k, v) * w) and its gradients with respect to q, k and v.
std::vector<Tensor> forwardBackward(const Tensor& q, const Tensor& k, const Tensor& v,
                                   const Tensor& w) {
  Tape tape;
  Tensor qw = tape.watch(q), kw = tape.watch(k), vw = tape.watch(v);
  Tensor loss;
  {
    TapeScope scope(tape);
    loss = be::call(OpKind::Sum, {be::call(OpKind::Mul, {attention(qw, kw, vw), w})});
  }
  return be::autodiff::gradients(tape, loss, std::vector<Tensor>{qw, kw, vw});
}

void setFlops(benchmark::State& state, double flops) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void BM_AttentionForward(benchmark::State& state) {
  const int64_t B = state.range(0);
  Tensor q = randomTensor({B, kHeads, kT, kD}), k = randomTensor({B, kHeads, kT, kD}),
         v = randomTensor({B, kHeads, kT, kD});
  for (auto _ : state) benchmark::DoNotOptimize(attention(q, k, v));
  setFlops(state, 4.0 * B * kHeads * kT * kT * kD);
}
BENCHMARK(BM_AttentionForward)->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AttentionForwardBackward(benchmark::State& state) {
  const int64_t B = state.range(0);
  Tensor q = randomTensor({B, kHeads, kT, kD}), k = randomTensor({B, kHeads, kT, kD}),
         v = randomTensor({B, kHeads, kT, kD}), w = randomTensor({B, kHeads, kT, kD});
  for (auto _ : state) benchmark::DoNotOptimize(forwardBackward(q, k, v, w));
  // Nominal: the unfused formula's forward (2 products) and backward (4), as the torch
  // baseline counts; the fused backward does more (a logsumexp pass and 5 products).
  setFlops(state, 12.0 * B * kHeads * kT * kT * kD);
}
BENCHMARK(BM_AttentionForwardBackward)->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond)
    ->UseRealTime();

long maxRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// One measurement in this (fresh) process: the peak resident-set growth of one forward and
// then of one forward + backward at length T, after a small warm-up call that loads the code.
int peakOne(int64_t T) {
  Tensor small = randomTensor({1, 1, 8, kD});
  forwardBackward(small, small, small, small);
  Tensor q = randomTensor({1, kHeads, T, kD}), k = randomTensor({1, kHeads, T, kD}),
         v = randomTensor({1, kHeads, T, kD}), w = randomTensor({1, kHeads, T, kD});
  const long before = maxRssKb();
  Tensor out = attention(q, k, v);
  const long afterForward = maxRssKb();
  out = Tensor();
  forwardBackward(q, k, v, w);
  const long afterBackward = maxRssKb();
  const double scoresMiB = double(kHeads) * T * T * 4 / (1 << 20);
  std::printf("%6lld %12.1f %14.1f %16.1f %14.1f\n", static_cast<long long>(T),
              double(kHeads * T * kD * 4) / (1 << 20), (afterForward - before) / 1024.0,
              (afterBackward - before) / 1024.0, scoresMiB);
  return 0;
}

int peakMemory(const char* self) {
  std::printf("# 8 heads, D = 64, batch 1; MiB. resident-set growth of one call, fresh process\n");
  std::printf("%6s %12s %14s %16s %14s\n", "T", "one [T,D]x8", "forward", "fwd+backward",
              "[T,T]x8 would");
  std::fflush(stdout);
  for (int64_t T : {256, 512, 1024, 2048, 4096, 8192}) {
    std::string t = std::to_string(T);
    char* args[] = {const_cast<char*>(self), const_cast<char*>("--peak-one"), t.data(), nullptr};
    pid_t pid;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args, environ) != 0) return 1;
    int status = 0;
    waitpid(pid, &status, 0);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--peak-memory") == 0) return peakMemory(argv[0]);
  if (argc >= 3 && std::strcmp(argv[1], "--peak-one") == 0) return peakOne(std::stoll(argv[2]));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
