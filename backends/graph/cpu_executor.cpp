// CpuGraphExecutor: launching one planned step with the cpu kernels.
#include "backends/graph/cpu_executor.h"

#include <chrono>

#include "backends/cpu/kernels.h"

namespace tessel::graph {

using shapes::OpCategory;

CpuGraphExecutor::CpuGraphExecutor(const Graph& g, const CompileOptions& options)
    : ExecutorBase(g, options) {
  const auto t0 = std::chrono::steady_clock::now();
  fused_.resize(steps().size());
  for (size_t i = 0; i < steps().size(); ++i)
    if (steps()[i].value->kind == ValueKind::Fused)
      fused_[i] = std::make_unique<CpuFusedKernel>(steps()[i].value->fused);
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
