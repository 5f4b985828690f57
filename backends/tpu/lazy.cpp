// The lazy tpu runtime: segments being recorded, syncs, and the program cache.
#include "backends/tpu/lazy.h"

#include <array>
#include <chrono>
#include <map>
#include <unordered_map>

#include "backends/backend.h"
#include "backends/rng.h"
#include "backends/graph/dead_code.h"
#include "backends/graph/graph_builder.h"
#include "backends/graph/graph_print.h"
#include "backends/graph/sym_eval.h"
#include "shapes/expr.h"
#include "shapes/shape_env.h"
#include "shapes/source_loc.h"
#include "shapes/user_error.h"

namespace tessel::backends::tpu {

// Note [Lazy segments]
// Ops on tpu tensors append nodes to the current *segment*: a graph under its own ShapeEnv.
// A materialized tensor enters a segment as an input; its dynamic dims become symbols whose
// hint is the real size and whose range is [0, bound], and the data-dependent ops in the
// segment make unbacked symbols bounded by the solver (nonzero of n elements: u0 <= n). The
// env runs size-oblivious (no 0/1 specialization, no duck sizing): a recorded program must
// serve every size within its bounds, so decisions may not depend on which real sizes came.
// A sync ends the segment: the live pending tensors become the outputs of its graph, the
// graph's text (structure, static sizes, symbols with their ranges, and any guard a hint
// decided) keys the program cache, and the program runs once. A new segment starts at once,
// so a training loop cuts its graphs at the same place every iteration and hits the cache.

namespace {

shapes::ShapeEnvConfig lazyEnvConfig() {
  shapes::ShapeEnvConfig c;
  c.duck_shape = false;
  c.specialize_zero_one = false;
  c.backed_size_oblivious = true;
  return c;
}

constexpr uint32_t kNoInput = UINT32_MAX;

// Note [Segment limit]
// A loop that never reads a tpu value (nor calls sync()) would record into one segment
// forever: every op it ran, dropped results included, stays a node, and memory grows with the
// iterations. PyTorch/XLA lets that graph grow until mark_step; here a segment that reaches
// kMaxSegmentValues values is run first, as if the script had called sync() there. Only the
// live pending tensors become its outputs, so a loop cut at such points finds its program in
// the cache after the first cuts, and a loop that syncs once per step never reaches the limit.
constexpr size_t kMaxSegmentValues = 16384;

// Note [Program cache size]
// Each cached program keeps the segment it was recorded in (its graph's ShapeEnv points into
// it). A script whose syncs cut differently each time (a loop that never syncs, whose live
// pending tensors vary with what the cycle collector has freed) would fill the cache without
// end, so it keeps the kMaxCachedPrograms most recently run programs (PyTorch/XLA's
// XLA_COMPILATION_CACHE_SIZE does the same with an LRU of 1024); a training loop's few
// programs stay in it.
constexpr size_t kMaxCachedPrograms = 32;

}  // namespace

class Segment {
 public:
  Segment() : env(lazyEnvConfig()), builder(&env) {}

  shapes::ShapeEnv env;
  graph::GraphBuilder builder;
  std::vector<std::weak_ptr<LazyTensor>> pending;
  /// Results of data-dependent ops, kept until the sync: a size taken from one (nonzero(x)
  /// .shape[0]) needs its op to run even when the tensor itself is dropped.
  std::vector<std::shared_ptr<LazyTensor>> sizeProducers;
  /// Sizes of earlier segments already imported here, so that n - n is 0: by (segment, expr).
  struct Imported {
    std::weak_ptr<Segment> from;
    shapes::SymInt size;
  };
  std::map<std::pair<const Segment*, const void*>, Imported> imported;
  std::vector<Tensor> inputs;  ///< data of the builder's inputs, in order
  /// Per random op (OpAttrs::randomSlot): the generator's state when it was recorded, its
  /// words reserved then, so seed() and cpu draws order with tpu ones as written.
  std::vector<RngState> randomStates;
  bool done = false;           ///< synced (or failed): its values are known
  std::string error;           ///< why its program failed (the first failure)
  ErrorKind errorKind = ErrorKind::DeviceError;
  std::vector<int64_t> values;  ///< per symbol, once done
  std::vector<uint8_t> known;   ///< per symbol: its value came out of a program that ran

