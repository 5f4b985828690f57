// CpuGraphExecutor: launching one planned step with the cpu kernels.
#include "backends/graph/cpu_executor.h"

#include <chrono>
#include <utility>

#include "backends/cpu/kernels.h"

namespace tessel::graph {

using shapes::OpCategory;

namespace {

// Note [Attention and its logsumexp in one pass]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The gradient of scaled_dot_product_attention reads the softmax statistics of the forward,
// attention_logsumexp of the same operands (a graph value has one output, so they are two
// ops). Run apart, the logsumexp repeats the whole forward pass (the score products and the
// exps) to keep only m + log(l): a training step's attention cost one and a half times its
// forward. The cpu kernel makes both in one pass at no extra cost, so when a graph holds both
// ops on the same operands and attributes, the attention's step computes the logsumexp too
// and leaves it for the later step, which takes it instead of running the kernel. The two
// results are the bits each op gives on its own (the same kernel, the same order).
bool sameAttention(const Value& a, const Value& b) {
  return a.args == b.args && a.attrs.causal == b.attrs.causal &&
         a.attrs.scalars == b.attrs.scalars;
}

}  // namespace

CpuGraphExecutor::CpuGraphExecutor(const Graph& g, const CompileOptions& options)
    : ExecutorBase(g, options) {
  const auto t0 = std::chrono::steady_clock::now();
  fused_.resize(steps().size());
  for (size_t i = 0; i < steps().size(); ++i)
    if (steps()[i].value->kind == ValueKind::Fused)
      fused_[i] = std::make_unique<CpuFusedKernel>(steps()[i].value->fused);
  lseStep_.assign(steps().size(), -1);
  lseReady_.resize(steps().size());
  auto isOp = [](const Value& v, OpKind op) { return v.kind == ValueKind::Op && v.op == op; };
  for (size_t j = 0; j < steps().size(); ++j) {
    if (!isOp(*steps()[j].value, OpKind::AttentionLse)) continue;
    for (size_t i = 0; i < j; ++i)
      if (isOp(*steps()[i].value, OpKind::Attention) && lseStep_[i] < 0 &&
          sameAttention(*steps()[i].value, *steps()[j].value)) {
        lseStep_[i] = static_cast<int>(j);
        break;
      }
  }
  stats_.loweringMs +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

CpuGraphExecutor::~CpuGraphExecutor() = default;

Tensor runNodeOnCpu(const Value& v, std::span<const Tensor> args, const shapes::OpSignature& sig,
                    const shapes::OpAttrs& attrs, CpuFusedKernel* fused) {
  namespace cpu = backends::cpu;
  if (v.kind == ValueKind::Fused) {
    Tensor out = cpu::emptyLike(sig);
    fused->run(args, out);
    return out;
  }
  switch (shapes::opCategory(v.op)) {
    case OpCategory::Unary:
      return cpu::runUnary(v.op, args[0], sig);
    case OpCategory::Binary:
      return cpu::runBinary(v.op, args[0], args[1], sig);
    case OpCategory::Ternary:
      return cpu::runTernary(v.op, args, sig);
    case OpCategory::Reduce:
      return cpu::runReduce(v.op, args[0], attrs, sig);
    case OpCategory::Scan:
      return cpu::runScan(v.op, args[0], attrs, sig);
    case OpCategory::Shape:
      return cpu::runShapeOp(v.op, args, attrs, sig);
    case OpCategory::Index:
      return cpu::runIndexOp(v.op, args, attrs, sig);
    case OpCategory::DataDependent:
      return cpu::runDataDependent(v.op, args, attrs);
    case OpCategory::NN:
      return cpu::runNN(v.op, args, attrs, sig);
    case OpCategory::Create:
      return cpu::runCreate(v.op, attrs, sig);
    case OpCategory::Sort:
      return cpu::runSort(v.op, args, attrs, sig);
    case OpCategory::Convert:
      if (v.op == OpKind::Cast) return cpu::castTo(args[0], sig.dtype);
      return args[0].contiguous();
  }
  TESSEL_ASSERT(false, "graph step of unknown category");
  return {};
}

Tensor CpuGraphExecutor::launch(size_t index, const Step& s, std::span<const Tensor> args,
                                const shapes::OpSignature& sig, const shapes::OpAttrs& attrs) {
  if (lseStep_[index] >= 0)
    return backends::cpu::attentionWithLse(args, attrs, sig, lseReady_[lseStep_[index]]);
  if (lseReady_[index].defined()) return std::exchange(lseReady_[index], Tensor());
  return runNodeOnCpu(*s.value, args, sig, attrs, fused_[index].get());
}

std::vector<Tensor> CpuGraphExecutor::run(std::span<const Tensor> inputs,
                                          std::span<const int64_t> symbolValues) {
  beginRun(inputs, backends::Device::Cpu, "the cpu");
  return runSteps(inputs, symbolValues);
}

std::unique_ptr<GraphExecutable> compileForCpu(const Graph& g, const CompileOptions& options) {
  return std::make_unique<CpuGraphExecutor>(g, options);
}

}  // namespace tessel::graph
