// The cycle collector (Note [Cycle collection]): generations of tracked containers, trial
// deletion, and breaking the cycles it finds.
#include "interp/values/gc.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <vector>

#include "interp/values/trace_context.h"
#include "shapes/user_error.h"

namespace tessel::interp {

// Note [Cycle collection]
// Values are freed by reference counting (value.h): the moment the last reference goes, the
// object goes, with its tensors' storage. Counting never frees a cycle: a dict that holds
// itself, or a local function that calls itself (its cell holds the function, the function
// holds the cell), keeps a count of at least one forever. The collector finds such garbage
// with CPython's algorithm, trial deletion over the tracked containers:
// 1. every container of the generations collected copies its reference count to gcRefs;
// 2. each of them subtracts, from the gcRefs of every collected container it references, that
//    reference (traverse()). What is left in gcRefs is the number of references from outside
//    the collected set: from older generations, from untracked objects, and from C++ (the
//    engine's value stack, a native's locals, the interpreter's modules, compile caches);
// 3. a container with gcRefs > 0 is reachable, and so is everything it references,
//    transitively (move_unreachable: one pass over the list, moving the containers with 0 to
//    a tentative list and back when a reachable one turns out to reference them);
// 4. what is left is referenced only from inside itself: garbage. The collector holds a
//    reference to each, clears their references (clearRefs(), which breaks every cycle among
//    them), and lets go: each count then falls to zero and the objects are freed as usual.
//
// Why it is safe. The roots are never enumerated, so none can be forgotten: whatever refers to
// a container from outside the collected set (a C++ local Value or Ref, a frame slot, an older
// generation, a compile cache) is a reference counted in `refs` that no traverse() reports, so
// it stays in gcRefs and keeps the container and all it reaches alive. The one requirement is
// that traverse() never reports a reference the object does not own; reporting fewer only
// leaks. Nothing runs user code during a collection (there are no finalizers), so nothing can
// resurrect garbage or change the graph midway. A raw pointer with no count (a native holding
// `ListObj*` borrowed from a Value) is safe as long as the Value it was borrowed from lives,
// as under reference counting alone.
//
// Note [Fused passes]
// A full collection is bound by memory traffic: a million containers are some 100 MB of
// objects and item arrays, and each pass over them is a walk through all of it. So steps 1 and
// 2 are one pass: a container's gcRefs is set from refs the first time the pass touches it,
// whether as the container scanned or as a referent of one, and its gcEpoch records that it
// was (the collected set is known without a pass: the tracked containers of the generations
// collected). States carry the epoch too, so no pass resets them afterwards. The collector also
// untracks tuples that hold nothing tracked, as CPython does: a tuple never changes, so one
// that references no container that could be in a cycle never will, and records of numbers,
// strings and tensors then cost the collector nothing.
//
// Note [Incremental old generation]
// A full collection is linear in the heap: with a million containers it pauses the program for
// tens of milliseconds (docs/perf.md). So when the old generation is due (Note [When]) and
// config.gc_increment is not 0, it is collected in steps of at most that many containers, one
// step after each young collection while the program runs between them:
// - mark: each old container is marked (gcGen 3) and its count copied (step 1);
// - subtract: each subtracts its references to marked containers (step 2);
// - scan: each with a count left is reachable and makes what it references reachable; the
//   others are candidates (step 3).
// The program runs between the steps and changes counts and references, so these counts are
// only a guess: a container may look reachable when it became garbage meanwhile (it is found
// at the next collection), or look unreachable when the program took a reference to it. The
// last step therefore collects the candidates exactly, at once, as one collection over them
// alone (steps 1 to 4 with the set being the candidates): a candidate referenced from
// anything else, the marked containers found reachable included, keeps a count and is kept.
// That is safe for any set of candidates (Note [Cycle collection]: references from outside
// the set are never subtracted), and complete for what was garbage when the collection began:
// garbage never changes (nothing can reach it), so its counts are exact, it is never reached
// from a reachable container, and all of it ends among the candidates. Its pause is linear in
// the candidates, which is mostly the garbage. Containers made or promoted meanwhile are not
// marked (gcGen 2) and wait for the next collection. Marked containers stay marked (gcGen 3
// counts as old everywhere else); gc() and gc(2) put an unfinished collection back and
// collect everything at once, as before.
//
// Note [Large containers]
// A list of a million items made by one comprehension is young when it is made, and a young
// or middle collection visits all its items at once: a pause of milliseconds that no step
// size bounds. So young and middle collections move a container with at least
// config.gc_increment references straight to the old generation, unvisited, where the
// incremental collection visits it in parts. Any generation is a safe place for a container
// (it only decides when the collector looks at it); what it references counts as referenced
// from outside the young collection, and waits for the old one.
//
// Note [When]
// Making a container counts it in the young generation (track()); past thresholds[0] the heap
// asks the engine (poll) to collect at its next statement, loop iteration or call, through the
// step counter it already tests there, so the fast paths pay nothing. Collections are skipped
// while a trace or a compiled function with graph breaks runs (the next allocation asks again),
// so none happens inside a graph's run or a trace. Each young collection moves survivors to the
// middle generation; every thresholds[1] young collections the middle one is collected and its
// survivors move to the old one; the old one is collected every thresholds[2] middle
// collections, and only once the objects waiting to enter it are a quarter of those already
// there (CPython's rule), which keeps the cost of full collections linear in allocations.

namespace {
thread_local GcHeap* tCurrentHeap = nullptr;

GcObject* asGc(GcLink* l) {
  return static_cast<GcObject*>(l);
}

void unlink(GcLink* o) {
  o->gcPrev->gcNext = o->gcNext;
  o->gcNext->gcPrev = o->gcPrev;
}

void append(GcLink* o, GcLink& head) {
  o->gcPrev = head.gcPrev;
  o->gcNext = &head;
  head.gcPrev->gcNext = o;
  head.gcPrev = o;
}

void initHead(GcLink& head) {
  head.gcPrev = head.gcNext = &head;
}

// Appends `from`'s objects to `to` (gen merges them for a collection).
void splice(GcLink& from, GcLink& to) {
  if (from.gcNext == &from) return;
  from.gcNext->gcPrev = to.gcPrev;
  to.gcPrev->gcNext = from.gcNext;
  from.gcPrev->gcNext = &to;
  to.gcPrev = from.gcPrev;
  initHead(from);
}

// A container's state during a collection, valid while its gcEpoch is the collection's.
enum GcState : uint32_t {
  kCounted = 0,    // gcRefs initialized and being reduced by the subtraction pass
  kTentative = 1,  // on the unreachable list, for now
  kScanned = 2,    // found reachable and scanned: it has left the collected set
};

// gcGen of the old containers an incremental collection marked; as a Pass's gen: the exact
// collection of its candidates (Note [Incremental old generation]).
constexpr uint32_t kIncGen = 3;

}  // namespace

// What the passes share: the collection's epoch and oldest generation, the list being
// scanned, and whether the container being scanned references a container that needs tracking.
struct GcHeap::Pass {
  uint32_t epoch;
  uint32_t gen;
  GcLink* young;
  bool holdsTracked = false;
};
using Pass = GcHeap::Pass;

namespace {

// The collected set is the tracked containers of generations <= gen (marked old ones count as
// old), minus those already scanned reachable (Note [Fused passes]); for the exact collection
// of an incremental one's candidates, the marked containers not found reachable.
GcObject* collected(Object* child, const Pass& p) {
  if (!isGcType(child->type)) return nullptr;
  auto* g = static_cast<GcObject*>(child);
  if (!g->gcTracked) return nullptr;
  if (p.gen == kIncGen) return g->gcGen == kIncGen && g->gcState != kScanned ? g : nullptr;
  const uint32_t gen = g->gcGen == kIncGen ? GcHeap::kGenerations - 1 : g->gcGen;
  if (gen > p.gen) return nullptr;
  if (g->gcEpoch == p.epoch && g->gcState == kScanned) return nullptr;
  return g;
}

// Step 1, on first touch: gcRefs = refs.
void count(GcObject* g, const Pass& p) {
  if (g->gcEpoch == p.epoch) return;
  g->gcEpoch = p.epoch;
  g->gcRefs = g->refs;
  g->gcState = kCounted;
}

void subtractRef(Object* child, void* ctx) {
  const Pass& p = *static_cast<const Pass*>(ctx);
  if (GcObject* g = collected(child, p)) {
    count(g, p);
    TESSEL_ASSERT(g->gcRefs > 0, "gc: a traverse() reported a reference that is not counted");
    --g->gcRefs;
  }
}

// Whether a reference keeps its holder worth tracking: any container but an untracked tuple
// (immutable, and holding nothing tracked, so it can never be part of a cycle).
bool needsTracking(Object* child) {
  if (!isGcType(child->type)) return false;
  auto* g = static_cast<GcObject*>(child);
  return child->type != Type::Tuple || g->gcTracked;
}

// A reachable container references `child`: it is reachable too (step 3).
void markReachable(Object* child, void* ctx) {
  Pass& p = *static_cast<Pass*>(ctx);
  if (!p.holdsTracked && needsTracking(child)) p.holdsTracked = true;
  GcObject* g = collected(child, p);
  if (!g) return;
  if (g->gcRefs == 0 && g->gcState == kTentative) {
    // Moved to the unreachable list earlier: back to the end of the list being scanned,
    // where the scan reaches it and visits its references in turn.
    g->gcState = kCounted;
    unlink(g);
    append(g, *p.young);
    g->gcRefs = 1;
  } else if (g->gcRefs == 0) {
    g->gcRefs = 1;  // not scanned yet: found reachable when the scan gets there
  }
}

// The incremental phases' visits: the set is the marked old containers. Counts may be
// off by what the program did between steps, so they only pick candidates.
GcObject* marked(Object* child) {
  if (!isGcType(child->type)) return nullptr;
  auto* g = static_cast<GcObject*>(child);
  return g->gcTracked && g->gcGen == kIncGen ? g : nullptr;
}

void subtractMarked(Object* child, void*) {
  if (GcObject* g = marked(child); g && g->gcRefs > 0) --g->gcRefs;
}

void markReachableMarked(Object* child, void* ctx) {
  GcObject* g = marked(child);
  if (!g || g->gcState == kScanned) return;
  if (g->gcState == kTentative) {
    g->gcState = kCounted;
    unlink(g);
    append(g, *static_cast<GcLink*>(ctx));
    g->gcRefs = 1;
  } else if (g->gcRefs == 0) {
    g->gcRefs = 1;
  }
}

// A pause: wall time, and this thread's CPU time (what the pause costs on a machine where
// other processes take the CPU from it midway, as on a shared build machine).
struct PauseClock {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = cpuMs();
  static double cpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
  }
  double wallMs() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall)
        .count();
  }
  double cpuSinceMs() const { return cpuMs() - cpu; }
};

}  // namespace

