// Built-ins of the compiler (compiler.md): compile, the mark_* family, check, stats, explain,
// reset, and the `config` module.
#include <cstdio>
#include <cstdlib>

#include "backends/tpu/lazy.h"
#include "interp/natives/builtins.h"
#include "interp/natives/gc_natives.h"
#include "interp/compile/compile_trace.h"
#include "interp/compile/compiled_frame.h"
#include "interp/compile/compiler_state.h"
#include "interp/compile/pgo.h"
#include "interp/compile/regions.h"
#include "interp/interpreter.h"
#include "interp/values/native_args.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "interp/tensors/tensor_value.h"
#include "interp/compile/tracer.h"
#include "shapes/shape_env.h"
#include "shapes/source_loc.h"
#include "shapes/user_error.h"

namespace tessel::interp {

CompilerState::CompilerState() {
  if (const char* logs = std::getenv("TESSEL_LOGS")) log.configure(logs);
  if (const char* dir = std::getenv("TESSEL_TRACE"); dir && *dir) {
    std::string error;
    trace = CompileTrace::open(dir, error);
    if (!trace) std::fprintf(stderr, "tessel: warning: %s\n", error.c_str());
  }
  if (const char* on = std::getenv("TESSEL_PGO"); on && std::string(on) == "0") config.pgo = false;
  pgo = std::make_unique<PgoStore>(PgoStore::defaultDir(), trace.get());
  // The tpu's compiles and cache hits are logged under `perf`, tagged [tpu].
  backends::tpu::tpuConfig().perfLog = [this](const std::string& line) {
    if (log.on(LogCategory::Perf)) std::fprintf(stderr, "[tpu] %s\n", line.c_str());
  };
  if (const char* sources = std::getenv("TESSEL_DYNAMIC_SOURCES")) {
    std::string list = sources;
    size_t start = 0;
    while (start <= list.size()) {
      size_t comma = list.find(',', start);
      std::string name =
          list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!name.empty()) dynamicSources.insert(name);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
}

CompilerState::~CompilerState() {
  backends::tpu::tpuConfig().perfLog = nullptr;
  // Frames still alive (kept by reference cycles) end with the program.
  if (trace)
    for (FrameObj* f : frames)
      if (f) trace->frameSummary(*f);
  if (config.pgo) pgo->save();
}

FrameObj* frameOf(const Value& v) {
  if (v.is(Type::Builtin)) {
    const Value& self = v.as<BuiltinObj>()->self;
    if (self.is(Type::Compiled)) return self.as<FrameObj>();
  }
  return nullptr;
}

std::string describeGuards(const FrameObj& frame) {
  std::string out;
  std::vector<const Entry*> entries = frameEntries(frame);
  if (entries.empty()) return frame.name() + " has no compiled entries yet\n";
  for (const Entry* e : entries) {
    out += "entry " + std::to_string(frame.frameId) + "/" + std::to_string(e->compileId) + ":\n";
    if (e->guardTexts.empty()) out += "  (no guards)\n";
    for (const auto& g : e->guardTexts) out += "  " + g + "\n";
  }
  return out;
}

std::string describeGraphs(const FrameObj& frame) {
  std::string out;
  std::vector<const Entry*> entries = frameEntries(frame);
  if (entries.empty()) return frame.name() + " has no compiled entries yet\n";
  for (const Entry* e : entries) {
    out += "entry " + std::to_string(frame.frameId) + "/" + std::to_string(e->compileId) + ":\n" +
           e->graphText;
    if (!out.empty() && out.back() != '\n') out += "\n";
  }
  return out;
}

namespace {

FrameObj& expectFrame(const Value& v, const char* fn) {
  FrameObj* f = frameOf(v);
  if (!f)
    throwUserError(ErrorKind::TypeError,
                   std::string(fn) + "(): expected a compiled function, got " + repr(v));
  return *f;
}

CompileOptions parseOptions(const ArgBinder& b, size_t first) {
  CompileOptions o;
  if (b.has(first)) {
    const Value& d = b.at(first);
    if (d.is(Type::None))
      o.dynamic = DynamicMode::Automatic;
    else if (d.is(Type::Bool))
      o.dynamic = d.asBool() ? DynamicMode::All : DynamicMode::None;
    else
      throwUserError(ErrorKind::TypeError, "compile(): dynamic must be none, true or false");
  }
  if (b.has(first + 1)) o.fullgraph = b.toBool(first + 1);
  if (b.has(first + 2)) o.backend = b.toStr(first + 2);
  return o;
}

// @compile(dynamic = true) evaluates compile(dynamic = true) first: a decorator that remembers
// the options.
Value applyDecorator(Interpreter& interp, CallArgs& a) {
  ArgBinder b("compile", a, {"f"}, 1);
  const auto& opts = a.self.as<TupleObj>()->items;
  CompileOptions o;
  o.dynamic = static_cast<DynamicMode>(opts[0].asInt());
  o.fullgraph = opts[1].asBool();
  o.backend = opts[2].as<StrObj>()->str;
  return makeCompiled(interp, b.at(0), o);
}

Value nativeCompile(Interpreter& interp, CallArgs& a) {
  ArgBinder b("compile", a, {"f", "dynamic", "fullgraph", "backend"}, 0);
  CompileOptions o = parseOptions(b, 1);
  if (!b.has(0) || b.at(0).is(Type::None)) {
    Value state = makeTuple({Value::integer(static_cast<int64_t>(o.dynamic)),
                             Value::boolean(o.fullgraph), makeStr(o.backend)});
    return Value::object(new BuiltinObj("compile", applyDecorator, state));
  }
  return makeCompiled(interp, b.at(0), o);
}

TensorObj& tensorToMark(const ArgBinder& b, const char* fn, int64_t& dim) {
  // As in PyTorch, marks belong outside: inside a trace the sizes are already symbols or
  // constants, and a mark there would silently change nothing.
  if (tracing())
    throwUserError(ErrorKind::TypeError,
                   std::string(fn) + "() inside a compiled function: mark the tensor before the "
                                     "call (" + fn + "(x, 0); f(x))");
  const Value& x = b.at(0);
  if (!x.is(Type::Tensor) || isFake(x))
    throwUserError(ErrorKind::TypeError, std::string(fn) + "(): expected a tensor, got " + repr(x));
  auto* t = x.as<TensorObj>();
  int64_t rank = rankOf(x);
  dim = b.toInt(1);
  if (dim < -rank || dim >= rank)
    throwUserError(ErrorKind::IndexError, std::string(fn) + "(): dim " + std::to_string(dim) +
                                              " is out of range for a tensor of rank " +
                                              std::to_string(rank));
  if (dim < 0) dim += rank;
  if (static_cast<int64_t>(t->marks.size()) < rank) t->marks.resize(rank);
  return *t;
}

Value markWith(CallArgs& a, const char* fn, DimMark::Kind kind) {
  ArgBinder b(fn, a, {"x", "dim", "min", "max"}, 2);
  int64_t dim;
  TensorObj& t = tensorToMark(b, fn, dim);
  DimMark mark;
  mark.kind = kind;
  if (b.has(2) && !b.at(2).is(Type::None)) mark.min = b.toInt(2);
  if (b.has(3) && !b.at(3).is(Type::None)) mark.max = b.toInt(3);
  if (mark.min && mark.max && *mark.min > *mark.max)
    throwUserError(ErrorKind::ValueError, std::string(fn) + "(): min " + std::to_string(*mark.min) +
                                              " is greater than max " + std::to_string(*mark.max));
  // A size outside [min, max] is a ConstraintViolation when the compiled function is called.
  t.marks[dim] = mark;
  return Value::none();
}

Value nativeMarkDynamic(Interpreter&, CallArgs& a) {
  return markWith(a, "mark_dynamic", DimMark::Kind::Dynamic);
}
Value nativeMaybeMarkDynamic(Interpreter&, CallArgs& a) {
  return markWith(a, "maybe_mark_dynamic", DimMark::Kind::MaybeDynamic);
}
Value nativeMarkStatic(Interpreter&, CallArgs& a) {
  ArgBinder b("mark_static", a, {"x", "dim"}, 2);
  int64_t dim;
  tensorToMark(b, "mark_static", dim).marks[dim] = DimMark{DimMark::Kind::Static, {}, {}};
  return Value::none();
}
Value nativeMarkUnbacked(Interpreter&, CallArgs& a) {
  ArgBinder b("mark_unbacked", a, {"x", "dim"}, 2);
  int64_t dim;
  tensorToMark(b, "mark_unbacked", dim).marks[dim] = DimMark{DimMark::Kind::Unbacked, {}, {}};
  return Value::none();
}

// check(cond): a fact for the solver and a runtime assert while tracing; an assertion eagerly.
Value nativeCheck(Interpreter&, CallArgs& a) {
  ArgBinder b("check", a, {"cond", "message"}, 1);
  std::string message = b.has(1) ? str(b.at(1)) : "check failed";
  const Value& c = b.at(0);
  if (c.is(Type::SymBool)) {
    shapes::ShapeEnv* env = shapes::currentShapeEnv();
    TESSEL_ASSERT(env, "a symbolic bool outside tracing");
    env->check(c.as<SymBoolObj>()->value, message);
    return Value::none();
  }
  if (!truthy(c)) throwUserError(ErrorKind::AssertionError, message);
  return Value::none();
}

Value nativeCheckIsSize(Interpreter&, CallArgs& a) {
  ArgBinder b("check_is_size", a, {"n"}, 1);
  const Value& n = b.at(0);
  if (n.is(Type::SymInt)) {
    shapes::ShapeEnv* env = shapes::currentShapeEnv();
    TESSEL_ASSERT(env, "a symbolic int outside tracing");
    env->checkIsSize(n.as<SymIntObj>()->value);
    return Value::none();
  }
  if (b.toInt(0) < 0)
    throwUserError(ErrorKind::AssertionError, "check_is_size(): " + repr(n) + " is negative");
  return Value::none();
}

// stats()["tpu"] (backends.md, "tpu").
Value tpuStatsDict() {
  const backends::tpu::TpuStats& s = backends::tpu::tpuStats();
  Ref<DictObj> d = make<DictObj>();
  d->set("compilations", Value::integer(int64_t(s.compilations)));
  d->set("cache_hits", Value::integer(int64_t(s.cacheHits)));
  d->set("executions", Value::integer(int64_t(s.executions)));
  d->set("run_allocations", Value::integer(int64_t(s.runAllocations)));
  d->set("padding_ratio", Value::real(s.paddingRatio));
  std::vector<Value> programs;
  for (const auto& p : s.programs) {
    Ref<DictObj> e = make<DictObj>();
    e->set("name", makeStr(p.name));
    e->set("arena_bytes", Value::integer(int64_t(p.arenaBytes)));
    e->set("output_bytes", Value::integer(int64_t(p.outputBytes)));
    e->set("bound_bytes", Value::integer(int64_t(p.boundBytes)));
    e->set("ops", Value::integer(int64_t(p.ops)));
    e->set("compile_ms", Value::real(p.compileMs));
    programs.push_back(e.value());
  }
  d->set("programs", makeList(std::move(programs)));
  return d.value();
}

// sync(): runs every pending tpu tensor (XLA's mark_step).
Value nativeSync(Interpreter&, CallArgs& a) {
  ArgBinder b("sync", a, {}, 0);
  backends::tpu::syncAll();
  return Value::none();
}

Value statsDict(const FrameStats& s, const Entry* newest, int64_t entries) {
  Ref<DictObj> d = make<DictObj>();
  d->set("compiles", Value::integer(s.compiles));
  d->set("cache_hits", Value::integer(s.cacheHits));
  d->set("cache_misses", Value::integer(s.cacheMisses));
  d->set("recompiles", Value::integer(s.recompiles));
  d->set("entries", Value::integer(entries));
  // Every compile makes one graph (a whole call's or a region's); a call with breaks runs several.
  d->set("graphs", Value::integer(s.compiles));
  d->set("graph_breaks", Value::integer(s.graphBreaks));
  d->set("fallbacks", Value::integer(s.fallbacks));
  std::vector<Value> reasons;
  for (auto& r : s.reasons) reasons.push_back(makeStr(r));
  d->set("reasons", makeList(std::move(reasons)));
  std::vector<Value> guards;
  if (newest)
    for (auto& g : newest->guardTexts) guards.push_back(makeStr(g));
  d->set("guards", makeList(std::move(guards)));
  d->set("compile_ms", Value::real(s.compileMs));
  d->set("trace_ms", Value::real(s.traceMs));
  d->set("solver_ms", Value::real(s.solverMs));
  d->set("codegen_ms", Value::real(s.codegenMs));
  return d.value();
}

Value nativeStats(Interpreter& interp, CallArgs& a) {
  ArgBinder b("stats", a, {"f"}, 0);
  if (b.has(0)) {
    FrameObj& f = expectFrame(b.at(0), "stats");
    std::vector<const Entry*> entries = frameEntries(f);
    return statsDict(f.stats, entries.empty() ? nullptr : entries.back(),
                     static_cast<int64_t>(entries.size()));
  }
  FrameStats total;
  int64_t entries = 0;
  for (FrameObj* f : interp.compiler().frames) {
    if (!f) continue;
    total.compiles += f->stats.compiles;
    total.cacheHits += f->stats.cacheHits;
    total.cacheMisses += f->stats.cacheMisses;
    total.recompiles += f->stats.recompiles;
    total.fallbacks += f->stats.fallbacks;
    total.graphBreaks += f->stats.graphBreaks;
    total.compileMs += f->stats.compileMs;
    total.traceMs += f->stats.traceMs;
    total.solverMs += f->stats.solverMs;
    total.codegenMs += f->stats.codegenMs;
    total.reasons.insert(total.reasons.end(), f->stats.reasons.begin(), f->stats.reasons.end());
    entries += static_cast<int64_t>(frameEntries(*f).size());
  }
  Value d = statsDict(total, nullptr, entries);
  d.as<DictObj>()->set("tpu", tpuStatsDict());
  d.as<DictObj>()->set("gc", gcStatsDict(interp.gcHeap()));
  d.as<DictObj>()->set("memory", memoryStatsDict());
  return d;
}

Value nativeReset(Interpreter&, CallArgs& a) {
  ArgBinder b("reset", a, {"f"}, 1);
  resetFrame(expectFrame(b.at(0), "reset"));
  return Value::none();
}

std::string describeEntry(const Entry& entry) {
  std::string out = "symbols:\n";
  for (uint32_t s = 0; s < entry.env->numSymbols(); ++s) {
    const shapes::SymbolInfo& info = entry.env->symbol(s);
    out += "  " + info.name +
           (info.unbacked ? " (unbacked)"
                          : " = " + std::to_string(*info.hint) + " from " + info.source) +
           " in " + info.range.toString() + "\n";
  }
  // Scalars made inputs (docs/compile.md, "Scalars"): ints are symbols above; floats here.
  const auto& floats = entry.env->floatInputs();
  if (!floats.empty()) out += "float inputs:\n";
  for (size_t i = 0; i < floats.size(); ++i)
    out += "  f" + std::to_string(i) + " = " + repr(Value::real(floats[i].hint)) + " from " +
           floats[i].source + (floats[i].specialized ? " (specialized: its value was needed)" : "") +
           "\n";
  if (!entry.derivedInputs.empty()) out += "floats computed per call:\n";
  for (const shapes::FloatExpr& e : entry.derivedInputs)
    out += "  " + shapes::SymFloat(e).toString(entry.env->floatInputNames()) + "\n";
  out += "guards:\n";
  for (auto& g : entry.guardTexts) out += "  " + g + "\n";
  out += "graph:\n" + entry.graphText;
  if (!out.empty() && out.back() != '\n') out += "\n";
  out += entry.executable->stats().toString();
  if (!out.empty() && out.back() != '\n') out += "\n";
  return out;
}

// explain(f, args...): f compiled or plain. A function without graph breaks is traced without
// running it or touching f's cache. One that breaks is run once in a scratch frame (its eager
// statements with it: the graphs after a break exist only once the statements before it ran).
Value nativeExplain(Interpreter& interp, CallArgs& a) {
  if (a.positional.empty()) throwUserError(ErrorKind::TypeError, "explain() missing argument 'f'");
  const Value& target = a.positional[0];
  CompileOptions options;
  Value fn = target;
  const CodeState* learned = nullptr;
  if (FrameObj* f = frameOf(target)) {
    options = f->options;
    fn = f->function;
    learned = &f->codeState;  // what varied so far is dynamic in the explanation too
  } else if (!target.is(Type::Function)) {
    throwUserError(ErrorKind::TypeError,
                   "explain(): expected a function, got " + std::string(typeName(target.type())));
  }
  auto* proto = fn.as<FunctionObj>()->proto;
  std::vector<Value> args(a.positional.begin() + 1, a.positional.end());
  if (args.size() != proto->params.size())
    throwUserError(ErrorKind::TypeError, "explain(): " + proto->name + "() takes " +
                                             std::to_string(proto->params.size()) +
                                             " arguments, got " + std::to_string(args.size()));
  Value scratch = makeCompiled(interp, fn, options);
  FrameObj& frame = *frameOf(scratch);
  // What explain() traces is not the program's: no profile, no structured trace events.
  frame.scratch = true;
  frame.script.clear();
  if (learned) frame.codeState = *learned;
  struct TraceOff {
    std::unique_ptr<CompileTrace>& trace;
    std::unique_ptr<CompileTrace> saved = std::move(trace);
    ~TraceOff() { trace = std::move(saved); }
  } traceOff{interp.compiler().trace};
  Entry whole;
  std::vector<const Entry*> entries;
  try {
    Tracer(interp, frame, whole, frame.codeState).trace(args, a.site);
    entries.push_back(&whole);
  } catch (const TracedBreak& brk) {
    if (brk.stmts.empty()) throwUserError(brk.kind(), "explain(): " + brk.reason());
    whole.compileId = frame.nextCompileId++;
    recordBreak(interp, frame, brk, whole);
    frame.hasBreaks = true;
    callWithBreaks(interp, frame, args, a.site);
    entries = frameEntries(frame);
  }
  std::string out = "graphs: " + std::to_string(entries.size()) +
                    ", graph breaks: " + std::to_string(frame.breakSites.size()) + "\n";
  for (const BreakSite& b : frame.breakSites)
    out += "graph break at " + b.location + ": " + b.reason + "\n";
  out += "explain " + frame.name() + " (" + frame.location() + ")\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries.size() > 1) out += "graph " + std::to_string(i + 1) + ":\n";
    out += describeEntry(*entries[i]);
  }
  return makeStr(out);
}

}  // namespace

void registerCompileBuiltins(ModuleObj& prelude) {
  static const std::pair<const char*, NativeFn> kBuiltins[] = {
      {"compile", nativeCompile},
      {"mark_dynamic", nativeMarkDynamic},
      {"maybe_mark_dynamic", nativeMaybeMarkDynamic},
      {"mark_static", nativeMarkStatic},
      {"mark_unbacked", nativeMarkUnbacked},
      {"check", nativeCheck},
      {"check_is_size", nativeCheckIsSize},
      {"stats", nativeStats},
      {"sync", nativeSync},
      {"reset", nativeReset},
      {"explain", nativeExplain},
  };
  for (auto& [name, fn] : kBuiltins) defineNative(prelude, name, fn);
}

}  // namespace tessel::interp
