// gc() and stats()["gc"] (language.md, "Memory"; Note [Cycle collection] in
// interp/values/gc.cpp).
#include "interp/natives/gc_natives.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include "interp/eval/session.h"
#include "interp/natives/builtins.h"
#include "interp/values/native_args.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

// gc(generation = 2): collects now, that generation and the younger ones; returns the number
// of containers freed (Python's gc.collect()). Inside a trace it collects nothing (Note [When]).
Value builtinGc(Interpreter& interp, CallArgs& a) {
  ArgBinder b("gc", a, {"generation"}, 0);
  int64_t gen = b.intOr(0, GcHeap::kGenerations - 1);
  if (gen < 0 || gen >= GcHeap::kGenerations)
    throwUserError(ErrorKind::ValueError,
                   "gc(): generation must be 0, 1 or 2, got " + std::to_string(gen));
  return Value::integer(interp.gcHeap().collect(static_cast<int>(gen)));
}

}  // namespace

void registerGcBuiltins(ModuleObj& prelude) {
  defineNative(prelude, "gc", builtinGc);
}

Value gcStatsDict(const GcHeap& heap) {
  const GcStats& s = heap.stats();
  Ref<DictObj> d = make<DictObj>();
  int64_t total = 0;
  std::vector<Value> byGen, tracked;
  for (int g = 0; g < GcHeap::kGenerations; ++g) {
    total += s.collections[g];
    byGen.push_back(Value::integer(s.collections[g]));
    tracked.push_back(Value::integer(heap.tracked(g)));
  }
  d->set("collections", Value::integer(total));
  d->set("collections_by_generation", makeList(std::move(byGen)));
  d->set("freed", Value::integer(s.freed));
  d->set("untracked", Value::integer(s.untracked));
  d->set("time_ms", Value::real(s.totalMs));
  d->set("max_pause_ms", Value::real(s.maxPauseMs));
  d->set("max_pause_cpu_ms", Value::real(s.maxPauseCpuMs));
  d->set("incremental", Value::integer(s.incremental));
  d->set("tracked", makeList(std::move(tracked)));
  d->set("enabled", Value::boolean(heap.enabled));
  return d.value();
}

Value memoryStatsDict() {
  Ref<DictObj> d = make<DictObj>();
  // statm's second field: resident pages now (Linux); getrusage: the peak, in KiB.
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  d->set("rss_bytes", Value::integer(int64_t(resident) * sysconf(_SC_PAGESIZE)));
  d->set("peak_rss_bytes", Value::integer(int64_t(u.ru_maxrss) * 1024));
  return d.value();
}

}  // namespace tessel::interp
