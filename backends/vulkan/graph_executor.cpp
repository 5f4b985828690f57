// VulkanGraphExecutor: the plan (as CpuGraphExecutor's), the run loop over the eager vulkan
// kernels, and fused values as one generated kernel each (Note [Fused kernel interface]).
#include "backends/vulkan/graph_executor.h"

#include <algorithm>
#include <chrono>
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

struct VulkanGraphExecutor::FusedStep {
  FusedKernelSource source;
  std::shared_ptr<const FusedPipeline> pipeline;  ///< null: run op by op (runFusedEager)
};

namespace {

// Checks for a device before the graph is optimized (DeviceError without one).
const Graph& needsDevice(const Graph& g) {
  Runtime::instance();
  return g;
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

VulkanGraphExecutor::VulkanGraphExecutor(const Graph& g, const graph::CompileOptions& options)
    : ExecutorBase(needsDevice(g), options) {
  const auto t0 = std::chrono::steady_clock::now();
  constants_.resize(graph_.size());
  for (ValueId id = 0; id < graph_.size(); ++id)
    if (graph_.value(id).kind == ValueKind::Constant)
      constants_[id] = toVulkan(graph_.value(id).constant);
  fused_.resize(steps().size());
  for (size_t i = 0; i < steps().size(); ++i) {
    const Value& v = *steps()[i].value;
    if (v.kind != ValueKind::Fused || !fusedCodegenAvailable()) continue;
    FusedStep& f = fused_[i];
    std::vector<DType> types;
    for (ValueId a : v.args) types.push_back(graph_.value(a).dtype);
    f.source = generateFusedKernel(*v.fused, types, v.dtype);
    if (!f.source.glsl.empty()) f.pipeline = FusedKernelCache::instance().pipeline(f.source.glsl);
  }
  stats_.loweringMs +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

VulkanGraphExecutor::~VulkanGraphExecutor() = default;

size_t VulkanGraphExecutor::generatedKernels() const {
  size_t n = 0;
  for (const FusedStep& f : fused_) n += f.pipeline ? 1 : 0;
  return n;
}

std::string VulkanGraphExecutor::kernelSource(size_t i) const {
  for (size_t k = 0; k < steps().size(); ++k)
    if (steps()[k].value->kind == ValueKind::Fused && i-- == 0) return fused_[k].source.glsl;
  return "";
}

// One dispatch of the step's generated kernel (more only when the merged output shape has
// more than kFusedRank dims: a host loop over the leading ones, like elementwise()).
Tensor VulkanGraphExecutor::runFused(const FusedStep& s, const Value& v,
                                     std::span<const Tensor> args, const Dims& shape) {
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
  Dims sz;
  std::vector<Dims> st;
  mergeWalkedDims(shape, strides, nops, sz, st);
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
  // Note [Fused linear path]: one merged dim, the output contiguous, every input at stride 1
  // or 0 and every walking operand at an offset that is a multiple of 4 elements: the kernel's
  // chunked loop, 4 words per invocation and step, few workgroups (as elementwise()'s linear
  // path). Same pipeline: the mode is bit 31 of meta.
  bool linear = s.source.linear && rank == 1 && st[0][0] == 1 && offs[0] % 4 == 0;
  for (int k = 1; k < nops && linear; ++k)
    linear = st[k][0] == 0 || (st[k][0] == 1 && offs[k] % 4 == 0);
  // Eight words a step (u64vec4) when every walking operand starts on a multiple of 8.
  bool eight = linear && offs[0] % 8 == 0;
  for (int k = 1; k < nops && eight; ++k) eight = st[k][0] == 0 || offs[k] % 8 == 0;
  if (linear) {
    pc.meta |= eight ? 0x40000000u : 0x80000000u;
    pc.outOff = u32(offs[0], "element offset");
    for (int k = 1; k < nops; ++k) pc.inp[5 * (k - 1)] = u32(offs[k], "element offset");
    const uint64_t groups = std::min<uint64_t>(groupsFor(groupsFor(n, eight ? 8 : 4), kFusedLocalSize), 256);
    r.stream().dispatch(s.pipeline->get(), bufs, &pc, pushBytes, groups, kAllSlotsWritten, accesses);
    ++vkStats_.fusedLinear;
  } else {
  // Note [Fused strided runs] (fused_codegen.cpp): runs of the innermost dim on a CPU device.
  const int64_t len = pc.shape[kFusedRank - 1];
  const int64_t run = rowsInWorkgroups() ? 1 : std::min<int64_t>(len, kFusedStridedRun);
  pc.meta |= uint32_t(run) << 22;
  const int64_t runs = innerN / len * ((len + run - 1) / run);
  pc.n = u32(runs, "element count");
  const int64_t outer = n / innerN;
  Dims pos(lead, 0);
  for (int64_t o = 0; o < outer; ++o) {
    for (int k = 0; k < nops; ++k) {
      int64_t off = offs[k];
      for (int d = 0; d < lead; ++d) off += pos[d] * st[k][d];
      if (k == 0) pc.outOff = u32(off, "element offset");
      else pc.inp[5 * (k - 1)] = u32(off, "element offset");
    }
    r.stream().dispatch(s.pipeline->get(), bufs, &pc, pushBytes, groupsFor(runs, kFusedLocalSize),
                        kAllSlotsWritten, accesses);
    for (int d = lead - 1; d >= 0; --d) {
      if (++pos[d] < sz[d]) break;
      pos[d] = 0;
    }
  }
  }
  r.stream().keepAlive(s.pipeline);
  ++vkStats_.fusedKernels;
  // Integer division by zero / negative powers: rerun op by op, which raises exactly the
  // error (op and message) eager execution raises.
  if (s.source.checked && readFlag(flag) != 0) return fallback();
  return out;
}

Tensor VulkanGraphExecutor::launch(size_t index, const Step& s, std::span<const Tensor> args,
                                   const shapes::OpSignature& sig, const shapes::OpAttrs& attrs) {
  const Value& v = *s.value;
  if (v.kind == ValueKind::Fused) return runFused(fused_[index], v, args, concreteShape(sig.shape));
  switch (s.cat) {
    case OpCategory::Unary: return runUnary(v.op, args[0], sig);
    case OpCategory::Binary: return runBinary(v.op, args[0], args[1], sig);
    case OpCategory::Ternary: return runTernary(v.op, args, sig);
    case OpCategory::Reduce: return runReduce(v.op, args[0], attrs, sig);
    case OpCategory::Scan: return runScan(v.op, args[0], attrs, sig);
    case OpCategory::Shape: return runShapeOp(v.op, args, attrs, sig);
    case OpCategory::Index: return runIndexOp(v.op, args, attrs, sig);
    case OpCategory::DataDependent: return runDataDependent(v.op, args, attrs);
    case OpCategory::NN: return runNN(v.op, args, attrs, sig);
    case OpCategory::Create: return runCreate(v.op, attrs, sig);
    case OpCategory::Sort: return runSort(v.op, args, attrs, sig);
    case OpCategory::Convert:
      if (v.op == OpKind::Cast) return castDevice(args[0], sig.dtype);
      return contiguousDevice(args[0]).alias();
  }
  TESSEL_ASSERT(false, "graph step of unknown category");
  return {};
}

std::vector<Tensor> VulkanGraphExecutor::run(std::span<const Tensor> inputs,
                                             std::span<const int64_t> symbolValues) {
  vkStats_ = {};
  beginRun(inputs, Device::Vulkan, "vulkan (move it with .to(\"vulkan\"))");
  Runtime& r = rt();
  std::lock_guard<std::recursive_mutex> lock(r.mutex());
  const uint64_t dispatches0 = counters().dispatches.load();
  const uint64_t submits0 = counters().submits.load();
  const uint64_t barriers0 = counters().barriers.load();
  std::vector<Tensor> outs = runSteps(inputs, symbolValues);
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
