// Tracing a @compile function: ops into the graph, globals, outputs, and finishing the entry
// (guards, executable). Inputs and the dynamic-shape policy: tracer_inputs.cpp.
#include "interp/compile/tracer.h"

#include <chrono>
#include <cmath>
#include <functional>

#include "backends/graph/cpu_executor.h"
#include "backends/graph/sym_eval.h"
#include "backends/tpu/program.h"
#include "backends/vulkan/graph_executor.h"
#include "interp/compile/compiler_state.h"
#include "interp/tensors/device_support.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "interp/tensors/trace_tape.h"
#include "shapes/expr.h"
#include "shapes/user_error.h"

namespace tessel::interp {

Tracer::Tracer(Interpreter& interp, FrameObj& frame, Entry& entry, CodeState& codeState)
    : interp_(interp), frame_(frame), entry_(entry), codeState_(codeState) {}

Tracer::~Tracer() = default;

backends::Device Tracer::targetDevice() const {
  return frame_.options.device().value_or(device_.value_or(defaultDevice()));
}

void Tracer::log(LogCategory c, const std::string& text) {
  frame_.state.log.write(c, frame_.frameId, entry_.compileId, text);
}

Value Tracer::fake(graph::ValueId id) {
  return Value::object(new TensorObj(
      FakeTensor{id, builder_->shape(id), builder_->dtype(id), targetDevice(), this}));
}

graph::ValueId Tracer::operand(const Value& v) {
  switch (v.type()) {
    case Type::Tensor: {
      auto* obj = v.as<TensorObj>();
      if (obj->fake) {
        if (obj->fake->tracer != this)
          throwUserError(ErrorKind::ValueError,
                         "a tensor traced by another compiled function was used here");
        return obj->fake->value;
      }
      // A real tensor read by the body (a closed-over weight): a constant of the graph.
      const Tensor& t = asTensor(v);
      auto [it, inserted] = constants_.emplace(t.id(), 0);
      if (inserted) it->second = builder_->constant(t);
      return it->second;
    }
    case Type::SymInt: {
      // A size used as a tensor operand (x * x.shape[0]): arange(s, s + 1) reshaped to 0-d
      // computes it in the graph from the symbol's run-time value.
      shapes::SymInt s = toSymInt(v);
      shapes::OpAttrs range;
      range.start = s;
      range.stop = s + 1;
      range.step = 1;
      range.dtype = shapes::DType::I32;
      graph::ValueId one = builder_->op(shapes::OpKind::Arange, {}, range);
      shapes::OpAttrs scalar;
      return builder_->op(shapes::OpKind::Reshape, {one}, scalar);
    }
    case Type::SymFloat:
      return floatOperand(v.as<SymFloatObj>()->value.expr());
    default:
      return builder_->constant(toTensor(v, "operand"));
  }
}

namespace {

// The graph op computing each float operation over unbacked sizes (Input has a hint: it is an
// input, never an op).
shapes::OpKind graphOpOf(shapes::FloatOp f) {
  using shapes::FloatOp;
  using shapes::OpKind;
  switch (f) {
    case FloatOp::Neg: return OpKind::Neg;
    case FloatOp::Sqrt: return OpKind::Sqrt;
    case FloatOp::Exp: return OpKind::Exp;
    case FloatOp::Log: return OpKind::Log;
    case FloatOp::Abs: return OpKind::Abs;
    case FloatOp::Sin: return OpKind::Sin;
    case FloatOp::Cos: return OpKind::Cos;
    case FloatOp::Tanh: return OpKind::Tanh;
    case FloatOp::Add: return OpKind::Add;
    case FloatOp::Sub: return OpKind::Sub;
    case FloatOp::Mul: return OpKind::Mul;
    case FloatOp::Div: return OpKind::Div;
    case FloatOp::Pow: return OpKind::Pow;
    case FloatOp::Min: return OpKind::Minimum;
    case FloatOp::Max: return OpKind::Maximum;
    case FloatOp::Const:
    case FloatOp::OfInt:
    case FloatOp::Input: break;
  }
  throw std::logic_error("no graph op for this float operation");
}

}  // namespace

graph::ValueId Tracer::floatOperand(const shapes::FloatExpr& e) {
  if (auto it = floats_.find(e); it != floats_.end()) return it->second;
  graph::ValueId id = 0;
  if (e->hint) {
    // Known before the graph runs: the call computes it on the host in f64, as eager code
    // does, and passes it as a 0-d input (cast to f32 where it meets a tensor, as eagerly).
    id = builder_->input(shapes::SymFloat(e).toString(entry_.env->floatInputNames()), {},
                         shapes::DType::F32);
    entry_.derivedInputs.push_back(e);
    entry_.derivedDevice = targetDevice();
  } else {
    // Over unbacked sizes, known only inside the graph: the same arithmetic as graph ops.
    using shapes::FloatOp;
    if (e->op == FloatOp::Const) {
      id = builder_->constant(backends::Tensor::scalar(e->value, shapes::DType::F32));
    } else if (e->op == FloatOp::OfInt) {
      shapes::OpAttrs cast;
      cast.dtype = shapes::DType::F32;
      id = builder_->op(shapes::OpKind::Cast, {operand(makeSymInt(e->ofInt))}, cast);
    } else {
      std::vector<graph::ValueId> in{floatOperand(e->a)};
      if (e->b) in.push_back(floatOperand(e->b));
      id = builder_->op(graphOpOf(e->op), in, shapes::OpAttrs{});
    }
  }
  floats_.emplace(e, id);
  return id;
}

Value Tracer::emit(shapes::OpKind op, std::span<const Value> operands,
                   const shapes::OpAttrs& attrs) {
  std::vector<graph::ValueId> ids;
  ids.reserve(operands.size());
  for (const Value& v : operands) ids.push_back(operand(v));
  Value out = fake(builder_->op(op, ids, attrs));
  // Arithmetic on kept numbers (x.item() under capture_scalar_outputs) gives a number.
  bool number = false, tensor = false;
  for (const Value& v : operands)
    if (v.is(Type::Tensor)) (isFake(v) && v.as<TensorObj>()->fake->scalarItem ? number : tensor) = true;
  FakeTensor& made = *out.as<TensorObj>()->fake;
  made.scalarItem = number && !tensor && made.shape.empty();
  if (anyTraceTapeActive()) {
    // grad() inside the trace (interp/tensors/trace_tape.h): operands as the graph values they became.
    std::vector<Value> fakes;
    for (size_t i = 0; i < operands.size(); ++i)
      fakes.push_back(isFake(operands[i]) ? operands[i] : fake(ids[i]));
    recordOnTraceTapes(op, fakes, attrs, out);
  }
  return out;
}

void Tracer::enterStatement(Stmt* stmt, Span span) {
  stmts_.push_back(stmt);
  stmtSpans_.push_back(span);
  const SourceRegistry& sources = interp_.sources();
  locs_.push_back(std::make_unique<shapes::ScopedSourceLoc>(
      sources.name(span.file), static_cast<int>(span.line), static_cast<int>(span.col),
      std::string(sources.line(span.file, span.line))));
}

void Tracer::leaveStatement() {
  locs_.pop_back();
  stmts_.pop_back();
  stmtSpans_.pop_back();
}

bool Tracer::breaksAllowed() const {
  return !frame_.options.fullgraph;
}

void Tracer::graphBreak(ErrorKind kind, const std::string& reason) {
  if (frame_.options.fullgraph)
    throwUserError(kind, reason + " (a graph break; fullgraph = true allows none)");
  // Outside any statement (a where-clause of the signature): the whole call runs eagerly.
  throw TracedBreak(kind, reason, stmts_, stmtSpans_.empty() ? Span{} : stmtSpans_.back());
}

Value Tracer::captureItem(const Value& x) {
  if (!frame_.state.config.capture_scalar_outputs) return Value::none();
  // item() of a tensor that is not one element is an error eagerly: the break lets it happen.
  int64_t n = 1;
  for (const shapes::SymInt& d : builder_->shape(operand(x))) {
    auto c = d.maybeConstant();
    if (!c) graphBreak(ErrorKind::DataDependentError, "x.item() of a tensor of unknown size");
    n *= *c;
  }
  if (n != 1) graphBreak(ErrorKind::ValueError, "x.item() of a tensor with several elements");
  const shapes::DType dtype = builder_->dtype(operand(x));
  if (dtype == shapes::DType::I32) {
    // An int: an unbacked symbol (PyTorch's unbacked SymInt) that the item op binds when the
    // graph runs, so it sizes later values, feeds check() and shape arithmetic as a
    // data-dependent size does (Note [Captured items] in backends/graph/executor_base.h).
    // Any int, negative too: used as a size, it gets the usual runtime check.
    shapes::SymInt u = entry_.env->createUnbacked(/*isSize=*/false);
    shapes::OpAttrs attrs;
    attrs.index = u;
    emit(shapes::OpKind::Item, std::span<const Value>(&x, 1), attrs);
    return makeSymInt(u);
  }
  // A float or a bool: a number the graph computes, a 0-d tensor inside, a number again when
  // it leaves.
  Value out = emit(shapes::OpKind::Reshape, std::span<const Value>(&x, 1), shapes::OpAttrs{});
  out.as<TensorObj>()->fake->scalarItem = true;
  return out;
}

void Tracer::globalRead(ModuleObj& module, uint32_t slot, const Value& value) {
  if (value.is(Type::Undefined)) return;
  for (const GlobalGuard& g : entry_.globals)
    if (g.module.get() == &module && g.slot == slot) return;
  GlobalGuard g;
  g.module = Ref<ModuleObj>(&module);
  g.slot = slot;
  g.name = module.globalNames[slot];
  g.expected = value;
  Type t = value.type();
  g.byIdentity = !(t == Type::None || t == Type::Bool || t == Type::Int || t == Type::Float ||
                   t == Type::Str || t == Type::DType);
  entry_.globals.push_back(std::move(g));
}

OutputTemplate Tracer::graphOutput(const Value& v, OutputTemplate::Kind kind) {
  OutputTemplate out;
  out.kind = kind;
  out.output = outputs_.size();
  outputs_.push_back(operand(v));
  return out;
}

OutputTemplate Tracer::planOutput(const Value& v) {
  OutputTemplate out;
  if (v.isHeap()) {
    auto it = inputObjects_.find(v.asObject());
    if (it != inputObjects_.end()) {
      out.kind = OutputTemplate::Kind::Input;
      out.output = it->second;
      return out;
    }
  }
  switch (v.type()) {
    case Type::Tensor:
      if (isFake(v))
        return graphOutput(v, v.as<TensorObj>()->fake->scalarItem ? OutputTemplate::Kind::Number
                                                                   : OutputTemplate::Kind::Output);
      break;
    case Type::SymInt: {
      shapes::SymInt s = toSymInt(v);
      for (uint32_t sym : graph::freeSymbols(s))
        if (entry_.env->symbol(sym).unbacked)  // known when the graph has run: read it back
          return graphOutput(v, OutputTemplate::Kind::Number);
      out.kind = OutputTemplate::Kind::Size;
      out.size = s;
      return out;
    }
    case Type::SymFloat: {
      // The call computes it in f64 from its sizes and float inputs; unbacked sizes in it are
      // read back from the graph first.
      const shapes::SymFloat& f = v.as<SymFloatObj>()->value;
      out.kind = OutputTemplate::Kind::Float;
      out.floatExpr = f.expr();
      std::vector<shapes::SymInt> ints;
      std::vector<uint32_t> floatInputs;
      shapes::floatLeaves(f.expr(), ints, floatInputs);
      for (const shapes::SymInt& i : ints)
        for (uint32_t sym : graph::freeSymbols(i)) {
          if (!entry_.env->symbol(sym).unbacked) continue;
          bool seen = false;
          for (auto& [u, at] : out.unbacked) seen |= u == sym;
          if (seen) continue;
          Value size = makeSymInt(shapes::SymInt(entry_.env->ctx().symbol(sym)));
          out.unbacked.emplace_back(sym, graphOutput(size, OutputTemplate::Kind::Number).output);
        }
      return out;
    }
    case Type::SymBool:
      out.constant = Value::boolean(concreteBool(v));
      return out;
    case Type::List:
    case Type::Tuple: {
      bool isList = v.is(Type::List);
      out.kind = isList ? OutputTemplate::Kind::List : OutputTemplate::Kind::Tuple;
      for (const Value& item : isList ? v.as<ListObj>()->items : v.as<TupleObj>()->items)
        out.children.push_back(planOutput(item));
      return out;
    }
    case Type::Dict:
      out.kind = OutputTemplate::Kind::Dict;
      for (auto& [k, item] : v.as<DictObj>()->entries) {
        out.keys.push_back(k);
        out.children.push_back(planOutput(item));
      }
      return out;
    default:
      break;
  }
  out.kind = OutputTemplate::Kind::Constant;
  out.constant = v;
  return out;
}

void Tracer::beginTrace() {
  const CompilerConfig& config = frame_.state.config;
  shapes::ShapeEnvConfig envConfig;
  envConfig.duck_shape = config.duck_shape;
  envConfig.backed_size_oblivious = config.backed_size_oblivious;
  envConfig.specialize_zero_one = !config.backed_size_oblivious;
  envConfig.solver_rlimit = static_cast<uint32_t>(std::max<int64_t>(0, config.solver_rlimit));
  entry_.env = std::make_unique<shapes::ShapeEnv>(envConfig);
  if (frame_.state.log.on(LogCategory::Dynamic)) {
    entry_.env->logger = [this](std::string_view line) {
      bool verbose = !(line.starts_with("create_symbol") || line.starts_with("eval") ||
                       line.starts_with("update_range") || line.starts_with("set_replacement") ||
                       line.starts_with("specialize"));
      log(verbose ? LogCategory::DynamicVerbose : LogCategory::Dynamic, std::string(line));
    };
  }
  builder_ = std::make_unique<graph::GraphBuilder>(entry_.env.get());
}

template <class F>
void Tracer::traced(F&& body) {
  ScopedOpSink sink(this);
  TraceHooks* saved = traceContext().hooks;
  setTraceHooks(this);
  struct Restore {
    TraceHooks* saved;
    ~Restore() { setTraceHooks(saved); }
  } restore{saved};
  body();
}

void Tracer::trace(std::span<const Value> args, Span site) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  beginTrace();
  shapes::ScopedShapeEnv envScope(entry_.env.get());

