// CpuGraphExecutor::prepare: a run of a one-step graph, planned once for inputs of given sizes
// and strides (Note [Prepared runs] in executable.h).
#include <optional>

#include "backends/cpu/kernels.h"
#include "backends/graph/cpu_executor.h"
#include "shapes/user_error.h"

namespace tessel::graph {

using backends::Device;
using backends::Dims;

namespace {

// Where a step argument or a graph output comes from when the graph has one step.
struct Source {
  enum class Kind : uint8_t { Input, Constant, Step } kind = Kind::Step;
  size_t input = 0;  // Input: its index in the call's inputs
  Tensor constant;   // Constant
};

// The source of value `id`, or nullopt when it is none of the three.
std::optional<Source> sourceOf(const Graph& g, ValueId id, ValueId stepId, const Tensor& constant) {
  const auto& ins = g.inputs();
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i] == id) return Source{Source::Kind::Input, i, {}};
  if (g.value(id).kind == ValueKind::Constant) return Source{Source::Kind::Constant, 0, constant};
  if (id == stepId) return Source{};
  return std::nullopt;
}

// a == b, as a loop: the dims of a call's inputs are few, and memcmp's call costs more.
bool sameDims(const Dims& a, const Dims& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

Dims constantDims(const SymShape& shape) {
  Dims d;
  for (const SymInt& s : shape) d.push_back(s.constant());
  return d;
}

}  // namespace

class CpuGraphExecutor::PreparedStep final : public PreparedRun {
 public:
  PreparedStep(CpuGraphExecutor& exe, std::span<const Tensor> inputs, shapes::OpSignature sig,
               OpAttrs attrs)
      : exe_(exe),
        step_(exe.steps()[0]),
        fused_(exe.fused_[0].get()),
        sig_(std::move(sig)),
        attrs_(std::move(attrs)) {
    for (const Tensor& t : inputs) expected_.push_back({t.dtype(), t.shape(), t.strides()});
    outShape_ = constantDims(sig_.shape);
  }

  /// Fills the argument and output sources; false when the graph's values come from elsewhere.
  bool plan() {
    const Graph& g = exe_.graph_;
    const auto& ins = g.inputs();
    argsAreInputs_ = step_.value->args.size() <= ins.size();
    for (size_t k = 0; k < step_.value->args.size(); ++k) {
      const ValueId a = step_.value->args[k];
      auto s = sourceOf(g, a, ValueId(-1), constantOrNone(a));
      if (!s) return false;
      argsAreInputs_ = argsAreInputs_ && s->kind == Source::Kind::Input && s->input == k;
      args_.push_back(std::move(*s));
    }
    for (ValueId o : g.outputs()) {
      auto s = sourceOf(g, o, step_.id, constantOrNone(o));
      if (!s) return false;
      outputs_.push_back(std::move(*s));
    }
    return true;
  }

  /// The fused kernel's launch for the first call's inputs.
  void prepareKernel(std::span<const Tensor> inputs) {
    if (!fused_) return;
    gatherArgs(inputs);
    fused_->prepare(argsFor(inputs), outShape_, launch_);
    scratch_.clear();
  }

