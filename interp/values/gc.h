// The cycle collector: containers that can hold references (GcObject) and the per-interpreter
// heap that finds and frees the reference cycles among them (Note [Cycle collection] in gc.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "interp/values/value.h"

namespace tessel::interp {

/// A node of a generation's circular list (the list heads are bare links).
struct GcLink {
  GcLink* gcPrev = nullptr;
  GcLink* gcNext = nullptr;
};

/// Called with each object a container references (GcObject::traverse).
using GcVisit = void (*)(Object* child, void* ctx);

/// Base of every heap value that can hold references to other values: lists, tuples, dicts,
/// cells, functions, bound methods and built-ins, modules, compiled functions. It is tracked by
/// the heap current on its thread when it is made (none: never collected, always safe).
class GcObject : public Object, public GcLink {
 public:
  explicit GcObject(Type t);
  ~GcObject() override;

  /// Calls `visit` once for every reference this object holds and counts in the referent's
  /// `refs` (each Value or Ref member). Reporting a reference the object does not own would
  /// let the collector free a live object, so report exactly those, or fewer (a leak).
  virtual void traverse(GcVisit visit, void* ctx) = 0;
  /// Drops every reference traverse() reports (the collector breaking a cycle). The object is
  /// unreachable then: nothing will read it again but its destructor.
  virtual void clearRefs() = 0;
  /// For steps of bounded work (Note [Incremental old generation]): how many references
  /// traverseSlots() can visit in parts, or 0 for an object visited whole by traverse().
  virtual size_t gcSlots() const { return 0; }
  /// Visits the references in slots [from, min(to, gcSlots())).
  virtual void traverseSlots(GcVisit, void*, size_t /*from*/, size_t /*to*/) {}

  uint32_t gcRefs = 0;  // during a collection: refs not accounted for by the collected set
  // The collection that last set gcRefs and gcState (Note [Fused passes] in gc.cpp): a field
  // older than the current collection is stale, so no pass has to reset them.
  uint32_t gcEpoch : 26 = 0;
  uint32_t gcGen : 2 = 0;  // the generation whose list holds it; 3: old, and marked by an
                           // incremental collection (Note [Incremental old generation])
  uint32_t gcState : 2 = 0;  // during a collection: GcState
  uint32_t gcTracked : 1 = 0;  // 0: made with no current heap, untracked, or its heap is gone
};

/// Whether values of type `t` are GcObjects.
inline bool isGcType(Type t) {
  switch (t) {
    case Type::List:
    case Type::Tuple:
    case Type::Dict:
    case Type::Function:
    case Type::Builtin:
    case Type::Module:
    case Type::Cell:
    case Type::Compiled:
    case Type::Native:
      return true;
    default:
      return false;
  }
}

/// Helpers for traverse(): report a Value's or a Ref's object when there is one.
inline void gcVisit(const Value& v, GcVisit visit, void* ctx) {
  if (v.isHeap()) visit(v.asObject(), ctx);
}
template <class T>
void gcVisit(const Ref<T>& r, GcVisit visit, void* ctx) {
  if (r) visit(r.get(), ctx);
}

struct GcStats {
  int64_t collections[3] = {0, 0, 0};  // by the oldest generation collected
  int64_t freed = 0;                   // containers found unreachable and freed
  int64_t untracked = 0;               // tuples untracked: they hold nothing tracked
  int64_t incremental = 0;             // old-generation collections done in steps
  double totalMs = 0;
  double maxPauseMs = 0;
  double maxPauseCpuMs = 0;  // the longest pause in this thread's CPU time
  double lastPauseMs = 0;
};

/// The tracked containers of one interpreter in three generations (young, middle, old).
class GcHeap {
 public:
  static constexpr int kGenerations = 3;
  GcHeap();
  /// Untracks whatever is still alive (values an embedder keeps past the interpreter).
  ~GcHeap();
  GcHeap(const GcHeap&) = delete;
  GcHeap& operator=(const GcHeap&) = delete;

  /// Collects generation `gen` and every younger one now; returns the containers freed.
  int64_t collect(int gen = kGenerations - 1);
  /// Collects what the allocation counts call for (CPython's rule: a generation is collected
  /// when its count passes its threshold; the oldest only once the objects that would move
  /// into it are a quarter of it). Called by the engine at a safe point (Note [When]).
  void collectDue();
  /// Whether the young generation passed its threshold and a collection is due.
  bool due() const { return enabled && young_ > thresholds[0]; }