GcHeap* currentGcHeap() {
  return tCurrentHeap;
}

GcHeap* setCurrentGcHeap(GcHeap* heap) {
  GcHeap* old = tCurrentHeap;
  tCurrentHeap = heap;
  return old;
}

GcObject::GcObject(Type t) : Object(t) {
  if (GcHeap* heap = tCurrentHeap) heap->track(this);
}

GcObject::~GcObject() {
  if (!gcTracked) return;
  unlink(this);
  if (GcHeap* heap = tCurrentHeap) heap->untracked(this);
}

GcHeap::GcHeap() {
  for (GcLink& g : gens_) initHead(g);
  for (GcLink* g : {&inc_, &incDone_, &incMaybe_}) initHead(*g);
}

GcHeap::~GcHeap() {
  abortIncremental();
  for (GcLink& head : gens_) {
    for (GcLink* l = head.gcNext; l != &head;) {
      GcLink* next = l->gcNext;
      asGc(l)->gcTracked = false;
      l->gcPrev = l->gcNext = nullptr;
      l = next;
    }
    initHead(head);
  }
}

int64_t GcHeap::tracked(int gen) const {
  int64_t n = 0;
  std::vector<const GcLink*> lists{&gens_[gen]};
  if (gen == kGenerations - 1) lists.insert(lists.end(), {&inc_, &incDone_, &incMaybe_});
  for (const GcLink* head : lists)
    for (const GcLink* l = head->gcNext; l != head; l = l->gcNext) ++n;
  return n;
}

