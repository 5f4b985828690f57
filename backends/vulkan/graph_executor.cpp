// VulkanGraphExecutor: the plan (as CpuGraphExecutor's), the run loop over the eager vulkan
// kernels, and fused values as one generated kernel each (Note [Fused kernel interface]).
#include "backends/vulkan/graph_executor.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <string>

#include "backends/graph/fused_program.h"
#include "backends/vulkan/counters.h"
#include "backends/vulkan/fused_cache.h"
#include "backends/vulkan/fused_codegen.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/expr.h"
#include "shapes/shape_env.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

using graph::FusedInstr;
using graph::FusedProgram;
using graph::Graph;
using graph::Value;
using graph::ValueId;
using graph::ValueKind;
using shapes::OpCategory;

struct VulkanGraphExecutor::Step {
  ValueId id = 0;
  const Value* value = nullptr;
  OpCategory cat = OpCategory::Unary;
  bool staticSig = false;
  bool staticAttrs = false;
  shapes::OpSignature sig;
  bool binds = false;
  std::vector<uint32_t> asserts;
  std::vector<ValueId> release;
  // Fused values.
  FusedKernelSource source;
  std::shared_ptr<const FusedPipeline> pipeline;  ///< null: run op by op (runFusedEager)
};

namespace {

std::string dimsText(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

// The compute dtype rules of ops_elementwise.cpp, for the op-by-op path.
Tensor deviceScalar(double v, DType t) { return toVulkan(Tensor::scalar(v, t)); }

struct FusedPush {
  uint32_t n, meta, shape[4], outOff;
  uint32_t inp[5 * kFusedMaxInputs];
};
static_assert(sizeof(FusedPush) == kPushConstantBytes);

}  // namespace

Tensor runFusedEager(const FusedProgram& p, std::span<const Tensor> args, const Dims& shape,
                     DType dtype) {
  std::vector<Tensor> t(p.code.size());
  for (size_t i = 0; i < p.code.size(); ++i) {
    const FusedInstr& ins = p.code[i];
    switch (ins.kind) {
      case FusedInstr::Kind::Load:
        t[i] = args[ins.input];
        break;
      case FusedInstr::Kind::Scalar:
        t[i] = deviceScalar(ins.scalar, ins.dtype);
        break;
      case FusedInstr::Kind::Op: {
        const shapes::OpSignature sig{shapes::SymShape(shape.begin(), shape.end()), ins.dtype};
        std::vector<Tensor> in;
        for (int a = 0; a < ins.numArgs(); ++a) in.push_back(t[ins.args[a]]);
        if (ins.op == OpKind::Cast) {
          t[i] = castDevice(in[0], ins.dtype);
          break;
        }
        switch (shapes::opCategory(ins.op)) {
          case OpCategory::Unary: t[i] = runUnary(ins.op, in[0], sig); break;
          case OpCategory::Binary: t[i] = runBinary(ins.op, in[0], in[1], sig); break;
          case OpCategory::Ternary: t[i] = runTernary(ins.op, in, sig); break;
          default: TESSEL_ASSERT(false, "fused: not an elementwise op");
        }
        break;
      }
    }
  }
  Tensor r = t.back();
  if (r.shape() == shape && r.dtype() == dtype && r.isContiguous() && r.offset() == 0 &&
      p.code.back().kind == FusedInstr::Kind::Op)
    return r;
  Tensor out = emptyDevice(shape, dtype);
  Tensor src = r.shape() == shape ? r : r.expand(shape);
  copyInto(out, src);
  return out;
}

VulkanGraphExecutor::VulkanGraphExecutor(const Graph& g, const graph::CompileOptions& options) {
  Runtime::instance();  // DeviceError without a device
  graph::OptimizedGraph o = graph::optimize(g, options);
  graph_ = std::move(o.graph);
  stats_ = o.stats;
  const auto t0 = std::chrono::steady_clock::now();

  const size_t ns = graph_.numSymbols();
  shapes::ShapeEnv* env = graph_.env();
  unbacked_.assign(ns, 0);
  external_.assign(ns, 0);
  for (size_t s = 0; s < ns; ++s) unbacked_[s] = env->symbol(static_cast<uint32_t>(s)).unbacked;

  std::vector<int> bindStep(ns, INT_MAX);
  std::vector<uint8_t> needed(ns, 0);
  auto need = [&](const std::vector<uint32_t>& syms) {
    for (uint32_t s : syms)
      if (s < ns && (!unbacked_[s] || external_[s])) needed[s] = 1;
  };
  std::vector<int> lastUse(graph_.size(), -1);
  isOutput_.assign(graph_.size(), 0);
  for (ValueId out : graph_.outputs()) isOutput_[out] = 1;
  constants_.resize(graph_.size());

  for (ValueId id = 0; id < graph_.size(); ++id) {
    const Value& v = graph_.value(id);
    if (v.kind == ValueKind::Constant) constants_[id] = toVulkan(v.constant);
    for (const graph::SymInt& d : v.shape) need(graph::freeSymbols(d));
    const int stepIndex = v.isNode() ? static_cast<int>(steps_.size()) : -1;
    bool binds = false;
    const bool producer =
        v.kind == ValueKind::Input ||
        (v.kind == ValueKind::Op && shapes::opCategory(v.op) == OpCategory::DataDependent);
    for (uint32_t s : graph::unbackedSymbolsOf(v.shape)) {
      if (bindStep[s] != INT_MAX) continue;
      if (producer) {
        bindStep[s] = stepIndex;
        binds = true;
      } else {
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
    st.staticSig = graph::isConstantShape(v.shape);
    if (st.staticSig) st.sig = {v.shape, v.dtype};
    if (v.kind == ValueKind::Op) {
      need(graph::attrSymbols(v.attrs));
      st.staticAttrs = graph::attrsAreConstant(v.attrs);
    } else if (fusedCodegenAvailable()) {
      std::vector<DType> types;
      for (ValueId a : v.args) types.push_back(graph_.value(a).dtype);
      st.source = generateFusedKernel(*v.fused, types, v.dtype);
      if (!st.source.glsl.empty()) st.pipeline = FusedKernelCache::instance().pipeline(st.source.glsl);
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
    if (at == INT_MAX) continue;
    (at < 0 ? initialAsserts_ : steps_[at].asserts).push_back(i);
  }
  for (uint32_t s = 0; s < ns; ++s)
    if (needed[s]) neededSymbols_.push_back(s);
  stats_.loweringMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

VulkanGraphExecutor::~VulkanGraphExecutor() = default;

size_t VulkanGraphExecutor::generatedKernels() const {
  size_t n = 0;
  for (const Step& s : steps_) n += s.pipeline ? 1 : 0;
  return n;
}

std::string VulkanGraphExecutor::kernelSource(size_t i) const {
  for (const Step& s : steps_)
    if (s.value->kind == ValueKind::Fused && i-- == 0) return s.source.glsl;
  return "";
}

void VulkanGraphExecutor::bindShape(const graph::SymShape& shape, const Dims& actual,
                                    const std::string& what) {
  auto mismatch = [&] {
    throwUserError(ErrorKind::ShapeError, what + ": expected shape " + shapes::toString(shape) +
                                              ", got " + dimsText(actual));
  };
  if (shape.size() != actual.size()) mismatch();
  for (size_t i = 0; i < shape.size(); ++i) {
    const graph::SymInt& d = shape[i];
    if (d.isSymbolic()) {
      shapes::Expr e = d.expr();
      if (e->kind == shapes::ExprKind::Sym && !syms_.bound(static_cast<uint32_t>(e->value))) {
        syms_.bind(static_cast<uint32_t>(e->value), actual[i]);
        continue;
      }
      for (uint32_t s : e->syms)
        if (!syms_.bound(s))
          throwUserError(ErrorKind::ValueError,
                         what + ": size " + d.toString() + " cannot be bound from the sizes (" +
                             std::string(e->ctx->symbols().at(s).name) +
                             " appears in no size on its own); pass the symbol values");
    }
    if (syms_.eval(d) != actual[i]) mismatch();
  }
}

void VulkanGraphExecutor::bindInputs(std::span<const Tensor> inputs,
                                     std::span<const int64_t> symbolValues) {
  syms_.reset(graph_.numSymbols());
  const size_t given = std::min(symbolValues.size(), syms_.size());
  for (uint32_t s = 0; s < given; ++s)
    if (!unbacked_[s] || external_[s]) syms_.bind(s, symbolValues[s]);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value& v = graph_.value(graph_.inputs()[i]);
    bindShape(v.shape, inputs[i].shape(), "graph input " + v.name);
  }
  for (uint32_t s : neededSymbols_)
    if (!syms_.bound(s))
      throwUserError(ErrorKind::ValueError,
                     "graph run: no value for symbol " + graph_.env()->symbol(s).name +
                         " (pass one value per symbol, or inputs whose sizes bind it)");
}

void VulkanGraphExecutor::checkAsserts(const std::vector<uint32_t>& which) const {
  for (uint32_t i : which) {
    const graph::RuntimeAssert& a = graph_.runtimeAsserts()[i];
    if (syms_.eval(a.cond)) continue;
    std::string values;
    for (uint32_t s : a.cond.expr()->syms)
      values += (values.empty() ? "" : ", ") + graph_.env()->symbol(s).name + " = " +
                std::to_string(syms_.values()[s]);
    throwUserError(ErrorKind::AssertionError,
                   "runtime assert failed: " + a.text + " (" + values + ")");
  }
}

// One dispatch of the step's generated kernel (more only when the merged output shape has
// more than kFusedRank dims: a host loop over the leading ones, like elementwise()).
Tensor VulkanGraphExecutor::runFused(const Step& s, std::span<const Tensor> args,
                                     const Dims& shape) {
  const Value& v = *s.value;
  const int64_t n = numelOf(shape);
  auto fallback = [&] {
    ++vkStats_.fusedFallbacks;
    return runFusedEager(*v.fused, args, shape, v.dtype);
  };
  if (!s.pipeline) return fallback();
  // An empty result: nothing to compute, but integer division checks every divisor on cpu.
  if (n == 0) return s.source.checked ? fallback() : emptyDevice(shape, v.dtype);
  Tensor out = emptyDevice(shape, v.dtype);
  const int nops = 1 + int(args.size());
  std::vector<Dims> strides(nops);
  std::vector<int64_t> offs(nops);
  std::vector<const Tensor*> ts(nops);
  strides[0] = out.strides();
  ts[0] = &out;
  std::vector<Tensor> expanded(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    expanded[i] = args[i].shape() == shape ? args[i] : args[i].expand(shape);
    strides[i + 1] = expanded[i].strides();
    ts[i + 1] = &args[i];
  }
  // Bindings: one per VkBuffer, over the union of the operands' ranges in it.
  struct Binding {
    VkBuffer buffer;
    VkDeviceSize lo, hi;
  };
  std::vector<Binding> binds;
  std::vector<int> bindingOf(nops);
  // What the kernel really touches (a binding can span several tensors): the output's range
  // written, the operands' read, the error flag written (Note [Barrier elision]).
  std::vector<Access> accesses;
  accesses.reserve(nops + 1);
  for (int k = 0; k < nops; ++k) {
    const BufferArg b = bufferOf(*ts[k]);  // also keeps the storage alive with the work
    accesses.push_back({b.buffer, b.offset, b.offset + b.size, k == 0});
    auto it = std::find_if(binds.begin(), binds.end(),
                           [&](const Binding& x) { return x.buffer == b.buffer; });
    if (it == binds.end()) {
      binds.push_back({b.buffer, b.offset, b.offset + b.size});
      it = binds.end() - 1;
    } else {
      it->lo = std::min(it->lo, b.offset);
      it->hi = std::max(it->hi, b.offset + b.size);
    }
    bindingOf[k] = int(it - binds.begin());
  }
  const size_t maxBindings = s.source.checked ? 3 : 4;
  if (binds.size() > maxBindings) return fallback();
  for (int k = 0; k < nops; ++k) {
    const BufferArg b = bufferOf(*ts[k]);
    const int64_t es = elementSize(ts[k]->dtype());
    offs[k] = int64_t(b.offset - binds[bindingOf[k]].lo) / es + ts[k]->offset();
  }
  // Merge dims every operand walks contiguously; drop size-1 dims (as elementwise()).
  Dims sz;
  std::vector<Dims> st(nops);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !sz.empty();
    for (int k = 0; k < nops && merge; ++k) merge = st[k].back() == strides[k][d] * shape[d];
    if (merge) {
      sz.back() *= shape[d];
      for (int k = 0; k < nops; ++k) st[k].back() = strides[k][d];
    } else {
      sz.push_back(shape[d]);
      for (int k = 0; k < nops; ++k) st[k].push_back(strides[k][d]);
    }
  }
  if (sz.empty()) {
    sz.push_back(1);
    for (int k = 0; k < nops; ++k) st[k].push_back(0);
  }
  BufferArg bufs[kBuffersPerKernel];
  for (size_t b = 0; b < kBuffersPerKernel; ++b) {
    const Binding& x = binds[b < binds.size() ? b : 0];
    bufs[b] = {x.buffer, x.lo, x.hi - x.lo};
  }
  Scratch flag;
  if (s.source.checked) {
    flag = errorFlag();
    bufs[3] = flag.arg;
    accesses.push_back({flag.arg.buffer, flag.arg.offset, flag.arg.offset + flag.arg.size, true});
  }
  FusedPush pc{};
  const int rank = int(sz.size());
  const int lead = std::max(0, rank - kFusedRank);
  const int inner = rank - lead;
  pc.meta = uint32_t(inner);
  for (int k = 0; k < nops; ++k) pc.meta |= uint32_t(bindingOf[k]) << (4 + 3 * k);
  int64_t innerN = 1;
  for (int j = 0; j < kFusedRank; ++j) pc.shape[j] = 1;
  for (int d = lead; d < rank; ++d) {
    const int slot = kFusedRank - inner + (d - lead);
    pc.shape[slot] = u32(sz[d], "dimension");
    innerN *= sz[d];
    for (int k = 1; k < nops; ++k) pc.inp[5 * (k - 1) + 1 + slot] = u32(st[k][d], "stride");
  }
  pc.n = u32(innerN, "element count");
  const uint32_t pushBytes = uint32_t(sizeof(uint32_t) * (7 + 5 * (nops - 1)));
  Runtime& r = rt();
  const int64_t outer = n / innerN;
  Dims pos(lead, 0);
  for (int64_t o = 0; o < outer; ++o) {
    for (int k = 0; k < nops; ++k) {
      int64_t off = offs[k];
      for (int d = 0; d < lead; ++d) off += pos[d] * st[k][d];
      if (k == 0) pc.outOff = u32(off, "element offset");
      else pc.inp[5 * (k - 1)] = u32(off, "element offset");
    }
    r.stream().dispatch(s.pipeline->get(), bufs, &pc, pushBytes, groupsFor(innerN, kFusedLocalSize),
                        kAllSlotsWritten, accesses);
    for (int d = lead - 1; d >= 0; --d) {
      if (++pos[d] < sz[d]) break;
      pos[d] = 0;
    }
  }
  r.stream().keepAlive(s.pipeline);
  ++vkStats_.fusedKernels;
  // Integer division by zero / negative powers: rerun op by op, which raises exactly the
  // error (op and message) eager execution raises.
  if (s.source.checked && readFlag(flag) != 0) return fallback();
  return out;
}

Tensor VulkanGraphExecutor::execute(const Step& s, std::span<const Tensor> args) {
  const Value& v = *s.value;
  shapes::OpSignature dynSig;
  if (!s.staticSig && s.cat != OpCategory::DataDependent) {
    const Dims d = syms_.evalShape(v.shape);
    dynSig = {graph::SymShape(d.begin(), d.end()), v.dtype};
  }
  const shapes::OpSignature& sig = s.staticSig ? s.sig : dynSig;
  if (v.kind == ValueKind::Fused) return runFused(s, args, concreteShape(sig.shape));
  shapes::OpAttrs dynAttrs;
  if (!s.staticAttrs) dynAttrs = syms_.evalAttrs(v.attrs);
  const shapes::OpAttrs& attrs = s.staticAttrs ? v.attrs : dynAttrs;
  switch (s.cat) {
    case OpCategory::Unary: return runUnary(v.op, args[0], sig);
    case OpCategory::Binary: return runBinary(v.op, args[0], args[1], sig);
    case OpCategory::Ternary: return runTernary(v.op, args, sig);
    case OpCategory::Reduce: return runReduce(v.op, args[0], attrs, sig);
    case OpCategory::Shape: return runShapeOp(v.op, args, attrs, sig);
    case OpCategory::Index: return runIndexOp(v.op, args, attrs, sig);
    case OpCategory::DataDependent: return runDataDependent(v.op, args, attrs);
    case OpCategory::NN: return runNN(v.op, args, attrs, sig);
    case OpCategory::Create: return runCreate(v.op, attrs, sig);
    case OpCategory::Convert:
      if (v.op == OpKind::Cast) return castDevice(args[0], sig.dtype);
      return contiguousDevice(args[0]).alias();
  }
  TESSEL_ASSERT(false, "graph step of unknown category");
  return {};
}

std::vector<Tensor> VulkanGraphExecutor::run(std::span<const Tensor> inputs,
                                             std::span<const int64_t> symbolValues) {
  ++runStats_.runs;
  runStats_.kernelCalls = runStats_.allocations = runStats_.bytesAllocated = 0;
  vkStats_ = {};
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
    if (inputs[i].device() != Device::Vulkan)
      throwUserError(ErrorKind::DeviceError,
                     "graph input " + v.name + " is not on vulkan (move it with .to(\"vulkan\"))");
  }
  Runtime& r = rt();
  std::lock_guard<std::recursive_mutex> lock(r.mutex());
  const uint64_t dispatches0 = counters().dispatches.load();
  const uint64_t submits0 = counters().submits.load();
  const uint64_t barriers0 = counters().barriers.load();
  bindInputs(inputs, symbolValues);
  checkAsserts(initialAsserts_);

  slots_.resize(graph_.size());
  struct Clear {
    std::vector<Tensor>& slots;
    ~Clear() {
      for (Tensor& t : slots) t = Tensor();
    }
  } clear{slots_};
  for (size_t i = 0; i < inputs.size(); ++i) slots_[ins[i]] = inputs[i];
  for (ValueId id = 0; id < graph_.size(); ++id)
    if (graph_.value(id).kind == ValueKind::Constant) slots_[id] = constants_[id];

  for (const Step& s : steps_) {
    args_.clear();
    for (ValueId a : s.value->args) args_.push_back(slots_[a]);
    Tensor out = execute(s, args_);
    ++runStats_.kernelCalls;
    bool fresh = true;
    for (const Tensor& a : args_) fresh = fresh && a.storage() != out.storage();
    if (fresh) {
      ++runStats_.allocations;
      runStats_.bytesAllocated += uint64_t(out.numel()) * shapes::elementSize(out.dtype());
    }
    if (s.binds) bindShape(s.value->shape, out.shape(), std::string(shapes::opName(s.value->op)));
    checkAsserts(s.asserts);
    slots_[s.id] = std::move(out);
    for (ValueId rel : s.release) slots_[rel] = Tensor();
  }
  args_.clear();
  std::vector<Tensor> outs;
  outs.reserve(graph_.outputs().size());
  for (ValueId o : graph_.outputs()) outs.push_back(slots_[o]);
  vkStats_.dispatches = counters().dispatches.load() - dispatches0;
  vkStats_.submits = counters().submits.load() - submits0;
  vkStats_.barriers = counters().barriers.load() - barriers0;
  return outs;
}

std::unique_ptr<graph::GraphExecutable> compileForVulkan(const Graph& g,
                                                         const graph::CompileOptions& options) {
  return std::make_unique<VulkanGraphExecutor>(g, options);
}

}  // namespace tessel::backends::vulkan