  /// config.gc and config.gc_threshold0..2 (the young generation's allocations; collections of
  /// the younger generation between collections of the next).
  bool enabled = true;
  int64_t thresholds[kGenerations] = {2000, 10, 10};
  /// config.gc_increment: the old containers one step of an incremental collection of the
  /// old generation handles (Note [Incremental old generation]); 0 collects it all at once.
  int64_t increment = 20000;
  /// Whether an incremental collection of the old generation is under way (tests).
  bool incremental() const { return phase_ != Phase::Idle; }

  /// Asked (with `pollCtx`) when a collection becomes due: the engine arranges to call
  /// collectDue() at its next statement, loop iteration or call.
  void (*poll)(void* ctx) = nullptr;
  void* pollCtx = nullptr;
  /// Where pauses are reported (TESSEL_LOGS=perf); may be empty.
  std::function<void(const std::string&)> perfLog;

  const GcStats& stats() const { return stats_; }
  /// What one collection's passes share (gc.cpp).
  struct Pass;
  /// Tracked containers now, by generation (tests, benchmarks).
  int64_t tracked(int gen) const;

  // For GcObject's constructor and destructor.
  void track(GcObject* o) {
    link(o, gens_[0]);
    o->gcTracked = true;
    if (++young_ > thresholds[0] && poll && enabled) [[unlikely]]
      poll(pollCtx);
  }
  void untracked(GcObject* o) {
    if (o->gcGen == 0 && young_ > 0) --young_;
  }

 private:
  static void link(GcLink* o, GcLink& head) {
    o->gcPrev = head.gcPrev;
    o->gcNext = &head;
    head.gcPrev->gcNext = o;
    head.gcPrev = o;
  }
  enum class Phase : uint8_t { Idle, Mark, Subtract, Propagate };
  int64_t collectGenerations(int gen);
  /// Steps 1-4 of Note [Cycle collection] over `set`: survivors stay in it with gcGen `to`,
  /// garbage is freed. Returns the containers freed; adds the survivors to `survivors`.
  int64_t trialDeletion(GcLink& set, Pass& pass, uint32_t to, int64_t& survivors);
  /// Whether a collection may run now (not inside a trace or another collection).
  bool safeNow() const;
  void beginIncremental();
  /// One step of the incremental collection's current phase.
  void incrementalStep();
  /// Visits the references of the container at inc_'s head, in part when it is large;
  /// returns whether it was visited to its end. Adds the references visited to `work`.
  bool visitHead(GcObject* o, GcVisit visit, void* ctx, int64_t budget, int64_t& work);
  /// The exact collection of the candidates the phases found; returns the containers freed.
  int64_t finishIncremental();
  /// Puts the old generation back whole (before a full collection).
  void abortIncremental();
  void recordPause(const char* what, int gen, int64_t freed, double ms, double cpuMs);
  /// The next collection's epoch; at the field's wrap, every object's epoch is reset first.
  uint32_t nextEpoch();

  GcLink gens_[kGenerations];
  int64_t young_ = 0;  // tracked minus freed young objects since its last collection
  int64_t counts_[kGenerations] = {};  // collections of the next younger generation since its own
  int64_t longLivedTotal_ = 0;         // objects that survived a full collection
  int64_t longLivedPending_ = 0;       // objects moved into the old generation since
  bool collecting_ = false;
  uint32_t epoch_ = 0;  // the current collection's number, modulo 2^26 (GcObject::gcEpoch)
  // The incremental collection of the old generation (Note [Incremental old generation]): its
  // containers not yet handled by the current phase, those handled (or found reachable), and
  // those tentatively unreachable.
  Phase phase_ = Phase::Idle;
  GcLink inc_, incDone_, incMaybe_;
  int64_t incSurvivors_ = 0;
  const GcObject* incPartial_ = nullptr;  // a large container at inc_'s head visited in part,
  size_t incOffset_ = 0;                  // up to this slot
  GcStats stats_;
};

/// The heap of the interpreter running on this thread (Interpreter::Entry installs it).
GcHeap* currentGcHeap();
/// Installs `heap` on this thread; returns the one it replaces.
GcHeap* setCurrentGcHeap(GcHeap* heap);

}  // namespace tessel::interp
