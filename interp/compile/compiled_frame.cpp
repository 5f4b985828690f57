// Calling a compiled function: the entry cache, automatic dynamic, recompiles, the recompile
// limit and its eager fallback (compiler.md, "A call, step by step").
#include "interp/compile/compiled_frame.h"

#include <chrono>
#include <functional>
#include <iostream>

#include "backends/graph/sym_eval.h"
#include "backends/tpu/lazy.h"
#include "interp/compile/compile_trace.h"
#include "interp/compile/compiler_collectives.h"
#include "interp/compile/compiler_state.h"
#include "interp/compile/pgo.h"
#include "interp/compile/regions.h"
#include "interp/tensors/device_support.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/eval/signature.h"
#include "interp/values/sym_value.h"
#include "interp/tensors/tensor_value.h"
#include "interp/compile/tracer.h"
#include "shapes/user_error.h"

namespace tessel::interp {

FrameObj::FrameObj(Value fn, CompileOptions opts, CompilerState& st)
    : GcObject(Type::Compiled),
      function(std::move(fn)),
      options(std::move(opts)),
      state(st),
      name_(function.as<FunctionObj>()->proto->name) {
  frameId = static_cast<int>(state.frames.size());
  state.frames.push_back(this);
}

FrameObj::~FrameObj() {
  if (state.trace && !scratch) state.trace->frameSummary(*this);
  for (auto& f : state.frames)
    if (f == this) f = nullptr;
}

namespace {
void visitArg(const ArgNode& n, GcVisit visit, void* ctx) {
  gcVisit(n.expected, visit, ctx);
  for (const ArgNode& c : n.children) visitArg(c, visit, ctx);
}
void visitOutput(const OutputTemplate& t, GcVisit visit, void* ctx) {
  gcVisit(t.constant, visit, ctx);
  for (const OutputTemplate& c : t.children) visitOutput(c, visit, ctx);
}
void visitEntry(const Entry& e, GcVisit visit, void* ctx) {
  for (const ArgNode& a : e.plan.args) visitArg(a, visit, ctx);
  for (const GlobalGuard& g : e.globals) {
    gcVisit(g.module, visit, ctx);
    gcVisit(g.expected, visit, ctx);
  }
  visitOutput(e.output, visit, ctx);
  for (const auto& [slot, t] : e.slotOutputs) visitOutput(t, visit, ctx);
}
}  // namespace

void FrameObj::traverse(GcVisit visit, void* ctx) {
  gcVisit(function, visit, ctx);
  for (const auto& e : entries) visitEntry(*e, visit, ctx);
  for (const auto& [key, region] : regions)
    for (const auto& e : region->entries) visitEntry(*e, visit, ctx);
}

void FrameObj::clearRefs() {
  // Unreachable: no call can use the entries again. The stats stay for the trace's summary.
  Value fn = std::move(function);
  std::vector<std::unique_ptr<Entry>> old;
  old.swap(entries);
  std::map<RegionKey, std::unique_ptr<Region>> oldRegions;
  oldRegions.swap(regions);
}

std::optional<backends::Device> CompileOptions::device() const {
  if (backend == "cpu") return backends::Device::Cpu;
  if (backend == "vulkan") return backends::Device::Vulkan;
  if (backend == "tpu") return backends::Device::Tpu;
  return std::nullopt;
}

void resetFrame(FrameObj& frame) {
  frame.entries.clear();
  frame.hasBreaks = false;
  frame.breakStmts.clear();
  frame.breakSites.clear();
  frame.regions.clear();
  frame.nextCompileId = 0;
  frame.codeState = CodeState{};
  frame.stats = FrameStats{};
  frame.fellBack = false;
  frame.warned = false;
}

namespace {

// Binds positional and keyword arguments to the function's parameters (defaults filled), the
// way a call would, so entries see one canonical argument list.
std::vector<Value> bindParams(FunctionObj& fn, CallArgs& a) {
  FnProto& proto = *fn.proto;
  size_t n = proto.params.size();
  if (a.positional.size() > n)
    throwUserError(ErrorKind::TypeError, proto.name + "() takes " + std::to_string(n) +
                                             " arguments but " +
                                             std::to_string(a.positional.size()) + " were given");
  std::vector<Value> bound(n, Value::undefined());
  for (size_t i = 0; i < a.positional.size(); ++i) bound[i] = a.positional[i];
  for (size_t k = 0; k < a.kwNames.size(); ++k) {
    size_t i = 0;
    while (i < n && proto.params[i].name != a.kwNames[k]) ++i;
    if (i == n)
      throwUserError(ErrorKind::TypeError,
                     proto.name + "() got an unexpected keyword argument '" + a.kwNames[k] + "'");
    if (!bound[i].is(Type::Undefined))
      throwUserError(ErrorKind::TypeError,
                     proto.name + "() got multiple values for argument '" + a.kwNames[k] + "'");
    bound[i] = a.kwValues[k];
  }
  for (size_t i = 0; i < n; ++i) {
    if (!bound[i].is(Type::Undefined)) continue;
    if (fn.defaults[i].is(Type::Undefined))
      throwUserError(ErrorKind::TypeError,
                     proto.name + "() missing argument '" + proto.params[i].name + "'");
    bound[i] = fn.defaults[i];
  }
  return bound;
}

// The value of every size, int and float source of a call, by source name, for the code
// state (automatic dynamic).
void collectSources(const Value& v, const std::string& path,
                    std::vector<std::pair<std::string, double>>& out) {
  switch (v.type()) {
    case Type::Tensor:
      if (!isFake(v)) {
        const Tensor& t = asTensor(v);
        for (int64_t d = 0; d < t.ndim(); ++d)
          out.emplace_back(path + ".shape[" + std::to_string(d) + "]",
                           static_cast<double>(t.size(d)));
      }
      return;
    case Type::Int:
      out.emplace_back(path, static_cast<double>(v.asInt()));
      return;
    case Type::Float:
      out.emplace_back(path, v.asFloat());
      return;
    case Type::List:
    case Type::Tuple: {
      const auto& items = v.is(Type::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
      for (size_t i = 0; i < items.size(); ++i)
        collectSources(items[i], path + "[" + std::to_string(i) + "]", out);
      return;
    }
    case Type::Dict:
      for (auto& [k, item] : v.as<DictObj>()->entries)
        collectSources(item, path + "[" + quoteString(k) + "]", out);
      return;
    case Type::Function: {  // its captures, named as the tracer names them (planArg)
      auto* fn = v.as<FunctionObj>();
      const auto& names = fn->proto->upvalueNames;
      for (size_t i = 0; i < fn->upvalues.size(); ++i)
        collectSources(fn->upvalues[i]->value,
                       path + "." + (i < names.size() ? names[i] : std::to_string(i)), out);
      for (size_t i = 0; i < fn->defaults.size(); ++i)
        collectSources(fn->defaults[i], path + ".defaults." + fn->proto->params[i].name, out);
      return;
    }
    default:
      return;
  }
}

// Whether `name` is new in `state` where the same argument was seen as another kind: a scalar
// `y` after sizes `y.shape[0]`, or sizes after a scalar. PyTorch's automatic dynamic treats a
// kind change as a change (test_recompiles.py, test_automatic_dynamic_tensor_scalar_change).
bool changedKind(const CodeState& state, const std::string& name) {
  const size_t dims = name.rfind(".shape[");
  if (dims != std::string::npos) return state.values.count(name.substr(0, dims)) > 0;
  auto it = state.values.lower_bound(name + ".shape[");
  return it != state.values.end() && it->first.rfind(name + ".shape[", 0) == 0;
}

// Automatic dynamic: remembers the values of the sizes, ints and floats in `values` (named
// `names`); a source seen with two values, or first seen after its argument changed kind,
// becomes dynamic.
void updateCodeState(CodeState& state, std::span<const std::string> names,
                     std::span<const Value> values) {
  std::vector<std::pair<std::string, double>> sources;
  for (size_t i = 0; i < values.size(); ++i) collectSources(values[i], names[i], sources);
  for (auto& [name, value] : sources) {
    const bool kindChanged = !state.values.count(name) && changedKind(state, name);
    auto [it, inserted] = state.values.emplace(name, value);
    if (kindChanged || (!inserted && it->second && *it->second != value))
      it->second = std::nullopt;  // "?"
  }
}

PgoKey pgoKey(const FrameObj& frame, const CompileUnit& unit) {
  PgoKey key{frame.script, frame.name(), frame.line, ""};
  if (unit.firstLine)
    key.region = std::to_string(unit.firstLine) + ":" + std::to_string(unit.firstCol) + "-" +
                 std::to_string(unit.lastLine);
  return key;
}

// PGO at a unit's first compile: what earlier runs saw becomes what this one has seen, so a
// source that varied then starts dynamic now (Note [PGO profiles]).
void loadProfile(FrameObj& frame, const CompileUnit& unit, int compileId) {
  CodeState& state = unit.codeState;
  state.profileLoaded = true;
  std::string path;
  std::optional<CodeState> saved = frame.state.pgo->load(pgoKey(frame, unit), path);
  if (!saved) return;
  for (const auto& [source, v] : saved->values) state.values.emplace(source, v);
  if (frame.state.trace) frame.state.trace->pgoLoad(frame, compileId, path, *saved);
  std::string dynamic;
  for (const auto& [source, v] : saved->values)
    if (!v) dynamic += (dynamic.empty() ? "" : ", ") + source;
  frame.state.log.write(LogCategory::Dynamic, frame.frameId, compileId,
                        "pgo: loaded the code state of " + frame.name() + " from " + path +
                            (dynamic.empty() ? "; nothing starts dynamic"
                                             : "; dynamic from the start: " + dynamic));
}

}  // namespace

Value rebuildOutput(const OutputTemplate& t, const GraphRun& run) {
  switch (t.kind) {
    case OutputTemplate::Kind::Output:
      // A tpu program's results are bounded tensors, as eager tpu results are.
      if (run.bounds)
        return Value::object(new TensorObj(
            backends::tpu::LazyTensor::fromData(run.outs.at(t.output), run.bounds->at(t.output))));
      return makeTensor(run.outs.at(t.output));
    case OutputTemplate::Kind::Number:
      return tensorItemValue(run.outs.at(t.output));
    case OutputTemplate::Kind::Constant:
      return t.constant;
    case OutputTemplate::Kind::Size:
      return Value::integer(run.symbols.eval(t.size));
    case OutputTemplate::Kind::Float: {
      if (t.unbacked.empty())
        return Value::real(shapes::evalFloat(
            t.floatExpr, [&](const shapes::SymInt& i) { return run.symbols.eval(i); }, run.floats));
      graph::SymbolValues symbols = run.symbols;  // and the unbacked sizes the graph found
      for (auto [sym, output] : t.unbacked) symbols.bind(sym, tensorItemValue(run.outs.at(output)).asInt());
      return Value::real(shapes::evalFloat(
          t.floatExpr, [&](const shapes::SymInt& i) { return symbols.eval(i); }, run.floats));
    }
    case OutputTemplate::Kind::Input:
      return run.inputs[t.output];
    case OutputTemplate::Kind::List:
    case OutputTemplate::Kind::Tuple: {
      std::vector<Value> items;
      for (const OutputTemplate& c : t.children) items.push_back(rebuildOutput(c, run));
      return t.kind == OutputTemplate::Kind::List ? makeList(std::move(items))
                                                  : makeTuple(std::move(items));
    }
    case OutputTemplate::Kind::Dict: {
      Ref<DictObj> d = make<DictObj>();
      for (size_t i = 0; i < t.keys.size(); ++i)
        d->set(t.keys[i], rebuildOutput(t.children[i], run));
      return d.value();
    }
  }
  return Value::none();
}

GraphRun runGraph(Entry& entry, const FlatArgs& flat) {
  std::vector<int64_t> symbols = entry.guards.bindSymbols(flat.sources);
  GraphRun run;
  run.symbols.reset(symbols.size());
  for (size_t s = 0; s < symbols.size(); ++s)
    if (!entry.env->symbol(static_cast<uint32_t>(s)).unbacked)
      run.symbols.bind(static_cast<uint32_t>(s), symbols[s]);
  run.floats = flat.floats;
  if (entry.derivedInputs.empty()) {
    run.outs = entry.executable->run(flat.inputs, symbols);
  } else {
    // Floats of sizes and float inputs, computed here in f64 as eager code computes them
    // (Note [Symbolic floats]).
    std::vector<backends::Tensor>& inputs = entry.inputScratch;
    inputs.assign(flat.inputs.begin(), flat.inputs.end());
    auto intValue = [&](const shapes::SymInt& i) { return run.symbols.eval(i); };
    for (const shapes::FloatExpr& e : entry.derivedInputs)
      inputs.push_back(onDevice(
          backends::Tensor::scalar(shapes::evalFloat(e, intValue, flat.floats), shapes::DType::F32),
          entry.derivedDevice));
    run.outs = entry.executable->run(inputs, symbols);
    inputs.clear();
  }
  run.bounds = entry.executable->outputDimBounds();
  return run;
}

void recordBreak(Interpreter& interp, FrameObj& frame, const TracedBreak& brk,
                 const Entry& entry) {
  const int compileId = entry.compileId;
  if (CompileTrace* trace = frame.state.trace.get()) {
    trace->graphBreak(interp, frame, compileId, brk);
    trace->compileFailed(frame, entry, true, "");
  }
  if (brk.stmts.empty()) return;
  for (Stmt* s : brk.stmts) frame.breakStmts.insert(s);
  const Stmt* site = brk.stmts.back();
  for (const BreakSite& b : frame.breakSites)
    if (b.stmt == site) return;
  std::string where = interp.sources().name(brk.span.file) + ":" + std::to_string(brk.span.line);
  frame.breakSites.push_back(BreakSite{site, brk.reason(), where});
  ++frame.stats.graphBreaks;
  frame.state.log.write(LogCategory::GraphBreaks, frame.frameId, compileId,
                        "graph break in " + frame.name() + " at " + where + ": " + brk.reason());
}

std::string entryMismatch(const FrameObj& frame, Entry& entry, std::span<const Value> args,
                          FlatArgs& flat) {
  std::string r = matchArgs(entry.plan, args, flat, frame.options.device());
  if (!r.empty()) return r;
  r = matchGlobals(entry.globals);
  if (!r.empty()) return r;
  // Float inputs whose value the trace needed (a branch, an attribute): guarded equal.
  const auto& floats = entry.env->floatInputs();
  for (size_t i = 0; i < floats.size(); ++i)
    if (floats[i].specialized && !sameFloat(flat.floats[i], floats[i].hint))
      return floats[i].source + ": expected " + repr(Value::real(floats[i].hint)) + ", got " +
             repr(Value::real(flat.floats[i])) + " (the compiled code needed its value)";
  for (const shapes::ShapeEnv::FloatGuard& g : entry.env->floatGuards())
    if (shapes::compareFloats(g.cmp, flat.floats[g.input], g.constant) != g.outcome)
      return "float guard " + g.text + " failed: " + floats[g.input].source + " is " +
             repr(Value::real(flat.floats[g.input]));
  int failed = entry.guards.check(flat.sources);
  return failed < 0 ? "" : entry.guards.failureReason(failed, flat.sources);
}

Entry* findEntry(const FrameObj& frame, const std::vector<std::unique_ptr<Entry>>& entries,
                 std::span<const Value> args, FlatArgs& flat, std::string& reason) {
  for (size_t i = entries.size(); i-- > 0;) {
    std::string r = entryMismatch(frame, *entries[i], args, flat);
    if (r.empty()) return entries[i].get();
    if (i + 1 == entries.size()) reason = r;  // the newest entry's first failing guard
  }
  return nullptr;
}

int beginCompile(FrameObj& frame, const CompileUnit& unit, bool recompile,
                 const std::string& reason) {
  int compileId = frame.nextCompileId++;
  if (recompile) {
    ++frame.stats.recompiles;
    frame.stats.reasons.push_back(reason);
    frame.state.log.write(LogCategory::Recompiles, frame.frameId, compileId,
                          "recompile " + frame.name() + " (" + frame.location() + "): " + reason);
  }
  CompilerState& state = frame.state;
  if (state.trace)
    state.trace->compileStart(frame, compileId, unit.firstLine, unit.lastLine, recompile, reason);
  const bool pgo = state.config.pgo && !frame.script.empty();
  if (pgo && !unit.codeState.profileLoaded) loadProfile(frame, unit, compileId);
  updateCodeState(unit.codeState, unit.names, unit.values);
  exchangeCodeState(frame, unit.codeState, compileId, unit.firstLine);
  if (pgo) state.pgo->record(pgoKey(frame, unit), unit.codeState);
  return compileId;
}

void countCompile(FrameObj& frame, const Entry& entry) {
  ++frame.stats.compiles;
  frame.stats.compileMs += entry.compileMs;
  frame.stats.traceMs += entry.traceMs;
  frame.stats.solverMs += entry.solverMs;
  frame.stats.codegenMs += entry.codegenMs;
  if (frame.state.trace) frame.state.trace->compileEnd(frame, entry);
}

void compileFailed(FrameObj& frame, const Entry& entry, const std::exception& error) {
  if (!frame.state.trace) return;
  std::string text = error.what();
  if (auto* e = dynamic_cast<const UserError*>(&error))
    text = std::string(errorKindName(e->kind())) + ": " + text;
  frame.state.trace->compileFailed(frame, entry, false, text);
}

// Note [A trace that raises]
// A trace raises an error of the user's program (a ShapeError, an IndexError, ...) where the
// traced code does, but not always the error eager code raises first: a check on a
// data-dependent size is a runtime assert and an integer division by zero a kernel error, both
// raised only when the graph runs, so an error in a later statement surfaces first while
// tracing (found by tests/fuzz/fuzz_compile_diff: eager raised the IndexError of x[0] on an
// empty nonzero() result, compiled the ShapeError of a later add). Such a call is run eagerly
// too: an error of another kind there is the one raised. A traced body has no effects (side
// effects are graph breaks), so the eager run changes nothing visible. The trace's own error
// stands when eager code raises one of the same kind (its message may say more: a declared
// result that cannot be proven) or none (a check only compiled code makes, such as a tpu size
// above its declared max). Errors of the compiler itself (ConstraintViolation,
// DataDependentError, DeviceError, LimitError) and fullgraph's are raised as they are.
void raiseEagerError(const FrameObj& frame, const std::exception& traced,
                     const std::function<void()>& runEagerly) {
  auto* e = dynamic_cast<const UserError*>(&traced);
  if (!e || frame.options.fullgraph) return;
  switch (e->kind()) {
    case ErrorKind::NameError:
    case ErrorKind::TypeError:
    case ErrorKind::ShapeError:
    case ErrorKind::ValueError:
    case ErrorKind::IndexError:
    case ErrorKind::AssertionError:
    case ErrorKind::ZeroDivisionError:
    case ErrorKind::OverflowError:
    case ErrorKind::KeyError:
      break;
    default:
      return;
  }
  try {
    runEagerly();
  } catch (const UserError& eager) {
    if (eager.kind() != e->kind()) throw;
  }
}

GraphRun firstRun(FrameObj& frame, Entry& entry, const FlatArgs& flat) {
  entry.runs = 1;
  if (!frame.state.trace) return runGraph(entry, flat);
  auto start = std::chrono::steady_clock::now();
  GraphRun run = runGraph(entry, flat);
  frame.state.trace->firstRun(
      frame, entry,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  return run;
}

void countHit(FrameObj& frame, Entry& entry) {
  ++frame.stats.cacheHits;
  ++entry.runs;
  if (frame.state.trace && sampledCall(entry.runs)) frame.state.trace->run(frame, entry, entry.runs);
}

namespace {

Value runEntry(Entry& entry, const FlatArgs& flat) {
  return rebuildOutput(entry.output, runGraph(entry, flat));
}


Value callCompiled(Interpreter& interp, CallArgs& a) {
  FrameObj& frame = *a.self.as<FrameObj>();
  // A compiled function called while another is traced is traced through (inlined).
  if (traceContext().hooks) {
    std::vector<Value> kw(a.kwValues.begin(), a.kwValues.end());
    return interp.call(frame.function, a.positional, a.site, a.kwNames, kw);
  }
  auto* fn = frame.function.as<FunctionObj>();
  // Positional arguments, one per parameter, are already the canonical list bindParams makes:
  // such a call tries the direct path first (Note [Direct cache-hit calls]).
  const bool direct = a.kwNames.empty() && a.positional.size() == fn->proto->params.size() &&
                      !frame.fellBack && !frame.hasBreaks;
  if (direct) {
    // A call that breaks the signature fails before any work (language.md).
    if (fn->proto->hasSignature) checkCallSignature(interp, *fn, a.positional, a.site);
    if (std::optional<Value> result = callDirect(frame, a.positional)) return *result;
  }
  std::vector<Value> args = bindParams(*fn, a);
  if (fn->proto->hasSignature && !direct) checkCallSignature(interp, *fn, args, a.site);
  // Called from a broken statement of another compiled function: this one's blocks are not
  // that function's regions.
  ScopedBlockRunner ownBlocks(nullptr);
  if (frame.fellBack) {
    ++frame.stats.fallbacks;
    return interp.call(frame.function, args, a.site);
  }
  if (frame.hasBreaks) return callWithBreaks(interp, frame, args, a.site);
  FlatArgs flat;
  std::string reason;
  if (Entry* hit = findEntry(frame, frame.entries, args, flat, reason)) {
    countHit(frame, *hit);
    Value result = runEntry(*hit, flat);
    prepareDirect(*hit, flat);
    return result;
  }
  ++frame.stats.cacheMisses;
  CompilerState& state = frame.state;
  if (!frame.entries.empty() &&
      static_cast<int64_t>(frame.entries.size()) >= state.config.recompile_limit) {
    if (!frame.warned) {
      std::cerr << "tessel: warning: " << frame.name() << " (" << frame.location()
                << ") reached config.recompile_limit (" << state.config.recompile_limit
                << "); last failing guard: " << reason << "; running it eagerly from now on\n";
      frame.warned = true;
    }
    if (state.trace) state.trace->fallback(frame, 0, 0, reason);
    frame.fellBack = true;
    ++frame.stats.fallbacks;
    return interp.call(frame.function, args, a.site);
  }
  std::vector<std::string> params;
  for (const FnProto::Param& p : fn->proto->params) params.push_back(p.name);
  int compileId = beginCompile(frame, {frame.codeState, params, args}, !frame.entries.empty(),
                               reason);
  auto entry = std::make_unique<Entry>();
  entry->compileId = compileId;
  try {
    Tracer(interp, frame, *entry, frame.codeState).trace(args, a.site);
  } catch (const TracedBreak& brk) {
    recordBreak(interp, frame, brk, *entry);
    if (brk.stmts.empty()) {
      // The call itself cannot be traced (its where-clause needs data): eager from now on.
      frame.fellBack = true;
      ++frame.stats.fallbacks;
      return interp.call(frame.function, args, a.site);
    }
    // Nothing ran: from now on every call runs in regions (Note [Regions]).
    frame.hasBreaks = true;
    return callWithBreaks(interp, frame, args, a.site);
  } catch (const std::exception& e) {
    compileFailed(frame, *entry, e);
    raiseEagerError(frame, e, [&] { interp.call(frame.function, args, a.site); });
    throw;
  }
  countCompile(frame, *entry);
  Entry& installed = *entry;
  frame.entries.push_back(std::move(entry));
  std::string r = entryMismatch(frame, installed, args, flat);
  TESSEL_ASSERT(r.empty(), "a fresh entry rejects the call it was traced for: " + r);
  Value result = rebuildOutput(installed.output, firstRun(frame, installed, flat));
  prepareDirect(installed, flat);
  return result;
}

}  // namespace

namespace {

// The Tessel function behind a callable made from one: grad(f), value_and_grad(f) (their
// state is (f, argnums, with_value)), a compiled function; null for other built-ins.
const FunctionObj* underlyingFunction(const Value& v) {
  if (v.is(Type::Function)) return v.as<FunctionObj>();
  if (v.is(Type::Builtin)) {
    const Value& self = v.as<BuiltinObj>()->self;
    if (self.is(Type::Compiled)) return underlyingFunction(self.as<FrameObj>()->function);
    if (self.is(Type::Tuple) && !self.as<TupleObj>()->items.empty())
      return underlyingFunction(self.as<TupleObj>()->items[0]);
  }
  return nullptr;
}

// compile() of a callable that is not a Tessel function (value_and_grad(loss)): a Tessel
// function with the underlying function's parameters that calls it, so the tracer binds and
// names the arguments as for any function, and the callable runs inside the trace.
Value wrapCallable(Interpreter& interp, const Value& callable) {
  const FunctionObj* inner = underlyingFunction(callable);
  if (!inner)
    throwUserError(ErrorKind::TypeError,
                   "compile() needs a function (a fn, a lambda, a closure, or one made by grad, "
                   "value_and_grad or compile), not '" + std::string(typeName(callable.type())) +
                       "'");
  std::string params;
  for (const auto& p : inner->proto->params) params += (params.empty() ? "" : ", ") + p.name;
  Value maker = interp.evalExpression(
      "<compile>", "fn (compiled_target__) { return fn (" + params +
                       ") { return compiled_target__(" + params + ") } }");
  Value target[] = {callable};
  return interp.call(maker, target, inner->proto->span);
}

}  // namespace

Value makeCompiled(Interpreter& interp, const Value& callable, CompileOptions options) {
  const bool wrapped = !callable.is(Type::Function);
  const Value fn = wrapped ? wrapCallable(interp, callable) : callable;
  if (options.backend != "auto" && options.backend != "cpu" && options.backend != "vulkan" &&
      options.backend != "tpu")
    throwUserError(ErrorKind::ValueError, "compile(): unknown backend \"" + options.backend +
                                              "\" (auto, cpu, vulkan, tpu)");
  if (auto d = options.device()) ensureDevice(*d);
  auto* frameObj = new FrameObj(fn, std::move(options), interp.compiler());
  Value frame = Value::object(frameObj);
  const Span& span = underlyingFunction(callable)->proto->span;
  frameObj->file = interp.sources().name(span.file);
  frameObj->line = static_cast<int>(span.line);
  frameObj->where = frameObj->file + ":" + std::to_string(span.line);
  // A wrapper's profile would be keyed like its function's own: PGO keeps to plain functions.
  frameObj->script = wrapped ? "" : pgoScriptOf(frameObj->file);
  if (wrapped && callable.is(Type::Builtin)) frameObj->rename(callable.as<BuiltinObj>()->name);
  return Value::object(new BuiltinObj(frameObj->name(), callCompiled, frame));
}

}  // namespace tessel::interp