void GcHeap::collectDue() {
  if (!due() || collecting_) return;
  if (phase_ != Phase::Idle) {  // a young (or middle) collection and the next step
    collect(counts_[1] > thresholds[1] ? 1 : 0);
    incrementalStep();
    return;
  }
  for (int gen = kGenerations - 1; gen > 0; --gen) {
    if (counts_[gen] <= thresholds[gen]) continue;
    if (gen == kGenerations - 1 && longLivedPending_ < longLivedTotal_ / 4) continue;
    if (gen == kGenerations - 1 && increment > 0) {
      collect(gen - 1);
      beginIncremental();
      incrementalStep();
      return;
    }
    collect(gen);
    return;
  }
  collect(0);
}

bool GcHeap::safeNow() const {
  return !collecting_ && !traceContext().hooks && !traceContext().regions &&
         traceContext().epoch == 0;
}

int64_t GcHeap::collect(int gen) {
  if (!safeNow()) return 0;
  collecting_ = true;
  PauseClock clock;
  if (gen == kGenerations - 1) abortIncremental();  // a full collection takes all of it
  int64_t freed = collectGenerations(gen);
  collecting_ = false;
  ++stats_.collections[gen];
  recordPause("collection", gen, freed, clock.wallMs(), clock.cpuSinceMs());
  return freed;
}

