// Interpreter speed (docs/perf.md, "## interpreter"): recursive calls and a loop-heavy script,
// run in-process. bench/run_interp_baselines.sh times the same scripts against CPython and Lua.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "interp/interpreter.h"

namespace {

using tessel::interp::Interpreter;

std::string readScript(const char* name) {
  // The scripts sit beside this file (CMake compiles it by its absolute path).
  std::ifstream in(std::filesystem::path(__FILE__).parent_path() / "scripts" / name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// fib(n) on an interpreter that already holds the definition: only the calls are timed.
void BM_Fib(benchmark::State& state) {
  Interpreter interp;
  std::ostringstream sink;
  interp.setOutput(&sink);
  interp.runSource("<def>",
                   "fn fib(n) {\n  if n < 2 { return n }\n  return fib(n - 1) + fib(n - 2)\n}\n");
  std::string call = "let r = fib(" + std::to_string(state.range(0)) + ")\n";
  for (auto _ : state) interp.runSource("<call>", call);
}
BENCHMARK(BM_Fib)->Arg(20)->Arg(27)->Unit(benchmark::kMillisecond);

// bench/scripts/loops.dsl, whole (parse, resolve, run) in a fresh interpreter each time.
void BM_LoopsScript(benchmark::State& state) {
  std::string text = readScript("loops.dsl");
  for (auto _ : state) {
    Interpreter interp;
    std::ostringstream sink;
    interp.setOutput(&sink);
    interp.runSource("loops.dsl", text);
  }
}
BENCHMARK(BM_LoopsScript)->Unit(benchmark::kMillisecond);

// A for loop over a range with int arithmetic on a global: the per-iteration floor.
void BM_EmptyishLoop(benchmark::State& state) {
  Interpreter interp;
  std::ostringstream sink;
  interp.setOutput(&sink);
  interp.runSource("<def>", "let x = 0\n");
  for (auto _ : state) interp.runSource("<loop>", "for i in range(100000) { x = i + 1 }\n");
  state.SetItemsProcessed(state.iterations() * 100000);
}
BENCHMARK(BM_EmptyishLoop)->Unit(benchmark::kMillisecond);

// Parsing and resolving a long program (no running): the ANTLR front end's cost per line.
void BM_Parse(benchmark::State& state) {
  std::string text;
  for (int i = 0; i < 1000; ++i)
    text += "fn f" + std::to_string(i) +
            "(a, b = 2) { if a < b { return [a, b] } return {\"k\": a * b} }\n";
  for (auto _ : state) {
    Interpreter interp;
    interp.runSource("<parse>", text);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
