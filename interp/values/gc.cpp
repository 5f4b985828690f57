// The cycle collector (Note [Cycle collection]): generations of tracked containers, trial
// deletion, and breaking the cycles it finds.
#include "interp/values/gc.h"

#include <chrono>
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

// What the passes share: the collection's epoch and oldest generation, the list being
// scanned, and whether the container being scanned references a container that needs tracking.
struct Pass {
  uint32_t epoch;
  uint32_t gen;
  GcLink* young;
  bool holdsTracked = false;
};

// The collected set is the tracked containers of generations <= gen, minus those already
// scanned reachable (Note [Fused passes]).
GcObject* collected(Object* child, const Pass& p) {
  if (!isGcType(child->type)) return nullptr;
  auto* g = static_cast<GcObject*>(child);
  if (!g->gcTracked || g->gcGen > p.gen) return nullptr;
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

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

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
}

GcHeap::~GcHeap() {
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
  for (const GcLink* l = gens_[gen].gcNext; l != &gens_[gen]; l = l->gcNext) ++n;
  return n;
}

void GcHeap::collectDue() {
  if (!due() || collecting_) return;
  for (int gen = kGenerations - 1; gen > 0; --gen) {
    if (counts_[gen] <= thresholds[gen]) continue;
    if (gen == kGenerations - 1 && longLivedPending_ < longLivedTotal_ / 4) continue;
    collect(gen);
    return;
  }
  collect(0);
}

int64_t GcHeap::collect(int gen) {
  if (collecting_ || traceContext().hooks || traceContext().regions || traceContext().epoch != 0)
    return 0;
  collecting_ = true;
  auto start = std::chrono::steady_clock::now();
  int64_t freed = collectGenerations(gen);
  double ms = msSince(start);
  collecting_ = false;
  ++stats_.collections[gen];
  stats_.freed += freed;
  stats_.totalMs += ms;
  stats_.lastPauseMs = ms;
  if (ms > stats_.maxPauseMs) stats_.maxPauseMs = ms;
  if (perfLog) {
    char line[160];
    std::snprintf(line, sizeof line, "collection of generation %d: %lld freed, %.3f ms", gen,
                  static_cast<long long>(freed), ms);
    perfLog(line);
  }
  return freed;
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
  // 1 and 2 in one pass: gcRefs = refs (on first touch, as a container or as a referent),
  // minus the references from inside the collected set.
  for (GcLink* l = young.gcNext; l != &young; l = l->gcNext) {
    __builtin_prefetch(l->gcNext->gcNext);
    GcObject* o = asGc(l);
    count(o, pass);
    o->traverse(subtractRef, &pass);
  }
  // 3. What is referenced from outside, and what that reaches, stays in `young`. A container
  // found reachable leaves the collected set as it is scanned (markReachable ignores it from
  // then on, which is right: it is known reachable) and joins the next generation. A tuple
  // that references nothing tracked is untracked (CPython's rule): it cannot be in a cycle.
  int to = gen + 1 < kGenerations ? gen + 1 : gen;
  int64_t survivors = 0;
  GcLink unreachable;
  initHead(unreachable);
  for (GcLink* l = young.gcNext; l != &young;) {
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
        o->gcGen = static_cast<uint32_t>(to);
        ++survivors;
      }
    } else {
      unlink(o);
      append(o, unreachable);
      o->gcState = kTentative;
    }
    l = next;
  }
  if (to != gen) splice(young, gens_[to]);
  for (int g = 0; g <= gen; ++g) counts_[g] = 0;
  young_ = 0;
  if (gen + 1 < kGenerations) ++counts_[gen + 1];
  if (gen == kGenerations - 2) longLivedPending_ += survivors;
  if (gen == kGenerations - 1) {
    longLivedPending_ = 0;
    longLivedTotal_ = survivors;
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

}  // namespace tessel::interp
