// TpuProgram: bounds, the memory plan, and runs that allocate nothing.
#include "backends/tpu/program.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>

#include "backends/cpu/loops.h"
#include "backends/graph/cpu_executor.h"
#include "backends/graph/graph_print.h"
#include "backends/tpu/memory_plan.h"
#include "shapes/expr.h"
#include "shapes/shape_env.h"
#include "shapes/user_error.h"

namespace tessel::backends::tpu {

// Note [Static memory]
// The tpu keeps the rules of a device whose memory is planned when a program is compiled:
// - Every value's buffer is sized at the bound of its symbolic shape: the solver's largest
//   value of the element count under the graph's ranges and facts (ShapeEnv::maxValue). A size
//   with no bound is a DeviceError at compile time.
// - Intermediates share one arena, placed by planMemory() from their lifetimes; ops that may
//   return a view of an operand (shape ops, contiguous, cast) extend the operand's lifetime to
//   the view's. The arena also holds one scratch region, sized for the hungriest step, where a
//   kernel's own temporaries (a cast of an operand, a transposed copy) go and die with the step.
// - The program's outputs get their own buffers, made at their bounds before the first kernel.
// - While a program runs, an AllocationHook (backends/storage.h) serves every Storage::allocate
//   from that memory: the kernel's output request from the step's slot, everything else from
//   the scratch region. A request that does not fit would go to the heap; it is counted in
//   stats()["tpu"]["run_allocations"], which the tests keep at 0.
// - Kernels are the cpu kernels, run on tensors of the real sizes: a padded buffer holds its
//   real elements contiguously at its start, so no kernel ever touches padding and results
//   equal cpu results bit for bit. When a kernel's result did not land in its slot (it was
//   built in scratch, or is a view the plan did not expect), it is copied there.

using graph::ValueId;
using graph::ValueKind;
using shapes::OpCategory;
using shapes::SymInt;

struct TpuProgram::Slot {
  uint64_t offset = 0;  ///< in the arena (steps that fill no output buffer)
  uint64_t bytes = 0;   ///< at the bounds
  bool mayAlias = false;  ///< the op may return a view of an operand (planned for)
};

class TpuProgram::StepMemory final : public AllocationHook {
 public:
  void begin(std::byte* slot, uint64_t slotBytes, std::optional<uint64_t> expected,
             std::shared_ptr<const void> slotOwner, std::byte* scratch, uint64_t scratchBytes,
             std::shared_ptr<const void> scratchOwner) {
    slot_ = slot;
    slotBytes_ = slotBytes;
    expected_ = expected;
    slotTaken_ = false;
    scratch_ = scratch;
    scratchBytes_ = scratchBytes;
    scratchUsed_ = 0;
    slotOwner_ = std::move(slotOwner);
    scratchOwner_ = std::move(scratchOwner);
  }
  void* allocate(size_t bytes, std::shared_ptr<const void>& owner) override {
    if (!slotTaken_ && bytes <= slotBytes_ && (!expected_ || *expected_ == bytes)) {
      slotTaken_ = true;
      owner = slotOwner_;
      return slot_;
    }
    owner = scratchOwner_;
    const uint64_t size = (bytes + kPlanAlign - 1) / kPlanAlign * kPlanAlign;
    if (scratchUsed_ + size > scratchBytes_) return nullptr;
    void* p = scratch_ + scratchUsed_;
    scratchUsed_ += size;
    return p;
  }
  void heapFallback(size_t) override { ++fallbacks; }
  Device device() const override { return Device::Tpu; }

  uint64_t fallbacks = 0;

