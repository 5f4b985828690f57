// ExecutorBase: the plan (steps, bindings, asserts, releases) and the run loop.
#include "backends/graph/executor_base.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <string>

#include "backends/backend.h"
#include "shapes/expr.h"
#include "shapes/shape_env.h"
#include "shapes/user_error.h"

namespace tessel::graph {

using backends::Dims;
using shapes::OpCategory;

namespace {

std::string dimsText(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

}  // namespace

ExecutorBase::ExecutorBase(const Graph& g, const CompileOptions& options) {
  OptimizedGraph o = optimize(g, options);
  graph_ = std::move(o.graph);
  stats_ = o.stats;
  const auto t0 = std::chrono::steady_clock::now();

  const size_t ns = graph_.numSymbols();
  shapes::ShapeEnv* env = graph_.env();
  unbacked_.assign(ns, 0);
  external_.assign(ns, 0);
  for (size_t s = 0; s < ns; ++s) unbacked_[s] = env->symbol(static_cast<uint32_t>(s)).unbacked;

  // Which step binds each unbacked symbol (-1: an input), and the backed symbols needed.
  std::vector<int> bindStep(ns, INT_MAX);
  std::vector<uint8_t> needed(ns, 0);
  auto need = [&](const std::vector<uint32_t>& syms) {
    for (uint32_t s : syms)
      if (s < ns && (!unbacked_[s] || external_[s])) needed[s] = 1;
  };
  std::vector<int> lastUse(graph_.size(), -1);
  isOutput_.assign(graph_.size(), 0);
  for (ValueId out : graph_.outputs()) isOutput_[out] = 1;

  for (ValueId id = 0; id < graph_.size(); ++id) {
    const Value& v = graph_.value(id);
    for (const SymInt& d : v.shape) need(freeSymbols(d));
    const int stepIndex = v.isNode() ? static_cast<int>(steps_.size()) : -1;
    bool binds = false;
    const bool producer =
        v.kind == ValueKind::Input ||
        (v.kind == ValueKind::Op && shapes::opCategory(v.op) == OpCategory::DataDependent);
    for (uint32_t s : unbackedSymbolsOf(v)) {
      if (bindStep[s] != INT_MAX) continue;
      if (producer) {
        bindStep[s] = stepIndex;
        binds = true;
      } else {
        // First seen in an op that does not produce it (an .item() before the graph, say):
        // its value comes with the call, like a backed symbol's.
        external_[s] = 1;
        needed[s] = 1;
        bindStep[s] = -1;
      }
    }
    if (!v.isNode()) continue;
    Step st;
    st.id = id;
    st.value = &v;
    st.binds = binds;
    st.cat = v.kind == ValueKind::Op ? shapes::opCategory(v.op) : OpCategory::Unary;
    st.staticSig = isConstantShape(v.shape);
    if (st.staticSig) st.sig = {v.shape, v.dtype};
    if (v.kind == ValueKind::Op && v.op == OpKind::Item) {
      // Its attribute is the symbol it binds, not an input of its kernel.
      st.staticAttrs = true;
      if (auto e = v.attrs.index.expr(); e && e->kind == shapes::ExprKind::Sym)
        st.itemSymbol = static_cast<int64_t>(e->value);
    } else if (v.kind == ValueKind::Op) {
      need(attrSymbols(v.attrs));
      st.staticAttrs = attrsAreConstant(v.attrs);
    }
    for (ValueId a : v.args) lastUse[a] = stepIndex;
    steps_.push_back(std::move(st));
  }
  for (ValueId id = 0; id < graph_.size(); ++id)
    if (lastUse[id] >= 0 && graph_.value(id).isNode() && !isOutput_[id])
      steps_[lastUse[id]].release.push_back(id);
  for (uint32_t i = 0; i < graph_.runtimeAsserts().size(); ++i) {
    const shapes::SymBool& c = graph_.runtimeAsserts()[i].cond;
    if (c.isConstant()) continue;
    int at = -1;
    for (uint32_t s : c.expr()->syms) {
      if (s < ns && unbacked_[s]) at = std::max(at, bindStep[s]);
      if (s < ns && (!unbacked_[s] || external_[s])) needed[s] = 1;
    }
    if (at == INT_MAX) continue;  // bound by no value of this graph: nothing to check here
    (at < 0 ? initialAsserts_ : steps_[at].asserts).push_back(i);
  }
  for (uint32_t s = 0; s < ns; ++s)
    if (needed[s]) neededSymbols_.push_back(s);
  bindStepOf_ = std::move(bindStep);
  stats_.loweringMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

ExecutorBase::~ExecutorBase() = default;

void ExecutorBase::bindShape(const SymShape& shape, const Dims& actual, std::string_view whatText,
                             std::string_view name) {
  auto named = [&] { return std::string(whatText) + std::string(name); };
  auto mismatch = [&] {
    const std::string what = named();
    std::string expected = shapes::toString(shape);
    throwUserError(ErrorKind::ShapeError,
                   what + ": expected shape " + expected + ", got " + dimsText(actual));
  };
  if (shape.size() != actual.size()) mismatch();
  for (size_t i = 0; i < shape.size(); ++i) {
    const SymInt& d = shape[i];
    if (d.isSymbolic()) {
      shapes::Expr e = d.expr();
      if (e->kind == shapes::ExprKind::Sym && !syms_.bound(static_cast<uint32_t>(e->value))) {
        syms_.bind(static_cast<uint32_t>(e->value), actual[i]);
        continue;
      }
      for (uint32_t s : e->syms)
        if (!syms_.bound(s))
          throwUserError(ErrorKind::ValueError,
                         named() + ": size " + d.toString() + " cannot be bound from the sizes (" +
                             std::string(e->ctx->symbols().at(s).name) +
                             " appears in no size on its own); pass the symbol values");
    }
    if (syms_.eval(d) != actual[i]) mismatch();
  }
}

void ExecutorBase::bindInputs(std::span<const Tensor> inputs,
                              std::span<const int64_t> symbolValues) {
  syms_.reset(graph_.numSymbols());
  const size_t given = std::min(symbolValues.size(), syms_.size());
  for (uint32_t s = 0; s < given; ++s)
    if (!unbacked_[s] || external_[s]) syms_.bind(s, symbolValues[s]);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value& v = graph_.value(graph_.inputs()[i]);
    bindShape(v.shape, inputs[i].shape(), "graph input ", v.name);
  }
  for (uint32_t s : neededSymbols_)
    if (!syms_.bound(s))
      throwUserError(ErrorKind::ValueError,
                     "graph run: no value for symbol " + graph_.env()->symbol(s).name +
                         " (pass one value per symbol, or inputs whose sizes bind it)");
}

const SymbolValues& ExecutorBase::bindFromInputs(std::span<const Tensor> inputs) {
  bindInputs(inputs, {});
  checkAsserts(initialAsserts_);
  return syms_;
}

void ExecutorBase::checkAsserts(const std::vector<uint32_t>& which) const {
  for (uint32_t i : which) {
    const RuntimeAssert& a = graph_.runtimeAsserts()[i];
    if (syms_.eval(a.cond)) continue;
    std::string values;
    for (uint32_t s : a.cond.expr()->syms)
      values += (values.empty() ? "" : ", ") + graph_.env()->symbol(s).name + " = " +
                std::to_string(syms_.values()[s]);
    if (!a.failMessage.empty())
      throwUserError(a.failKind, a.failMessage + ", with " + values + " at run time");
    throwUserError(a.failKind, "runtime assert failed: " + a.text + " (" + values + ")");
  }
}

void ExecutorBase::beginRun(std::span<const Tensor> inputs, backends::Device device,
                            const std::string& where) {
  ++runStats_.runs;
  runStats_.kernelCalls = runStats_.allocations = runStats_.bytesAllocated = 0;
  const auto& ins = graph_.inputs();
  if (inputs.size() != ins.size())
    throwUserError(ErrorKind::ValueError, "graph run: expected " + std::to_string(ins.size()) +
                                              " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value& v = graph_.value(ins[i]);
    if (!inputs[i].defined())
      throwUserError(ErrorKind::ValueError, "graph input " + v.name + " is undefined");
    if (inputs[i].dtype() != v.dtype)
      throwUserError(ErrorKind::TypeError, "graph input " + v.name + ": expected " +
                                               std::string(shapes::name(v.dtype)) + ", got " +
                                               std::string(shapes::name(inputs[i].dtype())));
    if (inputs[i].device() != device)
      throwUserError(ErrorKind::DeviceError, "graph input " + v.name + " is not on " + where);
  }
}

std::vector<Tensor> ExecutorBase::runSteps(std::span<const Tensor> inputs,
                                           std::span<const int64_t> symbolValues) {
  const auto& ins = graph_.inputs();
  bindInputs(inputs, symbolValues);
  checkAsserts(initialAsserts_);

  slots_.resize(graph_.size());
  struct Clear {  // drop every intermediate, also when a kernel throws
    std::vector<Tensor>& slots;
    ~Clear() {
      for (Tensor& t : slots) t = Tensor();
    }
  } clear{slots_};
  for (size_t i = 0; i < inputs.size(); ++i) slots_[ins[i]] = inputs[i];
  for (ValueId id = 0; id < graph_.size(); ++id)
    if (graph_.value(id).kind == ValueKind::Constant) slots_[id] = constant(id);

  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& s = steps_[i];
    const Value& v = *s.value;
    args_.clear();
    for (ValueId a : v.args) args_.push_back(slots_[a]);
    shapes::OpSignature dynSig;
    // Data-dependent kernels size their output themselves; its unbacked sizes bind after.
    if (!s.staticSig && s.cat != OpCategory::DataDependent) {
      const Dims d = syms_.evalShape(v.shape);
      dynSig = {SymShape(d.begin(), d.end()), v.dtype};
    }
    shapes::OpAttrs dynAttrs;
    if (v.kind == ValueKind::Op && !s.staticAttrs) dynAttrs = syms_.evalAttrs(v.attrs);
    const bool staticAttrs = v.kind != ValueKind::Op || s.staticAttrs;
    Tensor out =
        launch(i, s, args_, s.staticSig ? s.sig : dynSig, staticAttrs ? v.attrs : dynAttrs);
    ++runStats_.kernelCalls;
    bool fresh = true;
    for (const Tensor& a : args_) fresh = fresh && a.storage() != out.storage();
    if (fresh) {
      ++runStats_.allocations;
      runStats_.bytesAllocated += uint64_t(out.numel()) * shapes::elementSize(out.dtype());
    }
    if (s.binds) bindShape(v.shape, out.shape(), shapes::opName(v.op));
    if (s.itemSymbol >= 0 && bindStepOf_[s.itemSymbol] == static_cast<int>(i))
      syms_.bind(static_cast<uint32_t>(s.itemSymbol),
                 backends::toDevice(out, backends::Device::Cpu).toInts()[0]);
    checkAsserts(s.asserts);
    slots_[s.id] = std::move(out);
    for (ValueId r : s.release) slots_[r] = Tensor();
  }
  args_.clear();
  std::vector<Tensor> outs;
  outs.reserve(graph_.outputs().size());
  for (ValueId o : graph_.outputs()) outs.push_back(slots_[o]);
  return outs;
}

}  // namespace tessel::graph
