// tpu backend benchmarks (docs/perf.md, "tpu"): program execution against the cpu graph
// executor on the same host and the same graph, for large elementwise, reduction and matmul
// workloads, with the dynamic size exactly at its bound and at half of it (padding must cost
// memory, not time); and the host cost of a lazy sync whose program is in the cache.
#include <benchmark/benchmark.h>

#include "bench/bench_util.h"

#include <memory>
#include <vector>

#include "backends/backend.h"
#include "backends/dispatch.h"
#include "backends/graph/cpu_executor.h"
#include "backends/graph/graph_builder.h"
#include "backends/tpu/lazy.h"
#include "backends/tpu/program.h"
#include "shapes/shape_env.h"

namespace {

using tessel::backends::Device;
using tessel::backends::Dims;
using tessel::backends::Tensor;
using tessel::graph::CpuGraphExecutor;
using tessel::graph::Graph;
using tessel::graph::GraphBuilder;
using tessel::graph::GraphExecutable;
using tessel::graph::ValueId;
using tessel::shapes::DType;
using tessel::shapes::OpAttrs;
using tessel::shapes::OpKind;
using tessel::shapes::ShapeEnv;
using tessel::shapes::SymInt;

using tessel::bench::randomTensor;

enum Workload { kElementwise, kReduction, kMatmul };
constexpr int64_t kRows = 1024;  // the real row count; the bound is kRows * range(1)

// x[s0 <= bound, cols] through the workload; cols and the weight follow the workload.
struct Case {
  ShapeEnv env;
  Graph graph;
  Tensor x, w;
  Case(Workload wl, int64_t bound) {
    tessel::shapes::ScopedShapeEnv scope(&env);
    GraphBuilder b(&env);
    tessel::shapes::SymbolOptions o;
    o.dynamic = tessel::shapes::DimDynamic::Dynamic;
    o.max = bound;
    SymInt s0 = env.createSymbol("x.shape[0]", kRows, o);
    const int64_t cols = wl == kElementwise ? 1024 : wl == kReduction ? 4096 : 512;
    ValueId in = b.input("x", {s0, cols}, DType::F32);
    x = randomTensor({kRows, cols});
    if (wl == kElementwise) {
      ValueId two = b.constant(Tensor::scalar(2, DType::F32));
      ValueId one = b.constant(Tensor::scalar(1, DType::F32));
      b.output(b.op(OpKind::Relu, {b.op(OpKind::Add, {b.op(OpKind::Mul, {in, two}), one})}));
    } else if (wl == kReduction) {
      OpAttrs sum;
      sum.dims = {1};
      b.output(b.op(OpKind::Sum, {in}, sum));
    } else {
      w = randomTensor({cols, 512});
      b.output(b.op(OpKind::Matmul, {in, b.constant(w)}));
    }
    graph = b.build();
  }
};

int64_t bytesMoved(Workload wl) {
  if (wl == kElementwise) return kRows * 1024 * 4 * 2;
  if (wl == kReduction) return kRows * 4096 * 4;
  return 2 * kRows * 512 * 512;  // flops, for the matmul
}

void runProgram(benchmark::State& state, bool onTpu) {
  const auto wl = static_cast<Workload>(state.range(0));
  const int64_t bound = kRows * state.range(1);
  tessel::backends::tpu::registerTpuBackend();
  Case c(wl, bound);
  std::unique_ptr<GraphExecutable> exe;
  std::vector<Tensor> inputs;
  if (onTpu) {
    exe = tessel::backends::tpu::compileForTpu(c.graph, {}, "bench");
    inputs.push_back(tessel::backends::toDevice(c.x, Device::Tpu));
  } else {
    exe = std::make_unique<CpuGraphExecutor>(c.graph);
    inputs.push_back(c.x);
  }
  for (auto _ : state) benchmark::DoNotOptimize(exe->run(inputs));
  if (wl == kMatmul)
    state.counters["GFLOP/s"] =
        benchmark::Counter(double(bytesMoved(wl)) * double(state.iterations()),
                           benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
  else
    state.SetBytesProcessed(bytesMoved(wl) * state.iterations());
}

void BM_CpuExecutor(benchmark::State& state) { runProgram(state, false); }
void BM_TpuProgram(benchmark::State& state) { runProgram(state, true); }

// {workload, bound / real rows}: at the bound, and at half of it (padding).
#define TPU_WORKLOADS                                                                   \
  ArgNames({"workload", "bound_x"})                                                    \
      ->Args({kElementwise, 1})->Args({kElementwise, 2})->Args({kReduction, 1})      \
      ->Args({kReduction, 2})->Args({kMatmul, 1})->Args({kMatmul, 2})                 \
      ->Unit(benchmark::kMicrosecond)
BENCHMARK(BM_CpuExecutor)->TPU_WORKLOADS;
BENCHMARK(BM_TpuProgram)->TPU_WORKLOADS;

// A lazy op on a small tpu tensor and the sync that runs it, its program found in the cache:
// the host cost of one cut of a training loop with one op (the kernel itself is 4 adds).
void BM_LazyRecordAndSyncCacheHit(benchmark::State& state) {
  tessel::backends::tpu::registerTpuBackend();
  using tessel::backends::tpu::LazyOperand;
  using tessel::backends::tpu::LazyTensor;
  auto x = LazyTensor::fromData(tessel::backends::toDevice(randomTensor({4}), Device::Tpu));
  const int ops = static_cast<int>(state.range(0));
  for (auto _ : state) {
    std::shared_ptr<LazyTensor> v = x;
    for (int i = 0; i < ops; ++i) {
      LazyOperand args[] = {{v, {}}, {x, {}}};
      v = tessel::backends::tpu::recordOp(OpKind::Add, args, {});
    }
    tessel::backends::tpu::syncAll();
    benchmark::DoNotOptimize(v->data());
  }
}
BENCHMARK(BM_LazyRecordAndSyncCacheHit)->Arg(1)->Arg(10)->Unit(benchmark::kMicrosecond);

// The same ops eagerly on the cpu: what the lazy path adds on top of the kernels.
void BM_CpuEagerOps(benchmark::State& state) {
  Tensor x = randomTensor({4});
  const int ops = static_cast<int>(state.range(0));
  for (auto _ : state) {
    Tensor v = x;
    for (int i = 0; i < ops; ++i) v = tessel::backends::call(OpKind::Add, {v, x});
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_CpuEagerOps)->Arg(1)->Arg(10)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