void GcHeap::recordPause(const char* what, int gen, int64_t freed, double ms, double cpuMs) {
  stats_.freed += freed;
  stats_.totalMs += ms;
  stats_.lastPauseMs = ms;
  stats_.maxPauseMs = std::max(stats_.maxPauseMs, ms);
  stats_.maxPauseCpuMs = std::max(stats_.maxPauseCpuMs, cpuMs);
  if (perfLog) {
    char line[160];
    std::snprintf(line, sizeof line, "%s of generation %d: %lld freed, %.3f ms (%.3f ms CPU)",
                  what, gen, static_cast<long long>(freed), ms, cpuMs);
    perfLog(line);
  }
}

uint32_t GcHeap::nextEpoch() {
  constexpr uint32_t kEpochs = 1u << 26;
  epoch_ = (epoch_ + 1) % kEpochs;
  if (epoch_ == 0) {  // wrapped: no object may keep an epoch a later collection will reuse
    for (GcLink& head : gens_)
      for (GcLink* l = head.gcNext; l != &head; l = l->gcNext) asGc(l)->gcEpoch = 0;
    epoch_ = 1;
  }
  return epoch_;
}

int64_t GcHeap::collectGenerations(int gen) {
  for (int g = 0; g < gen; ++g) splice(gens_[g], gens_[gen]);
  GcLink& young = gens_[gen];
  Pass pass{nextEpoch(), static_cast<uint32_t>(gen), &young};
  // Survivors join the next generation.
  const int to = gen + 1 < kGenerations ? gen + 1 : gen;
  int64_t survivors = 0;
  int64_t freed = trialDeletion(young, pass, static_cast<uint32_t>(to), survivors);
  if (to != gen) splice(young, gens_[to]);
  for (int g = 0; g <= gen; ++g) counts_[g] = 0;
  young_ = 0;
  if (gen + 1 < kGenerations) ++counts_[gen + 1];
  if (gen == kGenerations - 2) longLivedPending_ += survivors;
  if (gen == kGenerations - 1) {
    longLivedPending_ = 0;
    longLivedTotal_ = survivors;
  }
  return freed;
}