  /// A backed symbol for a size known now: value as hint, [0, bound] as range.
  shapes::SymInt sizeSymbol(const std::string& source, int64_t value, int64_t bound) {
    shapes::SymbolOptions o;
    o.dynamic = shapes::DimDynamic::Dynamic;
    o.min = 0;
    o.max = bound;
    shapes::ScopedShapeEnv scope(&env);
    return env.createSymbol(source, value, o);
  }
  uint32_t addInput(Tensor data, shapes::SymShape shape) {
    const uint32_t id =
        builder.input("in" + std::to_string(inputs.size()), std::move(shape), data.dtype());
    inputs.push_back(std::move(data));
    return id;
  }
  /// The value of every symbol: hints of backed ones, run values of unbacked ones.
  int64_t valueOf(const shapes::SymInt& v) const {
    if (auto c = v.maybeConstant()) return *c;
    graph::SymbolValues sv;
    sv.reset(env.numSymbols());
    for (uint32_t s = 0; s < env.numSymbols(); ++s) {
      const auto& info = env.symbol(s);
      if (info.hint)
        sv.bind(s, *info.hint);
      else if (done && s < values.size())
        sv.bind(s, values[s]);
    }
    return sv.eval(v);
  }
};

class LazyRuntime {
 public:
  /// One per thread: interpreters on different threads record and run their own segments.
  /// Freed when its thread ends (LeakSanitizer checks it): tensors that outlive it
  /// keep their segments (shared) and never touch the runtime as they die.
  static LazyRuntime& get() {
    thread_local LazyRuntime r;
    return r;
  }
  /// The segment being recorded keeps its data-dependent results (sizeProducers), and they
  /// keep it: a cycle of shared pointers, broken here since it will never run.
  ~LazyRuntime() {
    if (current_) current_->sizeProducers.clear();
  }
  std::shared_ptr<Segment> current() {
    if (!current_) {
      current_ = std::make_shared<Segment>();
      std::erase_if(byEnv_, [](const auto& kv) { return kv.second.expired(); });
      byEnv_[&current_->env] = current_;
    }
    return current_;
  }
  std::shared_ptr<Segment> segmentOf(const shapes::ShapeEnv* env) const {
    auto it = byEnv_.find(env);
    return it == byEnv_.end() ? nullptr : it->second.lock();
  }
  /// Runs the current segment. A program that fails does not throw here: each tensor it was
  /// to make keeps its own error (thrown by data()), and the others are computed anyway.
  /// Returns the segment that ran (nullptr when none was being recorded).
  std::shared_ptr<Segment> sync();

 private:
  struct CacheEntry {
    std::shared_ptr<Segment> origin;  ///< its graph's ShapeEnv
    std::unique_ptr<TpuProgram> program;
    uint64_t lastUse = 0;  ///< the `uses_` count at its last run (Note [Program cache size])
  };
  using Live = std::vector<std::shared_ptr<LazyTensor>>;
  std::string key(const graph::Graph& g, const Segment& seg) const;
  void run(const std::shared_ptr<Segment>& segPtr);
  /// Compiles (or finds) and runs `g`, whose outputs make live[which[0]], live[which[1]], ...
  void execute(const graph::Graph& g, const std::shared_ptr<Segment>& segPtr, const Live& live,
               std::span<const size_t> which);

