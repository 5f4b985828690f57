// A compiled function (a *frame*, compiler.md): the function it wraps, its compile options,
// its cache of entries (graph + guards), its code state for automatic dynamic, and its stats.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "backends/device.h"
#include "backends/graph/executable.h"
#include "backends/graph/sym_eval.h"
#include "interp/compile/arg_plan.h"
#include "interp/compile/direct_call.h"
#include "interp/eval/evaluator.h"
#include "interp/values/objects.h"
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
  DirectCall direct;                    // after `executable`, whose prepared run it holds
  OutputTemplate output;                // rebuilds the returned value from graph outputs
  // Graph inputs after the arguments' tensors: floats the call computes on the host from its
  // sizes and float inputs (Note [Symbolic floats]), as 0-d f32 tensors on `derivedDevice`.
  std::vector<shapes::FloatExpr> derivedInputs;
  backends::Device derivedDevice = backends::Device::Cpu;
  // The call's inputs followed by the derived ones; kept between calls so a call allocates no
  // new vector (emptied after each run: it holds no tensor between calls).
  std::vector<backends::Tensor> inputScratch;
  // A region's end (regions.h): how its statements finished, and the slots they changed.
  Flow flow = Flow::Return;
  std::vector<std::pair<uint32_t, OutputTemplate>> slotOutputs;
  std::vector<GlobalGuard> globals;     // globals the body read
  std::vector<std::string> guardTexts;  // for stats()["guards"] and :guards
  std::string graphText;                // the optimized graph, for :graphs and explain()
  std::string backend;                  // where the graph runs ("cpu", "vulkan", "tpu")
  int compileId = 0;
  int64_t runs = 0;  // calls it served (the structured trace samples them)
  double compileMs = 0;  // all of it; the parts below are for stats() and the benchmark
  double traceMs = 0;    // inputs and the body on fake tensors (solver time included)
  double solverMs = 0;   // inside Z3
  double codegenMs = 0;  // guard pruning and compilation, graph passes, executor plan
};

/// Per-source memory across compiles (automatic dynamic): the value seen at earlier
/// compiles, or nullopt once two different values were seen ("?").
struct CodeState {
  std::map<std::string, std::optional<double>> values;
  bool profileLoaded = false;  // PGO: the state an earlier run saved was merged in (pgo.h)
  bool isDynamic(const std::string& source) const {
    auto it = values.find(source);
    return it != values.end() && !it->second;
  }
};

struct FrameStats {
  int64_t compiles = 0, cacheHits = 0, cacheMisses = 0, recompiles = 0, fallbacks = 0;
  int64_t directHits = 0;   // cache hits served by the direct path (direct_call.h; tests)
  int64_t graphBreaks = 0;  // distinct statements that broke a graph
  double compileMs = 0, traceMs = 0, solverMs = 0, codegenMs = 0;
  std::vector<std::string> reasons;
};

/// A statement that broke a graph (compiler.md, "Graph breaks"): explain() and stats() list
/// them, once each.
struct BreakSite {
  const Stmt* stmt;
  std::string reason;
  std::string location;  // "f.dsl:4"
};

/// The compiled runs of statements of a function with graph breaks (regions.h), keyed by their
/// block and range.
struct Region;
struct RegionKey {
  const Block* block;
  uint32_t begin, end;
  bool operator<(const RegionKey& o) const {
    return std::tie(block, begin, end) < std::tie(o.block, o.begin, o.end);
  }
};

struct FrameObj : GcObject {
  FrameObj(Value fn, CompileOptions options, CompilerState& state);
  ~FrameObj() override;
  /// The function and the values its entries keep (guards' expected values, constants of
  /// outputs): a frame stored in a global of its own function's module is a cycle.
  TESSEL_GC_MEMBERS

