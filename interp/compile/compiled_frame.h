// A compiled function (a *frame*, compiler.md): the function it wraps, its compile options,
// its cache of entries (graph + guards), its code state for automatic dynamic, and its stats.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/device.h"
#include "backends/graph/executable.h"
#include "interp/compile/arg_plan.h"
#include "interp/objects.h"
#include "shapes/guard_program.h"
#include "shapes/shape_env.h"

namespace tessel::interp {

class CompilerState;

/// `dynamic = none | true | false` of @compile.
enum class DynamicMode : uint8_t { Automatic, All, None };

struct CompileOptions {
  DynamicMode dynamic = DynamicMode::Automatic;
  bool fullgraph = false;
  std::string backend = "auto";
  /// The device `backend` names; nullopt for "auto" (the device of the inputs).
  std::optional<backends::Device> device() const;
};

/// One cache entry: a graph specialized under its guards.
struct Entry {
  std::unique_ptr<shapes::ShapeEnv> env;  // the graph's symbolic sizes point into it
  ArgPlan plan;                           // how arguments are checked and flattened
  shapes::GuardProgram guards;            // over plan's size/int sources, in order
  std::unique_ptr<graph::GraphExecutable> executable;
  OutputTemplate output;                // rebuilds the returned value from graph outputs
  std::vector<GlobalGuard> globals;     // globals the body read
  std::vector<std::string> guardTexts;  // for stats()["guards"] and :guards
  std::string graphText;                // the optimized graph, for :graphs and explain()
  int compileId = 0;
  double compileMs = 0;  // all of it; the parts below are for stats() and the benchmark
  double traceMs = 0;    // inputs and the body on fake tensors (solver time included)
  double solverMs = 0;   // inside Z3
  double codegenMs = 0;  // guard pruning and compilation, graph passes, executor plan
};

/// Per-source memory across compiles (automatic dynamic): the value seen at earlier
/// compiles, or nullopt once two different values were seen ("?").
struct CodeState {
  std::map<std::string, std::optional<double>> values;
  bool isDynamic(const std::string& source) const {
    auto it = values.find(source);
    return it != values.end() && !it->second;
  }
};

struct FrameStats {
  int64_t compiles = 0, cacheHits = 0, cacheMisses = 0, recompiles = 0, fallbacks = 0;
  int64_t graphBreaks = 0;
  double compileMs = 0, traceMs = 0, solverMs = 0, codegenMs = 0;
  std::vector<std::string> reasons;
};

struct FrameObj : Object {
  FrameObj(Value fn, CompileOptions options, CompilerState& state);
  ~FrameObj() override;

  Value function;  // the FunctionObj being compiled
  CompileOptions options;
  CompilerState& state;
  int frameId = 0;
  std::vector<std::unique_ptr<Entry>> entries;  // oldest first; checked newest first
  CodeState codeState;
  FrameStats stats;
  bool fellBack = false;  // recompile_limit reached: the function runs eagerly from now on
  bool warned = false;
  std::string where;  // "f.dsl:3": the fn's definition, for logs and warnings
  std::string name() const;
  const std::string& location() const { return where; }
};

/// Wraps a function in a frame (compile(f, ...) and @compile).
Value makeCompiled(Interpreter& interp, const Value& fn, CompileOptions options);
/// Forgets a frame's entries and code state (reset(f)).
void resetFrame(FrameObj& frame);
/// The frame behind a compiled function value, or nullptr.
FrameObj* frameOf(const Value& v);
/// Every entry's guards / optimized graph as text, newest last (the REPL's :guards, :graphs).
std::string describeGuards(const FrameObj& frame);
std::string describeGraphs(const FrameObj& frame);

}  // namespace tessel::interp
