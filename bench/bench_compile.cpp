// Compiled-function benchmarks: the cost of a cache-hit call against an eager call,
// compile latency by graph size (trace, solver, codegen), and the seeds' loop.
//   build/bench/bench_compile --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <sstream>

#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/values/objects.h"

using namespace tessel::interp;

namespace {

Value global(Interpreter& interp, const char* name) {
  return *interp.mainModule().lookup(name);
}

// 4 tensor inputs, a 2-op body: the same function called compiled (cache hit) and eagerly.
const char* kSmall =
    "fn body(a, b, c, d) { return a * b + c }\n"
    "let f = compile(body)\n"
    "let a = ones([4])\nlet b = ones([4])\nlet c = ones([4])\nlet d = ones([4])\n"
    "let warm = f(a, b, c, d)\n";

// Calls `callee` (defined by `setup`) on the globals a, b, c, ... (`nargs` of them) in a loop.
// Returns the interpreter, for a look at the callee's stats.
std::unique_ptr<Interpreter> callLoop(benchmark::State& state, const char* setup,
                                      const char* callee, size_t nargs) {
  auto interp = std::make_unique<Interpreter>();
  interp->runSource("<bench>", setup);
  Value fn = global(*interp, callee);
  std::vector<Value> args;
  for (size_t i = 0; i < nargs; ++i) args.push_back(global(*interp, std::string(1, 'a' + i).c_str()));
  std::vector<Value> call(nargs);
  for (auto _ : state) {
    std::copy(args.begin(), args.end(), call.begin());  // a call consumes its arguments
    benchmark::DoNotOptimize(interp->call(fn, call, Span{}));
  }
  return interp;
}

void BM_CallCompiledHit(benchmark::State& state) {
  callLoop(state, kSmall, "f", 4);
}
void BM_CallEager(benchmark::State& state) {
  callLoop(state, kSmall, "body", 4);
}
BENCHMARK(BM_CallCompiledHit);
BENCHMARK(BM_CallEager);

// The cost of a graph break on the cache-hit path: the same two-op body, once as one
// graph and once split by a statement that runs eagerly (a change to a list made outside):
// two graphs, each with its guards, and the statement, at every call.
const char* kBreak =
    "let box = [0]\n"
    "fn one(a, b, c) {\n  let h = a * b\n  return h + c\n}\n"
    "fn two(a, b, c) {\n  let h = a * b\n  box[0] = 1\n  return h + c\n}\n"
    "let f1 = compile(one)\nlet f2 = compile(two)\n"
    "let a = ones([4])\nlet b = ones([4])\nlet c = ones([4])\n"
    "let w1 = f1(a, b, c)\nlet w2 = f2(a, b, c)\n";

void breakLoop(benchmark::State& state, const char* callee) {
  auto interp = callLoop(state, kBreak, callee, 3);
  Value stats = interp->runSource("<bench>", std::string("stats(") + callee + ")", true);
  state.counters["graphs"] = static_cast<double>(stats.as<DictObj>()->find("graphs")->asInt());
}
void BM_CallOneGraph(benchmark::State& state) {
  breakLoop(state, "f1");
}
void BM_CallTwoGraphsWithBreak(benchmark::State& state) {
  breakLoop(state, "f2");
}
BENCHMARK(BM_CallOneGraph);
BENCHMARK(BM_CallTwoGraphsWithBreak);

// A body of n ops over a dynamic input, with a branch on a size every 10 ops so the shape
// engine has guards to decide and prune.
std::string chain(int n) {
  std::ostringstream s;
  s << "fn body(x, y) {\n  let h = x\n";
  for (int i = 0; i < n; ++i) {
    if (i % 10 == 9)
      s << "  if x.shape[0] + " << i
        << " > y.shape[0] { h = h + y[:x.shape[0]] } else { h = h - 1.0 }\n";
    else if (i % 3 == 0)
      s << "  h = h * 1.01\n";
    else if (i % 3 == 1)
      s << "  h = relu(h + 0.5)\n";
    else
      s << "  h = h.reshape([x.shape[0], -1]).reshape([-1])\n";
  }
  s << "  return h.sum()\n}\nlet f = compile(body, dynamic = true)\n";
  return s.str();
}

void BM_CompileLatency(benchmark::State& state) {
  int n = static_cast<int>(state.range(0));
  Interpreter interp;
  interp.runSource("<bench>", chain(n) + "let x = ones([40])\nlet y = ones([64])\n");
  Value reset = *interp.prelude().lookup("reset");
  Value f = global(interp, "f");
  std::vector<Value> args = {global(interp, "x"), global(interp, "y")};
  double trace = 0, solver = 0, codegen = 0;
  for (auto _ : state) {
    Value r[] = {f};
    interp.call(reset, r, Span{});
    std::vector<Value> call = args;  // a call consumes its arguments
    interp.call(f, call, Span{});    // compiles (and runs once)
    state.PauseTiming();
    Value stats = interp.runSource("<bench>", "stats(f)", true);
    auto* d = stats.as<DictObj>();
    trace += d->find("trace_ms")->asFloat();
    solver += d->find("solver_ms")->asFloat();
    codegen += d->find("codegen_ms")->asFloat();
    state.ResumeTiming();
  }
  double iters = static_cast<double>(state.iterations());
  state.counters["trace_ms"] = trace / iters;
  state.counters["solver_ms"] = solver / iters;
  state.counters["codegen_ms"] = codegen / iters;
}
BENCHMARK(BM_CompileLatency)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

// The seeds' loop: ten sins over sizes 2..99, for each policy.
void seedLoop(benchmark::State& state, const char* setup) {
  for (auto _ : state) {
    Interpreter interp;
    interp.runSource(
        "<bench>",
        std::string("fn foo(x) {\n  for i in range(10) { x = sin(x) }\n  return x\n}\n"
                    "config.recompile_limit = 100\n") +
            setup +
            "for i in range(2, 100) {\n  let x = randn([i])\n  if marked { mark_dynamic(x, 0) }\n"
            "  f(x)\n}\n");
    Value stats = interp.runSource("<bench>", "stats(f)", true);
    state.counters["compiles"] =
        static_cast<double>(stats.as<DictObj>()->find("compiles")->asInt());
  }
}
void BM_SeedLoopStatic(benchmark::State& s) {
  seedLoop(s, "let f = compile(foo, dynamic = false)\nlet marked = false\n");
}
void BM_SeedLoopAutomatic(benchmark::State& s) {
  seedLoop(s, "let f = compile(foo)\nlet marked = false\n");
}
void BM_SeedLoopMarkDynamic(benchmark::State& s) {
  seedLoop(s, "let f = compile(foo)\nlet marked = true\n");
}
BENCHMARK(BM_SeedLoopStatic)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SeedLoopAutomatic)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SeedLoopMarkDynamic)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