  Value function;  // the FunctionObj being compiled
  CompileOptions options;
  CompilerState& state;
  int frameId = 0;
  std::vector<std::unique_ptr<Entry>> entries;  // oldest first; checked newest first
  CodeState codeState;
  FrameStats stats;
  bool fellBack = false;  // recompile_limit reached: the function runs eagerly from now on
  bool warned = false;
  // Graph breaks: once a trace broke, every call runs through regions (regions.h).
  bool hasBreaks = false;
  std::unordered_set<const Stmt*> breakStmts;  // run by the evaluator, not in a graph
  std::vector<BreakSite> breakSites;
  std::map<RegionKey, std::unique_ptr<Region>> regions;
  int nextCompileId = 0;
  std::string where;  // "f.dsl:3": the fn's definition, for logs and warnings
  std::string file;   // "f.dsl", as the user named it
  int line = 0;
  std::string script;  // the absolute path of `file` when it is a file (PGO), else ""
  bool scratch = false;  // made by explain(): not part of the program's trace
  // A copy: the function's code may be freed before a frame kept alive by a reference cycle,
  // whose summary the structured trace writes at exit.
  const std::string& name() const { return name_; }
  void rename(std::string name) { name_ = std::move(name); }
  const std::string& location() const { return where; }

 private:
  std::string name_;
};

/// How an entry's graph ran on one call: its outputs and what rebuilds values from them.
struct GraphRun {
  std::vector<backends::Tensor> outs;
  graph::SymbolValues symbols;
  const std::vector<std::vector<int64_t>>* bounds = nullptr;  // a tpu program's dim bounds
  std::span<const Value> inputs;  // a region's inputs (OutputTemplate::Kind::Input)
  std::vector<double> floats;     // the call's float inputs (OutputTemplate::Kind::Float)
};
GraphRun runGraph(Entry& entry, const FlatArgs& flat);
/// Why `entry` does not apply to these inputs (arguments, or a region's variables), "" when it
/// does; `flat` then holds what its graph and guards take.
std::string entryMismatch(const FrameObj& frame, Entry& entry, std::span<const Value> args,
                          FlatArgs& flat);
/// The newest of `entries` that applies, or null with `reason`: why the newest one does not.
Entry* findEntry(const FrameObj& frame, const std::vector<std::unique_ptr<Entry>>& entries,
                 std::span<const Value> args, FlatArgs& flat, std::string& reason);
/// What is being compiled: a whole call, or the statements of a region (lines first..last,
/// the first one's column), which PGO and the structured trace tell apart.
struct CompileUnit {
  CodeState& codeState;
  std::span<const std::string> names;  // the inputs' names (parameters, or a region's locals)
  std::span<const Value> values;
  int firstLine = 0, firstCol = 0, lastLine = 0;  // 0: the whole call
};
/// A new compile id of the frame: a recompile is counted and logged with its reason, the
/// compile is traced, and the unit's code state learns these inputs (automatic dynamic), after
/// taking in what PGO saved for it at its first compile.
int beginCompile(FrameObj& frame, const CompileUnit& unit, bool recompile,
                 const std::string& reason);
/// Adds a finished compile to the frame's stats (and the structured trace).
void countCompile(FrameObj& frame, const Entry& entry);
/// A compile that ended in an error rather than an entry (the structured trace).
void compileFailed(FrameObj& frame, const Entry& entry, const std::exception& error);
/// After a trace raised `traced`, an error of the user's program outside fullgraph: runs the
/// call (or region) eagerly with `runEagerly` and raises its error when that is of another
/// kind; else returns (the caller rethrows `traced`). Note [A trace that raises].
void raiseEagerError(const FrameObj& frame, const std::exception& traced,
                     const std::function<void()>& runEagerly);
/// Runs an entry's graph for the first time, right after its compile (the trace times it).
GraphRun firstRun(FrameObj& frame, Entry& entry, const FlatArgs& flat);
/// Counts a cache hit of `entry`.
void countHit(FrameObj& frame, Entry& entry);
Value rebuildOutput(const OutputTemplate& t, const GraphRun& run);
/// Remembers where a trace broke (the statements to run eagerly from now on), counts and logs
/// it; `entry` is the compile that broke.
void recordBreak(Interpreter& interp, FrameObj& frame, const class TracedBreak& brk,
                 const Entry& entry);

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