  std::shared_ptr<Segment> current_;
  std::unordered_map<std::string, CacheEntry> cache_;
  uint64_t uses_ = 0;      ///< runs of cached programs so far
  uint64_t compiled_ = 0;  ///< programs compiled so far (their names)
  std::unordered_map<const shapes::ShapeEnv*, std::weak_ptr<Segment>> byEnv_;
  // Note [Sizes outlive their sync]
  // A native takes a tpu tensor's sizes (SymInts of the segment being recorded, which nothing
  // but the runtime holds) and then emits several ops with them; one of those ops may need a
  // real value and run the segment (flip(x[mask]): n - 1, then arange(n)). The sizes must stay
  // valid for the rest of that native, so the last few segments that ran are kept here (a
  // cached program's origin segment used to keep some alive by chance, so the bug showed only
  // on a program's second run). Sizes a script keeps hold their segment themselves (a bounded
  // size value, sym_value.h).
  std::array<std::shared_ptr<Segment>, 4> recent_;
  size_t recentNext_ = 0;
};

// ---- LazyTensor ------------------------------------------------------------------------------

std::shared_ptr<LazyTensor> LazyTensor::fromData(Tensor data, DimBounds bounds) {
  auto t = std::make_shared<LazyTensor>();
  t->bounds_ = bounds.empty() ? DimBounds(data.shape().size(), -1) : std::move(bounds);
  t->data_ = std::move(data);
  return t;
}

int64_t LazyTensor::rank() const {
  return pending() ? int64_t(shape_.size()) : data_.ndim();
}

const Tensor& LazyTensor::data() {
  if (pending() && error_.empty() && segment_ && !segment_->done) LazyRuntime::get().sync();
  if (!pending()) return data_;
  // The op that made this tensor failed when its program ran: its own error, every time.
  if (!error_.empty()) throwUserError(errorKind_, error_);
  throwUserError(ErrorKind::DeviceError, "tpu: this tensor was never computed");
}

shapes::SymShape LazyTensor::shape(std::shared_ptr<Segment>* segment) {
  LazyRuntime& rt = LazyRuntime::get();
  if (pending()) {
    if (!error_.empty()) data();  // throws
    if (segment) *segment = segment_;
    return shape_;
  }
  if (!hasBoundedDims()) return shapes::SymShape(data_.shape().begin(), data_.shape().end());
  std::shared_ptr<Segment> seg = rt.current();
  if (segment) *segment = seg;
  if (inputSegment_.lock() == seg) return inputShape_;
  inputShape_.clear();
  for (size_t d = 0; d < bounds_.size(); ++d)
    inputShape_.push_back(bounds_[d] < 0 ? shapes::SymInt(data_.shape()[d])
                                         : seg->sizeSymbol("dim" + std::to_string(d),
                                                           data_.shape()[d], bounds_[d]));
  inputSegment_ = seg;
  inputId_ = kNoInput;
  return inputShape_;
}

// ---- Recording -------------------------------------------------------------------------------

struct LazyRecorder {
  static uint32_t operandId(Segment& seg, const std::shared_ptr<Segment>& segPtr,
                            const LazyOperand& o);
  static std::shared_ptr<LazyTensor> recordIn(const std::shared_ptr<Segment>& segPtr,
                                              shapes::OpKind op,
                                              std::span<const LazyOperand> operands,
                                              const shapes::OpAttrs& attrs);
};

uint32_t LazyRecorder::operandId(Segment& seg, const std::shared_ptr<Segment>& segPtr,
                                 const LazyOperand& o) {
  if (!o.tensor) {
    Tensor data = toDevice(o.host, Device::Tpu);
    return seg.addInput(data, shapes::SymShape(data.shape().begin(), data.shape().end()));
  }
  LazyTensor& t = *o.tensor;
  if (t.pending() && t.error_.empty() && t.segment_ == segPtr) return t.id_;
  const Tensor& data = t.data();  // an earlier segment's result: it ran at that sync
  // A bounded tensor is one input per segment (its dims are that segment's symbols); a static
  // one may enter as often as it is used.
  if (!t.hasBoundedDims()) return seg.addInput(data, t.shape());
  shapes::SymShape shape = t.shape();  // (re)makes the dims' symbols for this segment
  if (t.inputId_ == kNoInput) t.inputId_ = seg.addInput(data, std::move(shape));
  return t.inputId_;
}


std::shared_ptr<LazyTensor> LazyRecorder::recordIn(const std::shared_ptr<Segment>& segPtr,
                                                   shapes::OpKind op,
                                                   std::span<const LazyOperand> operands,
                                                   const shapes::OpAttrs& attrs) {
  Segment& seg = *segPtr;
  std::vector<uint32_t> ids;
  ids.reserve(operands.size());
  for (const LazyOperand& o : operands) ids.push_back(operandId(seg, segPtr, o));
  shapes::ScopedShapeEnv scope(&seg.env);
  const bool random = graph::isRandomOp(op);
  uint32_t id;
  if (random) {
    shapes::OpAttrs a = attrs;
    a.randomSlot = int32_t(seg.randomStates.size());
    id = seg.builder.op(op, ids, a);
    // Reserve the words now, at the bound of the element count (its real count may not be
    // known until the program runs).
    seg.randomStates.push_back(rngState());
    const shapes::SymShape none;
    const shapes::SymInt words = graph::randomWordCount(
        op, attrs, ids.empty() ? none : seg.builder.shape(ids[0]), seg.builder.shape(id));
    reserveRandom(uint64_t(sizeBound({words, segPtr})));
  } else {
    id = seg.builder.op(op, ids, attrs);
  }
  auto t = std::make_shared<LazyTensor>();
  t->segment_ = segPtr;
  t->id_ = id;
  t->shape_ = seg.builder.shape(id);
  t->dtype_ = seg.builder.dtype(id);
  seg.pending.push_back(t);
  if (shapes::opCategory(op) == shapes::OpCategory::DataDependent) seg.sizeProducers.push_back(t);
  return t;
}

std::shared_ptr<LazyTensor> recordOp(shapes::OpKind op, std::span<const LazyOperand> operands,
                                     const shapes::OpAttrs& attrs) {
  LazyRuntime& rt = LazyRuntime::get();
  // repeat_interleave and bincount without a given size have no bound a segment could plan
  // for (sum(repeats), max(x) + 1): eagerly they run on their data as below, like PyTorch/XLA.
  // (Under @compile(backend = "tpu") a fact must bound them: TpuProgram's ShapeError.)
  const bool unboundedSize = (op == shapes::OpKind::RepeatInterleave && attrs.shape.empty()) ||
                             op == shapes::OpKind::Bincount;
  if (shapes::opCategory(op) == shapes::OpCategory::DataDependent && !attrs.outputSize &&
      (!tpuConfig().boundedDynamic || unboundedSize)) {
    // PyTorch/XLA without bounded shapes: run what is pending, then the op itself, and give
    // its result the static size its data has.
    std::vector<Tensor> in;
    for (const LazyOperand& o : operands) {
      Tensor host = o.tensor ? o.tensor->data() : o.host;
      in.push_back(host.device() == Device::Cpu ? host : toDevice(host, Device::Cpu));
    }
    Tensor out = backendFor(Device::Cpu).run(op, in, attrs).at(0);
    return LazyTensor::fromData(toDevice(out, Device::Tpu));
  }
  std::shared_ptr<Segment> seg = rt.current();
  if (seg->builder.size() >= kMaxSegmentValues) {
    rt.sync();  // Note [Segment limit]
    seg = rt.current();
  }
  try {
    return LazyRecorder::recordIn(seg, op, operands, attrs);
  } catch (const UserError& e) {
    // A shape question only pending data can answer: run what is pending, then ask again
    // with the real sizes as hints.
    if (e.kind() != ErrorKind::DataDependentError || seg->pending.empty()) throw;
  }
  rt.sync();
  return LazyRecorder::recordIn(rt.current(), op, operands, attrsOfCurrentSegment(attrs));
}

void syncAll() {
  std::shared_ptr<Segment> seg = LazyRuntime::get().sync();
  if (seg && !seg->error.empty()) throwUserError(seg->errorKind, seg->error);
}

// ---- Sizes -----------------------------------------------------------------------------------

std::shared_ptr<Segment> currentSegment() {
  return LazyRuntime::get().current();
}

shapes::ShapeEnv* segmentEnv(const std::shared_ptr<Segment>& segment) {
  return &segment->env;
}

int64_t sizeBound(const LazySize& size) {
  if (auto c = size.expr.maybeConstant()) return *c;
  shapes::ScopedShapeEnv scope(&size.segment->env);
  auto m = size.segment->env.maxValue(size.expr);
  if (!m)
    throwUserError(ErrorKind::ShapeError,
                   "tpu: the size " + size.expr.toString() + " has no upper bound");
  return *m;
}

int64_t sizeValue(const LazySize& size) {
  if (auto c = size.expr.maybeConstant()) return *c;
  Segment& seg = *size.segment;
  if (!seg.done && size.expr.expr()->hasUnbacked) LazyRuntime::get().sync();
  for (uint32_t s : size.expr.expr()->syms)
    if (seg.env.symbol(s).unbacked && (s >= seg.known.size() || !seg.known[s]))
      throwUserError(seg.errorKind, "tpu: the program that computes the size " +
                                        size.expr.toString() + " failed: " + seg.error);
  return seg.valueOf(size.expr);
}

shapes::SymInt importSize(const LazySize& size) {
  if (size.expr.isConstant()) return size.expr;
  std::shared_ptr<Segment> seg = LazyRuntime::get().current();
  if (size.segment == seg) return size.expr;
  const auto key = std::make_pair(size.segment.get(), static_cast<const void*>(size.expr.expr()));
  if (auto it = seg->imported.find(key);
      it != seg->imported.end() && it->second.from.lock() == size.segment)
    return it->second.size;
  const int64_t value = sizeValue(size);
  // A negative value is an index or a slice end counting from the back (n - 1 at n = 0): its
  // sign decides what the op means, so it enters as its value, not as a size in [0, bound].
  shapes::SymInt imported =
      value < 0 ? shapes::SymInt(value) : seg->sizeSymbol("size", value, sizeBound(size));
  seg->imported[key] = {size.segment, imported};
  return imported;
}

namespace {

std::shared_ptr<Segment> segmentOfSize(const shapes::SymInt& size) {
  std::shared_ptr<Segment> seg = LazyRuntime::get().segmentOf(size.env());
  if (!seg)
    throwUserError(ErrorKind::ValueError,
                   "the size " + size.toString() + " belongs to no tpu tensor that is still alive");
  return seg;
}

}  // namespace

shapes::SymInt importSymInt(const shapes::SymInt& size) {
  if (size.isConstant()) return size;
  return importSize({size, segmentOfSize(size)});
}

shapes::OpAttrs attrsOfCurrentSegment(const shapes::OpAttrs& attrs, bool realValues) {
  shapes::ShapeEnv* env = realValues ? nullptr : &LazyRuntime::get().current()->env;
  auto stale = [&](const shapes::SymInt& v) { return v.isSymbolic() && v.env() != env; };
  bool any = stale(attrs.step) || stale(attrs.index) || (attrs.start && stale(*attrs.start)) ||
             (attrs.stop && stale(*attrs.stop));
  for (const shapes::SymInt& d : attrs.shape) any = any || stale(d);
  if (!any) return attrs;  // the common case: no copy
  shapes::OpAttrs a = attrs;
  auto fix = [&](shapes::SymInt& v) {
    if (stale(v)) v = realValues ? shapes::SymInt(symIntValue(v)) : importSymInt(v);
  };
  for (shapes::SymInt& d : a.shape) fix(d);
  if (a.start) fix(*a.start);
  if (a.stop) fix(*a.stop);
  fix(a.step);
  fix(a.index);
  return a;
}

int64_t symIntValue(const shapes::SymInt& size) {
  if (auto c = size.maybeConstant()) return *c;
  return sizeValue({size, segmentOfSize(size)});
}

// ---- Syncing ---------------------------------------------------------------------------------

std::string LazyRuntime::key(const graph::Graph& g, const Segment& seg) const {
  std::string k = graph::toString(g);
  for (uint32_t s = 0; s < seg.env.numSymbols(); ++s) {
    const auto& info = seg.env.symbol(s);
    k += info.name + (info.unbacked ? " unbacked " : " ") + info.range.toString() + "\n";
  }
  for (const shapes::Guard& gd : seg.env.guards()) k += "guard " + gd.text + "\n";
  return k;
}

std::shared_ptr<Segment> LazyRuntime::sync() {
  std::shared_ptr<Segment> seg = current_;
  current_ = nullptr;  // ops from here on (none while running) go to a fresh segment
  if (!seg) return seg;
  run(seg);
  // Note [Sizes outlive their sync]
  recent_[recentNext_++ % recent_.size()] = seg;
  return seg;
}

void LazyRuntime::run(const std::shared_ptr<Segment>& segPtr) {
  Segment& seg = *segPtr;
  Live live;
  for (auto& w : seg.pending)
    if (auto t = w.lock()) live.push_back(std::move(t));
  seg.pending.clear();
  seg.sizeProducers.clear();  // in `live` now, as long as this run needs them
  seg.values.assign(seg.env.numSymbols(), 0);
  seg.known.assign(seg.env.numSymbols(), 0);
  auto fail = [&](LazyTensor& t, const UserError& e) {
    t.error_ = e.what();
    t.errorKind_ = e.kind();
    t.segment_ = nullptr;
    if (seg.error.empty()) {
      seg.error = e.what();
      seg.errorKind = e.kind();
    }
  };
  if (!live.empty()) {
    for (const auto& t : live) seg.builder.output(t->id_);
    graph::Graph g = seg.builder.build();
    std::vector<size_t> all(live.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    try {
      execute(g, segPtr, live, all);
    } catch (const UserError& e) {
      // One result's failure (a runtime assert on its sizes, a size with no bound) must not
      // lose the others: run each result's own part of the graph, keeping each one's error.
      // A single result is run again too: the failure may belong to an op whose result was
      // dropped before the sync (a failing function's locals), which must not fail it.
      for (size_t i = 0; i < live.size(); ++i) {
        try {
          const size_t which[] = {i};
          execute(graph::keepOutputs(g, which), segPtr, live, which);
        } catch (const UserError& ei) {
          fail(*live[i], ei);
        }
      }
    }
  }
  seg.done = true;
  seg.inputs.clear();
}

void LazyRuntime::execute(const graph::Graph& g, const std::shared_ptr<Segment>& segPtr,
                          const Live& live, std::span<const size_t> which) {
  Segment& seg = *segPtr;
  std::string k = key(g, seg);
  TpuStats& stats = tpuStats();
  auto it = cache_.find(k);
  const auto t0 = std::chrono::steady_clock::now();
  if (it == cache_.end()) {
    if (cache_.size() >= kMaxCachedPrograms) {
      auto oldest = cache_.begin();
      for (auto c = cache_.begin(); c != cache_.end(); ++c)
        if (c->second.lastUse < oldest->second.lastUse) oldest = c;
      cache_.erase(oldest);
    }
    const std::string name = "lazy#" + std::to_string(compiled_++);
    CacheEntry e;
    // The program keeps the segment whose ShapeEnv its graph points into.
    e.origin = segPtr;
    e.program = compileForTpu(g, {}, name);
    if (tpuConfig().perfLog)
      tpuConfig().perfLog("tpu compile " + name + ": " + std::to_string(e.program->record().ops) +
                          " ops, arena " + std::to_string(e.program->record().arenaBytes) +
                          " bytes, " + std::to_string(e.program->record().compileMs) + " ms");
    it = cache_.emplace(std::move(k), std::move(e)).first;
  } else {
    ++stats.cacheHits;
    if (tpuConfig().perfLog)
      tpuConfig().perfLog("tpu cache hit " + it->second.program->record().name + " (" +
                          std::to_string(std::chrono::duration<double, std::micro>(
                                             std::chrono::steady_clock::now() - t0)
                                             .count()) +
                          " us lookup)");
  }
  it->second.lastUse = ++uses_;
  TpuProgram& program = *it->second.program;
  program.setRandomStates(seg.randomStates);
  std::vector<int64_t> values(seg.env.numSymbols(), 0);
  for (uint32_t s = 0; s < seg.env.numSymbols(); ++s)
    if (auto h = seg.env.symbol(s).hint) values[s] = *h;
  std::vector<Tensor> outs = program.run(seg.inputs, values);
  // The unbacked sizes this program bound (its graph may be a part of the segment's).
  const std::vector<uint8_t> bound = graph::unbackedSymbolsBound(g);
  auto last = program.lastSymbolValues();
  for (uint32_t s = 0; s < seg.env.numSymbols() && s < last.size(); ++s)
    if ((s < bound.size() && bound[s]) || !seg.env.symbol(s).unbacked) {
      seg.values[s] = last[s];
      seg.known[s] = 1;
    }
  for (size_t j = 0; j < which.size(); ++j) {
    LazyTensor& t = *live[which[j]];
    t.data_ = outs[j];
    t.bounds_ = program.outputBounds()[j];
    t.segment_ = nullptr;
  }
}

}  // namespace tessel::backends::tpu