  auto* fn = frame_.function.as<FunctionObj>();
  FnProto* proto = fn->proto;
  std::vector<Value> fakes;
  entry_.plan.args.resize(args.size());
  {
    // Symbols are created at the function's line (compiler.md's create_symbol log).
    shapes::ScopedSourceLoc loc(
        interp_.sources().name(proto->span.file), static_cast<int>(proto->span.line), 0,
        std::string(interp_.sources().line(proto->span.file, proto->span.line)));
    for (size_t i = 0; i < args.size(); ++i)
      fakes.push_back(
          planArg(args[i], proto->params[i].name, entry_.plan.args[i], proto->params[i].type));
  }
  auto inputsDone = Clock::now();
  Value result;
  traced([&] { result = interp_.call(frame_.function, fakes, site); });
  entry_.output = planOutput(result);
  finishTrace(start, inputsDone);
}

void Tracer::traceRegion(const RegionTrace& region) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  beginTrace();
  shapes::ScopedShapeEnv envScope(entry_.env.get());

  Frame& real = *region.frame;
  const FnProto& proto = *real.closure->proto;
  const std::vector<bool>& reads = *region.reads;
  // The region runs on a copy of the frame's slots: the ones it reads hold fakes, the others
  // nothing (it writes them before reading them).
  std::vector<Value> slots(proto.numSlots, Value::undefined());
  {
    Stmt* first = sourceOf(*region.block)[region.begin];
    shapes::ScopedSourceLoc loc(
        interp_.sources().name(first->span.file), static_cast<int>(first->span.line), 0,
        std::string(interp_.sources().line(first->span.file, first->span.line)));
    for (uint32_t s = 0; s < proto.numSlots; ++s) {
      if (!reads[s]) continue;
      entry_.plan.args.emplace_back();
      ArgNode& node = entry_.plan.args.back();
      const Value& v = real.slots[s];
      if (v.is(Type::Undefined)) {
        node.kind = ArgNode::Kind::Unbound;
        node.path = proto.slotNames[s];
        continue;
      }
      slots[s] = planArg(v, proto.slotNames[s], node, nullptr);
      if (slots[s].isHeap()) inputObjects_.emplace(slots[s].asObject(), s);
    }
  }
  std::vector<Value> inputs(slots);  // what each slot held when the region began
  auto inputsDone = Clock::now();
  Frame frame{slots.data(), real.closure, real.module, Value()};
  traced([&] {
    Evaluator& ev = interp_.evaluator();
    const CBlock& block = ev.blockInMode(*real.closure->proto, sourceOf(*region.block));
    entry_.flow = ev.runStatements(block, region.begin, region.end, frame);
  });
  for (uint32_t s = 0; s < proto.numSlots; ++s) {
    const Value& now = slots[s];
    const Value& before = inputs[s];
    bool same = now.type() == before.type() &&
                (now.isHeap() ? now.asObject() == before.asObject()
                              : now.is(Type::Undefined) || valuesEqual(now, before));
    if (!same) entry_.slotOutputs.emplace_back(s, planOutput(now));
  }
  if (entry_.flow == Flow::Return) entry_.output = planOutput(frame.result);
  finishTrace(start, inputsDone);
}