int64_t GcHeap::trialDeletion(GcLink& set, Pass& pass, uint32_t to, int64_t& survivors) {
  // 1 and 2 in one pass: gcRefs = refs (on first touch, as a container or as a referent),
  // minus the references from inside the collected set.
  // A container too large for a young collection's pause goes to the old generation at once
  // (Note [Large containers]).
  const bool large = pass.gen < kGenerations - 1 && increment > 0;
  for (GcLink* l = set.gcNext; l != &set;) {
    __builtin_prefetch(l->gcNext->gcNext);
    GcObject* o = asGc(l);
    l = l->gcNext;
    if (large && o->gcSlots() >= static_cast<size_t>(increment)) [[unlikely]] {
      unlink(o);
      append(o, gens_[kGenerations - 1]);
      o->gcGen = kGenerations - 1;
      continue;
    }
    count(o, pass);
    o->traverse(subtractRef, &pass);
  }
  // 3. What is referenced from outside, and what that reaches, stays in `set`. A container
  // found reachable leaves the collected set as it is scanned (markReachable ignores it from
  // then on, which is right: it is known reachable). A tuple that references nothing tracked
  // is untracked (CPython's rule): it cannot be in a cycle.
  GcLink unreachable;
  initHead(unreachable);
  for (GcLink* l = set.gcNext; l != &set;) {
    __builtin_prefetch(l->gcNext->gcNext);
    GcObject* o = asGc(l);
    GcLink* next = l->gcNext;
    if (o->gcRefs > 0) {
      pass.holdsTracked = false;
      o->traverse(markReachable, &pass);
      next = l->gcNext;  // markReachable may have appended objects after the last one
      o->gcState = kScanned;
      if (o->type == Type::Tuple && !pass.holdsTracked) {
        unlink(o);
        o->gcTracked = false;
        ++stats_.untracked;
      } else {
        o->gcGen = to;
        ++survivors;
      }
    } else {
      unlink(o);
      append(o, unreachable);
      o->gcState = kTentative;
    }
    l = next;
  }
  // 4. Garbage: hold each, clear them all (no count reaches zero while held), let go. They go
  // to the old list first, so a container clearRefs() could not empty (a bug) stays tracked.
  std::vector<GcObject*> garbage;
  for (GcLink* l = unreachable.gcNext; l != &unreachable; l = l->gcNext) {
    GcObject* o = asGc(l);
    ++o->refs;
    o->gcState = kCounted;
    o->gcGen = kGenerations - 1;
    garbage.push_back(o);
  }
  splice(unreachable, gens_[kGenerations - 1]);
  for (GcObject* o : garbage) o->clearRefs();
  int64_t freed = 0;
  for (GcObject* o : garbage) {
    if (o->refs == 1) ++freed;
    if (--o->refs == 0) destroyObject(o);
  }
  return freed;
}

// ---- The incremental collection of the old generation ---------------------------------------

void GcHeap::beginIncremental() {
  splice(gens_[kGenerations - 1], inc_);
  phase_ = Phase::Mark;
  incSurvivors_ = 0;
  counts_[kGenerations - 1] = 0;
  longLivedPending_ = 0;
}

