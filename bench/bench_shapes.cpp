// Benchmarks of the symbolic shape engine: guard checking and a whole compile's symbolic work
// over graph sizes (figures in docs/perf.md, "## shapes").
#include <benchmark/benchmark.h>

#include <chrono>

#include "shapes/guard_program.h"
#include "shapes/shape_env.h"
#include "shapes/shape_rules.h"

using namespace tessel::shapes;

namespace {

// One guard on one input.
void BM_GuardCheck1(benchmark::State& st) {
  ShapeEnv env;
  SymInt s = env.createSymbol("x.shape[0]", 20);
  evaluate(s <= SymInt(30));
  GuardProgram p(std::vector<Guard>{env.guards().back()}, env);
  std::vector<int64_t> in = {20};
  for (auto _ : st) {
    benchmark::DoNotOptimize(in.data());
    benchmark::DoNotOptimize(p.check(in));
  }
  st.counters["guards"] = static_cast<double>(p.guards().size());
}
BENCHMARK(BM_GuardCheck1);

// A 10-guard set over 4 inputs (static, duck, ranges, relations, divisibility).
void BM_GuardCheck10x4(benchmark::State& st) {
  ShapeEnvConfig cfg;
  cfg.prune_guards = false;
  ShapeEnv env(cfg);
  SymInt b = env.createSymbol("x.shape[0]", 8), t = env.createSymbol("x.shape[1]", 128);
  env.createSymbol("y.shape[0]", 8);  // duck with b
  env.createSymbol("y.shape[1]", 64, {.dynamic = DimDynamic::Static});
  evaluate(b <= SymInt(64));
  evaluate(t >= SymInt(16));
  evaluate(t <= SymInt(4096));
  evaluate(b < t);
  evaluate(mod(t, SymInt(8)) == SymInt(0));
  evaluate(b * t <= SymInt(1 << 20));
  evaluate(floorDiv(t, SymInt(4)) + b >= SymInt(20));
  GuardProgram p(env.guards(), env);
  std::vector<int64_t> in = {8, 128, 8, 64};
  if (p.check(in) != -1) st.SkipWithError("guards must pass");
  for (auto _ : st) {
    benchmark::DoNotOptimize(in.data());
    benchmark::DoNotOptimize(p.check(in));
  }
  st.counters["guards"] = static_cast<double>(p.guards().size());
  st.counters["instrs"] = static_cast<double>(p.numInstrs());
}
BENCHMARK(BM_GuardCheck10x4);

// A traced "model": nOps ops over 10 input symbols with ~30 candidate guards per 50 ops, then
// pruning and guard compilation. Reports the share of time spent inside Z3.
void BM_Compile(benchmark::State& st) {
  const int nOps = static_cast<int>(st.range(0));
  double z3Ns = 0, totalNs = 0, guards = 0, finalGuards = 0, queries = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    ShapeEnv env;
    std::vector<SymInt> sym;
    for (int i = 0; i < 10; ++i)
      sym.push_back(env.createSymbol("x" + std::to_string(i) + ".shape[0]", 16 + 8 * i,
                                     {.dynamic = DimDynamic::Dynamic}));
    SymInt batch = sym[0], d = sym[1];
    OpSignature h{{batch, d}, DType::F32};
    OpSignature w{{d, d}, DType::F32};
    for (int i = 0; i < nOps; ++i) {
      OpAttrs a;
      switch (i % 5) {
        case 0:
          h = inferShape(OpKind::Matmul, std::vector<OpSignature>{h, w}, a)[0];
          break;
        case 1:
          h = inferShape(OpKind::Add, std::vector<OpSignature>{h, {{d}, DType::F32}}, a)[0];
          break;
        case 2: {
          a.shape = {SymInt(-1)};
          OpSignature flat = inferShape(OpKind::Reshape, std::vector<OpSignature>{h}, a)[0];
          a.shape = {batch, SymInt(-1)};
          h = inferShape(OpKind::Reshape, std::vector<OpSignature>{flat}, a)[0];
          break;
        }
        case 3: {
          a.dim = 1;
          a.start = 0;
          a.stop = sym[2 + i % 8];
          OpSignature s = inferShape(OpKind::Slice, std::vector<OpSignature>{h}, a)[0];
          OpAttrs c;
          c.dim = 1;
          OpSignature cat = inferShape(OpKind::Cat, std::vector<OpSignature>{h, s}, c)[0];
          benchmark::DoNotOptimize(cat.shape.data());
          break;
        }
        default: {
          a.dim = -1;
          h = inferShape(OpKind::Softmax, std::vector<OpSignature>{h}, a)[0];
          // control flow on sizes: 3 candidate guards every 5 ops (30 per 50 ops)
          evaluate(sym[i % 10] <= SymInt(1000 + i));
          evaluate(sym[i % 10] + sym[(i + 1) % 10] <= SymInt(2000 + i));
          evaluate(sym[(i + 3) % 10] < sym[(i + 4) % 10] + SymInt(100));
        }
      }
    }
    guards += static_cast<double>(env.guards().size());
    GuardProgram p = env.compileGuards();
    finalGuards += static_cast<double>(p.guards().size());
    auto t1 = std::chrono::steady_clock::now();
    totalNs +=
        static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    z3Ns += static_cast<double>(env.stats().solverNanos);
    queries += static_cast<double>(env.stats().solverQueries);
  }
  double n = static_cast<double>(st.iterations());
  st.counters["z3_share_%"] = 100.0 * z3Ns / totalNs;
  st.counters["guards"] = guards / n;
  st.counters["final_guards"] = finalGuards / n;
  st.counters["z3_queries"] = queries / n;
  st.counters["us_per_op"] = totalNs / n / 1000.0 / nOps;
}
BENCHMARK(BM_Compile)
    ->Arg(10)
    ->Arg(50)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);

// The eager constant path of a shape rule (no ShapeEnv, no solver).
void BM_InferShapeConstant(benchmark::State& st) {
  std::vector<OpSignature> in = {{{64, 1, 32}, DType::F32}, {{8, 32}, DType::F32}};
  OpAttrs a;
  for (auto _ : st) benchmark::DoNotOptimize(inferShape(OpKind::Add, in, a));
}
BENCHMARK(BM_InferShapeConstant);

}  // namespace

BENCHMARK_MAIN();