void Tracer::finishTrace(std::chrono::steady_clock::time_point start,
                         std::chrono::steady_clock::time_point traced) {
  using Clock = std::chrono::steady_clock;
  shapes::ShapeEnv& env = *entry_.env;
  for (graph::ValueId id : outputs_) builder_->output(id);
  env.checkConstraints();
  if (targetDevice() == backends::Device::Tpu) boundTpuSizes(env);
  auto bodyDone = Clock::now();

  graph::Graph g = builder_->build();
  if (targetDevice() == backends::Device::Vulkan) {
    ensureDevice(backends::Device::Vulkan);
    entry_.executable = backends::vulkan::compileForVulkan(g);
  } else if (targetDevice() == backends::Device::Tpu) {
    ensureDevice(backends::Device::Tpu);
    entry_.executable = backends::tpu::compileForTpu(
        g, {},
        frame_.name() + "[" + std::to_string(frame_.frameId) + "/" +
            std::to_string(entry_.compileId) + "]");
  } else {
    entry_.executable = std::make_unique<graph::CpuGraphExecutor>(g);
  }
  entry_.guards = env.compileGuards();
  for (const shapes::Guard& guard : entry_.guards.guards()) entry_.guardTexts.push_back(guard.text);
  for (const auto& fg : env.floatGuards()) entry_.guardTexts.push_back(fg.text);
  for (const GlobalGuard& gg : entry_.globals) {
    // Built-ins the body calls are guarded too (a script may rebind them), but listing them
    // would bury the guards a user wants to read.
    Value* builtin = interp_.prelude().lookup(gg.name);
    if (builtin && builtin->isHeap() && gg.expected.isHeap() &&
        builtin->asObject() == gg.expected.asObject())
      continue;
    entry_.guardTexts.push_back(
        "global " + gg.name + (gg.byIdentity ? " is the same object" : " == " + repr(gg.expected)));
  }
  entry_.graphText = entry_.executable->graph().toString();
  entry_.backend = std::string(backends::deviceName(targetDevice()));
  auto done = Clock::now();
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  entry_.compileMs = ms(start, done);
  entry_.traceMs = ms(start, bodyDone);
  entry_.codegenMs = ms(bodyDone, done);
  entry_.solverMs = env.stats().solverNanos / 1e6;

  if (frame_.state.log.on(LogCategory::Guards)) {
    for (const shapes::Guard& guard : entry_.guards.guards())
      log(LogCategory::Guards,
          "guard " + guard.text + (guard.loc.known() ? " at " + guard.loc.toString() : ""));
    for (size_t i = entry_.guards.guards().size(); i < entry_.guardTexts.size(); ++i)
      log(LogCategory::Guards, "guard " + entry_.guardTexts[i]);
  }
  if (frame_.state.log.on(LogCategory::GraphCode))
    log(LogCategory::GraphCode, "graph for " + frame_.name() + ":\n" + entry_.graphText);
  if (frame_.state.log.on(LogCategory::Perf)) {
    const shapes::ShapeEnvStats& st = env.stats();
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "compile %s: %.3f ms (inputs %.3f, trace %.3f, codegen %.3f; solver %.3f ms in "
                  "%llu queries)",
                  frame_.name().c_str(), entry_.compileMs, ms(start, traced), ms(traced, bodyDone),
                  ms(bodyDone, done), st.solverNanos / 1e6,
                  static_cast<unsigned long long>(st.solverQueries));
    log(LogCategory::Perf, buf);
    log(LogCategory::Perf, entry_.executable->stats().toString());
  }
}

}  // namespace tessel::interp