 private:
  std::byte* slot_ = nullptr;
  uint64_t slotBytes_ = 0;
  std::optional<uint64_t> expected_;
  bool slotTaken_ = false;
  std::byte* scratch_ = nullptr;
  uint64_t scratchBytes_ = 0, scratchUsed_ = 0;
  std::shared_ptr<const void> slotOwner_, scratchOwner_;
};

namespace {

std::string bytesText(uint64_t b) {
  std::string s = std::to_string(b) + " bytes";
  if (b >= (uint64_t{1} << 20))
    s += " (" + std::to_string((b + (uint64_t{1} << 19)) >> 20) + " MiB)";
  return s;
}

// Output buffers start on a page: OpenBLAS's threaded sgemm ran 10% slower into a buffer at
// some 64-byte offsets within a page (bench_tpu, matmul at twice its bound), never on one.
constexpr uint64_t kPage = 4096;
std::byte* pageAligned(void* p) {
  return reinterpret_cast<std::byte*>((reinterpret_cast<uintptr_t>(p) + kPage - 1) & ~(kPage - 1));
}

// repeat_interleave and bincount have no bound their operands give (sum(repeats), max(x) + 1):
// before the generic "no upper bound" of the first value that carries the size, say which op
// made it and how to bound it.
void requireJaggedBounds(const graph::Graph& g, shapes::ShapeEnv& env) {
  for (ValueId id = 0; id < g.size(); ++id) {
    const graph::Value& v = g.value(id);
    if (v.kind != ValueKind::Op ||
        (v.op != shapes::OpKind::RepeatInterleave && v.op != shapes::OpKind::Bincount))
      continue;
    for (const SymInt& d : v.shape) {
      if (d.maybeConstant() || env.maxValue(d)) continue;
      const bool rep = v.op == shapes::OpKind::RepeatInterleave;
      throwUserError(
          ErrorKind::ShapeError,
          std::string(shapes::opName(v.op)) + ": on the tpu its output size " +
              env.sourceText(d.expr()) +
              (rep ? " (sum(repeats))" : " (max(x) + 1, also one_hot's num_classes = -1)") +
              " needs an upper bound, and nothing bounds it: " +
              (rep ? "pass output_size = N, or add a fact such as check(y.shape[0] <= N) "
                     "on the result"
                   : "add a fact such as check(y.shape[0] <= N) on the result (for one_hot: "
                     "pass num_classes, or check(y.shape[-1] <= N))") +
              " (or a `where` clause that bounds it)");
    }
  }
}

bool mayReturnView(const graph::Value& v) {
  if (v.kind != ValueKind::Op) return false;
  const OpCategory c = shapes::opCategory(v.op);
  return c == OpCategory::Shape || c == OpCategory::Convert;
}

}  // namespace

TpuProgram::TpuProgram(const graph::Graph& g, const graph::CompileOptions& options,
                       std::string name)
    : ExecutorBase(g, options), memory_(std::make_unique<StepMemory>()) {
  const auto t0 = std::chrono::steady_clock::now();
  record_.name = std::move(name);
  fused_.resize(steps().size());
  for (size_t i = 0; i < steps().size(); ++i)
    if (steps()[i].value->kind == ValueKind::Fused)
      fused_[i] = std::make_unique<graph::CpuFusedKernel>(steps()[i].value->fused);
  plan();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  stats_.loweringMs += ms;
  record_.compileMs = stats_.passesMs + stats_.loweringMs;
  record_.ops = steps().size();
}

TpuProgram::~TpuProgram() = default;

void TpuProgram::plan() {
  shapes::ShapeEnv& env = *graph_.env();
  requireJaggedBounds(graph_, env);
  auto where = [&](ValueId id) {
    const graph::Value& v = graph_.value(id);
    return "%" + std::to_string(id) + " (" + std::string(shapes::name(v.dtype)) +
           shapes::toString(v.shape) + ")";
  };
  // The largest value of a size under the graph's facts; a DeviceError when it has none.
  auto bound = [&](const SymInt& size, ValueId id) -> int64_t {
    if (auto c = size.maybeConstant()) return *c;
    if (auto m = env.maxValue(size)) return *m;
    // A data-dependent size (nonzero, a captured item()) is bounded by a check() on it; an
    // input's size by its mark or signature.
    const bool dataDependent = size.hasUnbacked();
    throwUserError(ErrorKind::DeviceError,
                   "tpu: program '" + record_.name + "': the size " + env.sourceText(size.expr()) +
                       " of " + where(id) +
                       " has no upper bound, and the tpu plans memory at its bounds (" +
                       (dataDependent ? "bound the data-dependent value: check(" +
                                            env.sourceText(size.expr()) + " <= N) once it is made"
                                      : "give the input a bound: mark_dynamic(x, d, max = N) or "
                                        "a `where` fact") +
                       ")");
  };
  // The element bound of each value, asked once (every consumer asks for its operands').
  std::vector<int64_t> elemBounds(graph_.size(), -1);
  std::function<int64_t(ValueId)> boundElems;
  // A data-dependent op's result is made before any runtime assert on its new sizes is
  // checked, so its buffer may not rely on those asserts' facts (u0 == u1 would size
  // nonzero's rows at the smaller of the two): its dynamic dim also gets the op's own bound,
  // one row per element of its largest operand (0 for other values).
  auto ownRows = [&](const graph::Value& v) -> int64_t {
    if (v.kind != ValueKind::Op || shapes::opCategory(v.op) != OpCategory::DataDependent) return 0;
    int64_t rows = 0;
    for (ValueId a : v.args) rows = std::max(rows, boundElems(a));
    return rows;
  };
  auto staticElems = [](const graph::Value& v) {
    int64_t n = 1;
    for (const SymInt& d : v.shape) n *= d.maybeConstant().value_or(1);
    return n;
  };
  boundElems = [&](ValueId id) -> int64_t {
    if (elemBounds[id] >= 0) return elemBounds[id];
    const graph::Value& v = graph_.value(id);
    return elemBounds[id] =
               std::max(bound(shapes::product(v.shape), id), ownRows(v) * staticElems(v));
  };
  auto boundBytes = [&](ValueId id) -> uint64_t {
    return uint64_t(boundElems(id)) * shapes::elementSize(graph_.value(id).dtype);
  };

  const auto& st = steps();
  const int n = static_cast<int>(st.size());
  std::vector<int> stepOf(graph_.size(), -1);
  for (int i = 0; i < n; ++i) stepOf[st[i].id] = i;
  std::vector<int> last(n);
  for (int i = 0; i < n; ++i) {
    last[i] = i;
    for (ValueId a : st[i].value->args)
      if (stepOf[a] >= 0) last[stepOf[a]] = std::max(last[stepOf[a]], i);
  }
  // A view lives in its operand's bytes: the operand lives as long as the view (backwards, so
  // chains of views reach the buffer at their root).
  slots_.assign(n, {});
  for (int i = n - 1; i >= 0; --i) {
    slots_[i].mayAlias = mayReturnView(*st[i].value);
    if (!slots_[i].mayAlias) continue;
    for (ValueId a : st[i].value->args)
      if (stepOf[a] >= 0) last[stepOf[a]] = std::max(last[stepOf[a]], last[i]);
  }

  outputOfStep_.assign(n, -1);
  outputBytes_.clear();
  for (ValueId o : graph_.outputs())
    if (stepOf[o] >= 0 && outputOfStep_[stepOf[o]] < 0) {
      outputOfStep_[stepOf[o]] = static_cast<int>(outputBytes_.size());
      outputBytes_.push_back(boundBytes(o));
    }

  std::vector<BufferRequest> requests;
  std::vector<int> requestStep;
  std::vector<SymInt> elems;  // per request, for the solver's peak
  std::vector<int64_t> elemSize;
  scratchBytes_ = 0;
  for (int i = 0; i < n; ++i) {
    const graph::Value& v = *st[i].value;
    slots_[i].bytes = boundBytes(st[i].id);
    // Kernel temporaries: casts and contiguous copies of the operands and of the result, at
    // most a few of each, 4-byte elements at worst. Fused programs keep theirs in registers.
    if (v.kind != ValueKind::Fused) {
      uint64_t elemsAll = uint64_t(boundElems(st[i].id));
      for (ValueId a : v.args) elemsAll += uint64_t(boundElems(a));
      scratchBytes_ = std::max<uint64_t>(scratchBytes_, 3 * 4 * elemsAll + 8 * kPlanAlign);
    }
    if (outputOfStep_[i] >= 0) continue;
    requests.push_back({slots_[i].bytes, i, last[i]});
    requestStep.push_back(i);
    elems.push_back(shapes::product(v.shape));
    elemSize.push_back(int64_t(shapes::elementSize(v.dtype)));
  }
  MemoryPlan mp = planMemory(requests);
  for (size_t r = 0; r < requests.size(); ++r) slots_[requestStep[r]].offset = mp.offsets[r];
  scratchOffset_ = mp.bytes;
  record_.arenaBytes = mp.bytes + scratchBytes_;
  record_.outputBytes = 0;
  for (uint64_t b : outputBytes_) record_.outputBytes += b;

  // The solver's bound on the bytes live at once: at each step, the largest value of the sum
  // of the live buffers' sizes (tighter than the sum of their bounds when sizes are related,
  // as u0 + u1 <= n is). Every plan needs at least this much; ours is checked against it.
  // A step whose live buffers are a subset of a neighbour's cannot hold the peak: only the
  // others are asked (each is a solver query).
  auto liveAt = [&](int t) {
    std::vector<size_t> l;
    for (size_t r = 0; r < requests.size(); ++r)
      if (requests[r].first <= t && t <= requests[r].last) l.push_back(r);
    return l;
  };
  std::vector<std::vector<size_t>> liveSets(n);
  for (int t = 0; t < n; ++t) liveSets[t] = liveAt(t);
  auto within = [](const std::vector<size_t>& a, const std::vector<size_t>& b) {
    return std::includes(b.begin(), b.end(), a.begin(), a.end());
  };
  uint64_t peak = 0;
  for (int t = 0; t < n; ++t) {
    const std::vector<size_t>& set = liveSets[t];
    if (set.empty()) continue;
    if (t + 1 < n && within(set, liveSets[t + 1])) continue;
    if (t > 0 && within(set, liveSets[t - 1]) && liveSets[t - 1] != set) continue;
    SymInt live(0);
    for (size_t r : set) live = live + elems[r] * SymInt(elemSize[r]);
    auto m = live.maybeConstant() ? live.maybeConstant() : env.maxValue(live);
    if (!m) {
      // The solver gave up on the sum (floor divisions of several symbols, such as conv2d's
      // output sizes): the sum of each value's own bound bounds it too, only less tightly.
      int64_t sum = 0;
      for (size_t r : set) sum += int64_t(requests[r].bytes);
      m = sum;
    }
    peak = std::max<uint64_t>(peak, uint64_t(*m));
  }
  record_.boundBytes = peak;
  TESSEL_ASSERT(mp.bytes >= peak, "tpu plan: the arena is smaller than the peak live bytes");

  checkFitsTheDevice();

  outputBounds_.clear();
  for (ValueId o : graph_.outputs()) {
    const graph::Value& v = graph_.value(o);
    DimBounds b;
    for (const SymInt& d : v.shape)
      b.push_back(d.maybeConstant() ? -1 : std::max(bound(d, o), ownRows(v)));
    outputBounds_.push_back(std::move(b));
  }
}

Tensor TpuProgram::launch(size_t index, const Step& s, std::span<const Tensor> args,
                          const shapes::OpSignature& sig, const shapes::OpAttrs& attrs) {
  const Slot& slot = slots_[index];
  const int outIndex = outputOfStep_[index];
  std::byte* scratch = arena_.get() + scratchOffset_;
  std::byte* target;
  std::shared_ptr<const void> owner;
  if (outIndex >= 0) {
    target = pageAligned(outputBuffers_[outIndex].storage()->data());
    owner = outputBuffers_[outIndex].storage();
  } else {
    target = arena_.get() + slot.offset;
    owner = arena_;
  }
  std::optional<uint64_t> expected;
  if (s.cat != OpCategory::DataDependent)
    expected = uint64_t(shapes::product(sig.shape).maybeConstant().value_or(0)) *
               shapes::elementSize(sig.dtype);
  memory_->begin(target, slot.bytes, expected, owner, scratch, scratchBytes_, arena_);
  // A recorded random op draws the words reserved for it when it was recorded.
  struct RandomStateScope {
    std::optional<RngState> after;
    ~RandomStateScope() {
      if (after) setRngState(*after);
    }
  } randomScope;
  if (attrs.randomSlot >= 0 && size_t(attrs.randomSlot) < randomStates_.size()) {
    randomScope.after = rngState();
    setRngState(randomStates_[attrs.randomSlot]);
  }
  Tensor out = graph::runNodeOnCpu(*s.value, args, sig, attrs, fused_[index].get());

  const uint64_t realBytes = uint64_t(out.numel()) * shapes::elementSize(out.dtype());
  if (!s.staticSig) {
    realDynamicBytes_ += realBytes;
    boundDynamicBytes_ += slot.bytes;
  }
  const bool inSlot = out.storage()->data() == target && out.offset() == 0 && out.isContiguous();
  if (inSlot) return out;
  bool isView = false;
  for (const Tensor& a : args) isView = isView || a.storage() == out.storage();
  if (isView && slot.mayAlias && outIndex < 0) return out;
  if (realBytes > slot.bytes) {
    // Only a fact the data broke can size a buffer too small: a runtime assert of this
    // program that has not been checked yet (its other sizes are still to come).
    std::string facts;
    for (const graph::RuntimeAssert& a : graph_.runtimeAsserts())
      facts += (facts.empty() ? "" : ", ") + a.text;
    throwUserError(ErrorKind::ShapeError,
                   "tpu: program '" + record_.name + "': a result of " +
                       std::string(shapes::opName(s.value->op)) + " has " +
                       std::to_string(out.numel()) + " elements, more than its bound allows " +
                       "under this program's size checks (" + facts + "), so one of them fails");
  }
  // Copy the result into its slot. When it is a view of the slot itself (a kernel's temporary
  // took the slot and the result reads it transposed), stage it through scratch first.
  Tensor src = out;
  if (out.storage()->data() == target) {
    TESSEL_ASSERT(realBytes <= scratchBytes_, "tpu: scratch too small to stage a result");
    Tensor staged = Tensor::view(Storage::borrow(scratch, realBytes, Device::Tpu, arena_),
                                 out.shape(), contiguousStrides(out.shape()), 0, out.dtype());
    cpu::copyToContiguous(out, scratch);
    src = staged;
  }
  Tensor dst = Tensor::view(Storage::borrow(target, slot.bytes, Device::Tpu, owner), out.shape(),
                            contiguousStrides(out.shape()), 0, out.dtype());
  if (src.isContiguous())
    std::memmove(target, src.bytes(), realBytes);
  else
    cpu::copyToContiguous(src, target);
  return dst;
}

void TpuProgram::checkFitsTheDevice() const {
  const uint64_t total = record_.arenaBytes + record_.outputBytes;
  if (total > tpuConfig().memoryBytes)
    throwUserError(ErrorKind::DeviceError,
                   "tpu: program '" + record_.name + "' needs " + bytesText(total) + " (arena " +
                       bytesText(record_.arenaBytes) + ", outputs " +
                       bytesText(record_.outputBytes) + ") but the device has " +
                       bytesText(tpuConfig().memoryBytes) + " (config.tpu_memory_bytes)");
}

std::vector<Tensor> TpuProgram::run(std::span<const Tensor> inputs,
                                    std::span<const int64_t> symbolValues) {
  // Also at every run: config.tpu_memory_bytes may have been lowered since the compile.
  checkFitsTheDevice();
  beginRun(inputs, Device::Tpu, "the tpu");
  if (!arena_) {
    auto storage = Storage::allocate(std::max<uint64_t>(record_.arenaBytes, 1), Device::Tpu);
    arena_ = std::shared_ptr<std::byte>(storage, static_cast<std::byte*>(storage->data()));
  }
  // Output buffers at their bounds, before the first kernel.
  outputBuffers_.clear();
  for (uint64_t b : outputBytes_)
    outputBuffers_.push_back(Tensor::empty({int64_t(std::max<uint64_t>(b, 1) + kPage)}, DType::Bool,
                                           Device::Tpu));
  realDynamicBytes_ = boundDynamicBytes_ = 0;
  memory_->fallbacks = 0;
  std::vector<Tensor> outs;
  {
    ScopedAllocationHook hook(memory_.get());
    outs = runSteps(inputs, symbolValues);
  }
  outputBuffers_.clear();
  TpuStats& stats = tpuStats();
  ++stats.executions;
  stats.runAllocations += memory_->fallbacks;
  stats.paddingRatio = boundDynamicBytes_ == 0
                           ? 0.0
                           : 1.0 - double(realDynamicBytes_) / double(boundDynamicBytes_);
  // A constant returned as is lives on the host: the same bytes, tagged as the device's.
  for (Tensor& t : outs) t = taggedAsTpu(t);
  return outs;
}

std::unique_ptr<TpuProgram> compileForTpu(const graph::Graph& g,
                                          const graph::CompileOptions& options,
                                          const std::string& name) {
  auto p = std::make_unique<TpuProgram>(g, options, name);
  TpuStats& stats = tpuStats();
  ++stats.compilations;
  stats.programs.push_back(p->record());
  return p;
}

}  // namespace tessel::backends::tpu