void GcHeap::incrementalStep() {
  if (phase_ == Phase::Idle || !safeNow()) return;
  collecting_ = true;
  PauseClock clock;
  // The budget counts containers marked, and references visited (a container counts one).
  const int64_t budget = std::max<int64_t>(increment, 1);
  int64_t n = 0, freed = 0;
  const char* what = "";
  auto done = [&] { return inc_.gcNext == &inc_; };
  switch (phase_) {
    case Phase::Mark:  // S: the old containers now; gcRefs = refs
      what = "incremental mark";
      for (; n < budget && !done(); ++n) {
        GcObject* o = asGc(inc_.gcNext);
        o->gcGen = kIncGen;
        o->gcRefs = o->refs;
        o->gcState = kCounted;
        unlink(o);
        append(o, incDone_);
      }
      if (done()) {
        splice(incDone_, inc_);
        phase_ = Phase::Subtract;
      }
      break;
    case Phase::Subtract:  // minus the references from inside S
      what = "incremental subtraction";
      while (n < budget && !done()) {
        GcObject* o = asGc(inc_.gcNext);
        if (!visitHead(o, subtractMarked, nullptr, budget, n)) break;
        unlink(o);
        append(o, incDone_);
      }
      if (done()) {
        splice(incDone_, inc_);
        phase_ = Phase::Propagate;
        incPartial_ = nullptr;
      }
      break;
    case Phase::Propagate:  // reachable from outside S, or tentatively not
      what = "incremental scan";
      while (n < budget && !done()) {
        GcObject* o = asGc(inc_.gcNext);
        if (o->gcRefs > 0) {
          if (!visitHead(o, markReachableMarked, &inc_, budget, n)) break;
          unlink(o);
          o->gcState = kScanned;
          append(o, incDone_);
          ++incSurvivors_;
        } else {
          unlink(o);
          o->gcState = kTentative;
          append(o, incMaybe_);
          ++n;
        }
      }
      if (done()) {
        what = "incremental collection";
        freed = finishIncremental();
      }
      break;
    case Phase::Idle:
      break;
  }
  collecting_ = false;
  recordPause(what, kGenerations - 1, freed, clock.wallMs(), clock.cpuSinceMs());
}

bool GcHeap::visitHead(GcObject* o, GcVisit visit, void* ctx, int64_t budget, int64_t& work) {
  const size_t slots = o->gcSlots();
  ++work;
  if (slots == 0) {
    o->traverse(visit, ctx);
    return true;
  }
  // A list of a million items is one container but a million references: it is visited over
  // several steps, resuming where the last one stopped (if the program shrank or freed it in
  // between, the counts are off, which only changes the candidates: the last step is exact).
  if (o != incPartial_) {
    incPartial_ = o;
    incOffset_ = 0;
  }
  const size_t to = std::min(slots, incOffset_ + static_cast<size_t>(std::max<int64_t>(budget - work, 1)));
  o->traverseSlots(visit, ctx, incOffset_, to);
  work += static_cast<int64_t>(to - incOffset_);
  incOffset_ = to;
  if (to < slots) return false;
  incPartial_ = nullptr;
  return true;
}

int64_t GcHeap::finishIncremental() {
  // The candidates are exactly collected now, in one step: whatever the program did between
  // the steps, a candidate referenced from outside them is kept.
  Pass pass{nextEpoch(), kIncGen, &incMaybe_};
  int64_t survivors = 0;
  int64_t freed = trialDeletion(incMaybe_, pass, kIncGen, survivors);
  splice(incMaybe_, gens_[kGenerations - 1]);
  splice(incDone_, gens_[kGenerations - 1]);
  phase_ = Phase::Idle;
  longLivedTotal_ = incSurvivors_ + survivors;
  ++stats_.collections[kGenerations - 1];
  ++stats_.incremental;
  return freed;
}

void GcHeap::abortIncremental() {
  for (GcLink* l : {&inc_, &incDone_, &incMaybe_}) splice(*l, gens_[kGenerations - 1]);
  phase_ = Phase::Idle;
  incPartial_ = nullptr;
}

}  // namespace tessel::interp