  bool accepts(std::span<const Tensor> inputs) const override {
    if (inputs.size() != expected_.size()) return false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Expected& e = expected_[i];
      const Tensor& t = inputs[i];
      if (!t.defined() || t.dtype() != e.dtype || t.device() != Device::Cpu ||
          !sameDims(t.shape(), e.shape) || !sameDims(t.strides(), e.strides))
        return false;
    }
    return true;
  }

  void run(std::span<const Tensor> inputs, std::vector<Tensor>& outs) override {
    RunStats& stats = exe_.runStats_;
    ++stats.runs;
    gatherArgs(inputs);
    struct Release {  // the arguments' references go with the call, also when a kernel throws
      std::vector<Tensor>& args;
      ~Release() { args.clear(); }
    } release{scratch_};
    std::span<const Tensor> args = argsFor(inputs);
    Tensor out;
    if (fused_) {
      out = Tensor::empty(outShape_, sig_.dtype);
      fused_->runPrepared(launch_, args, out);
    } else {
      out = runNodeOnCpu(*step_.value, args, sig_, attrs_, nullptr);
    }
    stats.kernelCalls = 1;
    bool fresh = true;
    for (const Tensor& a : args) fresh = fresh && a.storage() != out.storage();
    stats.allocations = fresh ? 1 : 0;
    stats.bytesAllocated = fresh ? uint64_t(out.numel()) * shapes::elementSize(out.dtype()) : 0;
    outs.clear();
    for (const Source& s : outputs_) outs.push_back(valueOf(s, inputs, out));
  }

 private:
  struct Expected {
    DType dtype;
    Dims shape, strides;
  };

  Tensor constantOrNone(ValueId id) const {
    return exe_.graph_.value(id).kind == ValueKind::Constant ? exe_.constant(id) : Tensor();
  }
  static const Tensor& valueOf(const Source& s, std::span<const Tensor> inputs, const Tensor& out) {
    if (s.kind == Source::Kind::Input) return inputs[s.input];
    return s.kind == Source::Kind::Constant ? s.constant : out;
  }
  // The step's arguments: the first inputs themselves when they are those, in order (no
  // copies), else gathered into scratch_.
  void gatherArgs(std::span<const Tensor> inputs) {
    if (argsAreInputs_) return;
    for (const Source& s : args_) scratch_.push_back(valueOf(s, inputs, Tensor()));
  }
  std::span<const Tensor> argsFor(std::span<const Tensor> inputs) const {
    return argsAreInputs_ ? inputs.first(args_.size()) : std::span<const Tensor>(scratch_);
  }

  CpuGraphExecutor& exe_;
  const Step& step_;
  CpuFusedKernel* fused_;
  shapes::OpSignature sig_;  // the step's, evaluated for the prepared sizes
  OpAttrs attrs_;
  std::vector<Expected> expected_;
  Dims outShape_;
  std::vector<Source> args_, outputs_;
  bool argsAreInputs_ = false;
  CpuFusedKernel::Launch launch_;
  std::vector<Tensor> scratch_;
};

std::unique_ptr<PreparedRun> CpuGraphExecutor::prepare(std::span<const Tensor> inputs) {
  if (steps().size() != 1) return nullptr;
  const Step& s = steps()[0];
  if (s.cat == shapes::OpCategory::DataDependent || s.binds || !s.asserts.empty()) return nullptr;
  const auto& ins = graph_.inputs();
  if (inputs.size() != ins.size()) return nullptr;
  for (size_t i = 0; i < ins.size(); ++i) {
    const Tensor& t = inputs[i];
    if (!t.defined() || t.device() != Device::Cpu || t.dtype() != graph_.value(ins[i]).dtype)
      return nullptr;
  }
  // Symbolic sizes are fixed by the inputs' sizes, which accepts() pins; a symbol they do not
  // bind (an int argument's, an .item() before the graph) could change without them.
  const SymbolValues* syms = nullptr;
  try {
    syms = &bindFromInputs(inputs);
  } catch (const UserError&) {
    return nullptr;  // sizes or asserts the generic run reports (with its message)
  }
  const Value& v = *s.value;
  shapes::OpSignature sig = s.sig;
  if (!s.staticSig) {
    const Dims d = syms->evalShape(v.shape);
    sig = {SymShape(d.begin(), d.end()), v.dtype};
  }
  OpAttrs attrs = v.kind == ValueKind::Op && !s.staticAttrs ? syms->evalAttrs(v.attrs) : v.attrs;
  auto prepared = std::make_unique<PreparedStep>(*this, inputs, std::move(sig), std::move(attrs));
  if (!prepared->plan()) return nullptr;
  prepared->prepareKernel(inputs);
  return prepared;
}

}  // namespace tessel::graph
