// Graph compiler benchmarks (docs/perf.md, "graphs"): compile latency of graphs of 10, 100
// and 1000 ops (tracing with shape rules, passes, executor plan; solver time reported apart),
// the run overhead of a 2-op graph against eager dispatch, and a 20-op elementwise chain run
// fused, unfused and eagerly.
#include <benchmark/benchmark.h>

#include "bench/bench_util.h"

#include <chrono>
#include <memory>
#include <vector>

#include "backends/dispatch.h"
#include "backends/graph/cpu_executor.h"
#include "backends/graph/graph_builder.h"
#include "backends/rng.h"
#include "shapes/shape_env.h"
#include "shapes/source_loc.h"

namespace {

using tessel::backends::Dims;
using tessel::backends::Tensor;
using tessel::graph::CompileOptions;
using tessel::graph::CpuGraphExecutor;
using tessel::graph::Graph;
using tessel::graph::GraphBuilder;
using tessel::graph::ValueId;
using tessel::shapes::DType;
using tessel::shapes::OpAttrs;
using tessel::shapes::OpKind;
using tessel::shapes::ShapeEnv;
using tessel::shapes::SymInt;

using tessel::bench::randomTensor;

SymInt dynamicSize(ShapeEnv& env, const char* source, int64_t hint) {
  tessel::shapes::SymbolOptions o;
  o.dynamic = tessel::shapes::DimDynamic::Dynamic;
  return env.createSymbol(source, hint, o);
}

// A model-like graph of `n` ops on x[s0, 16]: elementwise runs, a row-sum broadcast back,
// matmuls with a closed-over weight, a softmax, reshapes, and some dead and constant work.
Graph buildGraph(ShapeEnv& env, int n, const Tensor& w) {
  tessel::shapes::ScopedShapeEnv scope(&env);
  GraphBuilder b(&env);
  SymInt s0 = dynamicSize(env, "x.shape[0]", 32);
  ValueId x = b.input("x", {s0, 16}, DType::F32);
  ValueId wc = b.constant(w);
  ValueId half = b.constant(Tensor::scalar(0.5, DType::F32));
  ValueId v = x;
  OpAttrs rowSum, softmax, reshape, flat;
  rowSum.dims = {1};
  rowSum.keepdim = true;
  softmax.dim = 1;
  reshape.shape = {s0 * SymInt(4), 4};
  flat.shape = {s0, 16};
  for (int i = 0; i < n;) {
    switch (i % 10) {
      case 3:
        v = b.op(OpKind::Sub, {v, b.op(OpKind::Sum, {v}, rowSum)});
        i += 2;
        break;
      case 5:
        v = b.op(OpKind::Matmul, {v, wc});
        i += 1;
        break;
      case 7:
        v = b.op(OpKind::Reshape,
                 {b.op(OpKind::Softmax, {b.op(OpKind::Reshape, {v}, reshape)}, softmax)}, flat);
        i += 3;
        break;
      case 9:
        b.op(OpKind::Exp, {v});  // dead
        i += 1;
        break;
      default:
        v = b.op(i % 2 ? OpKind::Tanh : OpKind::Mul,
                 i % 2 ? std::vector<ValueId>{v} : std::vector<ValueId>{v, half});
        i += 1;
        break;
    }
  }
  b.output(v);
  return b.build();
}

// Per iteration: a fresh ShapeEnv, tracing (builder + shape rules), then optimize + plan.
void BM_CompileLatency(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Tensor w = randomTensor({16, 16});
  double buildUs = 0, passesUs = 0, loweringUs = 0, solverUs = 0, nodesAfter = 0;
  for (auto _ : state) {
    ShapeEnv env;
    const auto t0 = std::chrono::steady_clock::now();
    Graph g = buildGraph(env, n, w);
    const auto t1 = std::chrono::steady_clock::now();
    CpuGraphExecutor exe(g);
    benchmark::DoNotOptimize(exe.graph().size());
    buildUs += std::chrono::duration<double, std::micro>(t1 - t0).count();
    passesUs += exe.stats().passesMs * 1000;
    loweringUs += exe.stats().loweringMs * 1000;
    solverUs += env.stats().solverNanos / 1000.0;
    nodesAfter = double(exe.graph().numNodes());
  }
  const double it = double(state.iterations());
  state.counters["trace_us"] = buildUs / it;
  state.counters["passes_us"] = passesUs / it;
  state.counters["lower_us"] = loweringUs / it;
  state.counters["solver_us"] = solverUs / it;
  state.counters["nodes_after"] = nodesAfter;
}
BENCHMARK(BM_CompileLatency)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

// The 2-op graph (x + y) * y on [8] floats: eager dispatch of the two ops against the graph,
// unfused (two kernel calls) and fused (one), with symbol values given or read from sizes.
struct TwoOps {
  ShapeEnv env;
  Graph graph;
  TwoOps() {
    tessel::shapes::ScopedShapeEnv scope(&env);
    GraphBuilder b(&env);
    SymInt s0 = dynamicSize(env, "x.shape[0]", 8);
    ValueId x = b.input("x", {s0}, DType::F32), y = b.input("y", {s0}, DType::F32);
    b.output(b.op(OpKind::Mul, {b.op(OpKind::Add, {x, y}), y}));
    graph = b.build();
  }
};

void BM_TwoOpsEager(benchmark::State& state) {
  Tensor x = randomTensor({8}), y = randomTensor({8});
  for (auto _ : state)
    benchmark::DoNotOptimize(
        tessel::backends::call(OpKind::Mul, {tessel::backends::call(OpKind::Add, {x, y}), y}));
}
BENCHMARK(BM_TwoOpsEager);

void BM_TwoOpsGraph(benchmark::State& state) {
  TwoOps t;
  CompileOptions o;
  o.fusion = state.range(0) != 0;
  CpuGraphExecutor exe(t.graph, o);
  Tensor in[] = {randomTensor({8}), randomTensor({8})};
  const std::vector<int64_t> symbols{8};
  const bool given = state.range(1) != 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(
        exe.run(in, given ? std::span<const int64_t>(symbols) : std::span<const int64_t>()));
  state.SetLabel(std::string(o.fusion ? "fused" : "unfused") +
                 (given ? ", symbols given" : ", symbols from sizes"));
}
BENCHMARK(BM_TwoOpsGraph)->Args({0, 1})->Args({1, 1})->Args({1, 0});

// A 20-op chain on [n/16, 16]: mul by a scalar, add a broadcast row, relu, sub the row,
// maximum with a scalar, four times. Cheap ops, so eager and unfused runs are bound by the
// memory traffic of their 20 intermediates and the fused run by one read and one write.
constexpr OpKind kChainOps[] = {OpKind::Mul, OpKind::Add, OpKind::Relu, OpKind::Sub,
                                OpKind::Maximum};
struct Chain20 {
  ShapeEnv env;
  Graph graph;
  Chain20() {
    tessel::shapes::ScopedShapeEnv scope(&env);
    GraphBuilder b(&env);
    SymInt s0 = dynamicSize(env, "x.shape[0]", 64);
    ValueId x = b.input("x", {s0, 16}, DType::F32);
    ValueId row = b.input("row", {16}, DType::F32);
    ValueId half = b.constant(Tensor::scalar(0.5, DType::F32));
    ValueId v = x;
    for (int i = 0; i < 20; ++i) {
      OpKind op = kChainOps[i % 5];
      v = tessel::shapes::opCategory(op) == tessel::shapes::OpCategory::Unary
              ? b.op(op, {v})
              : b.op(op, {v, i % 2 ? row : half});
    }
    b.output(v);
    graph = b.build();
  }
};

void setBytes(benchmark::State& state, int64_t n) {
  // One read of x and one write of the result per element: the traffic a fused loop needs.
  state.SetBytesProcessed(int64_t(state.iterations()) * n * 8);
}

void BM_Chain20Eager(benchmark::State& state) {
  const int64_t n = state.range(0);
  Tensor x = randomTensor({n / 16, 16}), row = randomTensor({16});
  Tensor half = Tensor::scalar(0.5, DType::F32);
  for (auto _ : state) {
    Tensor v = x;
    for (int i = 0; i < 20; ++i) {
      OpKind op = kChainOps[i % 5];
      v = tessel::shapes::opCategory(op) == tessel::shapes::OpCategory::Unary
              ? tessel::backends::call(op, {v})
              : tessel::backends::call(op, {v, i % 2 ? row : half});
    }
    benchmark::DoNotOptimize(v);
  }
  setBytes(state, n);
}

void BM_Chain20Graph(benchmark::State& state) {
  const int64_t n = state.range(0);
  Chain20 c;
  CompileOptions o;
  o.fusion = state.range(1) != 0;
  CpuGraphExecutor exe(c.graph, o);
  Tensor in[] = {randomTensor({n / 16, 16}), randomTensor({16})};
  for (auto _ : state) benchmark::DoNotOptimize(exe.run(in));
  setBytes(state, n);
  state.SetLabel(o.fusion ? "fused" : "unfused");
}

BENCHMARK(BM_Chain20Eager)->Arg(4096)->Arg(1 << 20)->Arg(1 << 24)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Chain20Graph)
    ->Args({4096, 0})
    ->Args({4096, 1})
    ->Args({1 << 20, 0})
    ->Args({1 << 20, 1})
    ->Args({1 << 24, 0})
    ->Args({1 << 24, 1})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
