// The cycle collector (Note [Cycle collection] in interp/values/gc.cpp): cycles are freed with
// their tensors, live values never are, two cycle-making loops stay within a memory bound, and
// collections run at the engine's safe points and not inside traces.
#include "interp/values/gc.h"

#include <gtest/gtest.h>

#include <sstream>

#include "interp/interpreter.h"
#include "interp/syntax/diagnostics.h"

using namespace tessel;
using interp::Interpreter;
using interp::ScriptError;
using interp::Value;

namespace {

std::string run(Interpreter& interp, const std::string& text) {
  std::ostringstream out;
  interp.setOutput(&out);
  try {
    interp.runSource("<test>", text);
  } catch (const ScriptError& e) {
    return "error: " + interp::formatDiagnostic(e, interp.sources());
  }
  return out.str();
}

int64_t tracked(Interpreter& interp) {
  int64_t n = 0;
  for (int g = 0; g < interp::GcHeap::kGenerations; ++g) n += interp.gcHeap().tracked(g);
  return n;
}

// The first cycle-making loop: a local recursive function captures a tensor, so each call
// leaves a cycle (walk -> its cell -> walk) holding 256 bytes of tensor. Under a 4 MiB tensor
// budget the 300,000 iterations (73 MiB of tensors if none were freed) fail with a LimitError
// unless the cycles are collected as the loop runs.
TEST(Gc, ARecursiveLocalFunctionLoopStaysUnderAMemoryBound) {
  interp::InterpreterOptions o;
  o.maxMemoryBytes = 4 << 20;
  Interpreter interp(o);
  std::string out = run(interp, R"(
fn outer(x) {
  fn walk(n) { if n == 0 { return x } return walk(n - 1) }
  return walk(3)
}
for i in range(300000) { outer(ones([64])) }
print(stats()["gc"]["collections"] > 0, stats()["gc"]["freed"] >= 290000)
)");
  EXPECT_EQ(out, "true true\n");
  // What is left after the loop is the program's own: the cycles are gone.
  EXPECT_LT(tracked(interp), 3000);
}

// The second loop: a dict that holds itself (and a tensor).
TEST(Gc, ASelfReferentialDictLoopStaysUnderAMemoryBound) {
  interp::InterpreterOptions o;
  o.maxMemoryBytes = 4 << 20;
  Interpreter interp(o);
  std::string out = run(interp, R"(
for i in range(200000) {
  let d = {"t": ones([64])}
  d["self"] = d
}
print("done")
)");
  EXPECT_EQ(out, "done\n");
  EXPECT_LT(tracked(interp), 3000);
}

// Without the collector (config.gc = false) the same loop runs out of its budget: the bound
// above is one the leak does break.
TEST(Gc, WithoutTheCollectorTheLoopRunsOutOfMemory) {
  interp::InterpreterOptions o;
  o.maxMemoryBytes = 4 << 20;
  Interpreter interp(o);
  std::string out = run(interp, R"(
config.gc = false
for i in range(300000) {
  let d = {"t": ones([64])}
  d["self"] = d
}
)");
  EXPECT_NE(out.find("LimitError: memory limit exceeded"), std::string::npos) << out;
  // gc() still collects when automatic collections are off (Python's gc.disable()).
  EXPECT_EQ(run(interp, "print(gc() > 1000)\n"), "true\n");
}

// The storage of a tensor held only by a cycle goes back when gc() frees the cycle: a second
// 3 MiB tensor fits a 4 MiB budget after gc(), and not before.
TEST(Gc, ATensorInACycleGivesItsStorageBack) {
  interp::InterpreterOptions o;
  o.maxMemoryBytes = 4 << 20;
  Interpreter interp(o);
  const char* makeCycle = R"(
config.gc = false
fn leak() {
  let d = {"t": zeros([768, 1024])}
  d["self"] = d
}
leak()
)";
  EXPECT_EQ(run(interp, makeCycle), "");
  EXPECT_NE(run(interp, "let t = zeros([768, 1024])\n").find("LimitError"), std::string::npos);
  EXPECT_EQ(run(interp, "print(gc())\nlet u = zeros([768, 1024])\nprint(u.shape)\n"),
            "1\nshape([768, 1024])\n");
}

TEST(Gc, CollectFreesCyclesAndReturnsTheirCount) {
  Interpreter interp;
  EXPECT_EQ(run(interp, R"(
gc()
fn make() {
  let a = []
  let b = [a]
  a.append(b)
}
make()
print(gc())
)"),
            "2\n");
}

// Everything reachable from a live value survives, however it is referenced: a global, a
// local of a running function, a closure's cell, a value only C++ holds.
TEST(Gc, LiveValuesSurvive) {
  Interpreter interp;
  EXPECT_EQ(run(interp, R"(
let keep = {"name": "root"}
keep["self"] = keep
keep["list"] = [keep, [1, 2]]
fn counter() {
  let n = 0
  fn inc() { n += 1; return n }
  return inc
}
let c = counter()
c()
fn inside() {
  let local = [1]
  local.append(local)
  gc()
  return len(local)
}
print(inside(), gc(), c(), keep["self"]["list"][1][1], keep["name"])
)"),
            "2 1 2 2 root\n");
  // A value held only by C++ (an embedder's, or a native's local) is external: kept.
  Value held;
  {
    Interpreter::Entry entry(interp);
    held = interp.mainModule().lookup("keep") ? *interp.mainModule().lookup("keep") : Value();
  }
  run(interp, "keep = none\n");
  EXPECT_EQ(run(interp, "print(gc())\n"), "0\n");
  ASSERT_TRUE(held.is(interp::Type::Dict));
  held = Value();  // now only the dict's own cycles hold it, its two lists and itself
  EXPECT_EQ(run(interp, "print(gc())\n"), "3\n");
}

// A compiled function referenced from its own module's global is a cycle through a compiled
// frame; when the global is rebound the frame and its entries are collected.
TEST(Gc, CompiledFramesInCyclesAreCollected) {
  Interpreter interp;
  EXPECT_EQ(run(interp, R"(
fn f(x) { return x * 2 }
let box = {"f": compile(f)}
box["self"] = box
print(box["f"](ones([3]))[0].item())
box = none
print(gc() >= 3)
)"),
            "2.0\ntrue\n");
}

// Generations: survivors move up, so young collections do not scan them again.
TEST(Gc, SurvivorsMoveToOlderGenerations) {
  Interpreter interp;
  run(interp, "let keep = [[i] for i in range(100)]\ngc(0)\n");
  EXPECT_GE(interp.gcHeap().tracked(1), 100);
  EXPECT_LT(interp.gcHeap().tracked(0), 50);
  run(interp, "gc(1)\n");
  EXPECT_GE(interp.gcHeap().tracked(2), 100);
  EXPECT_EQ(run(interp, "print(len(keep), keep[99][0])\n"), "100 99\n");
  EXPECT_NE(run(interp, "gc(3)\n").find("ValueError: gc(): generation must be 0, 1 or 2"),
            std::string::npos);
}

TEST(Gc, ConfigAndStats) {
  Interpreter interp;
  EXPECT_EQ(run(interp, R"(
print(config.gc, config.gc_threshold0, config.gc_threshold1, config.gc_threshold2)
config.gc_threshold0 = 100
let s = stats()["gc"]
print(s["enabled"], len(s["collections_by_generation"]), s["time_ms"] >= 0.0)
for i in range(1000) { let d = {}; d["d"] = d }
print(stats()["gc"]["collections"] >= 9, stats()["gc"]["freed"] >= 900)
)"),
            "true 2000 10 10\ntrue 3 true\ntrue true\n");
  EXPECT_NE(run(interp, "config.gc_threshold0 = 0\n").find("must be at least 1"),
            std::string::npos);
  EXPECT_EQ(interp.gcHeap().thresholds[0], 100);
}

// Collections never run inside a trace: a compiled function that makes 50 cycles past the
// threshold while it is traced collects nothing, and gc() there returns 0 (eagerly it would
// free the 50 dicts).
TEST(Gc, NoCollectionInsideATrace) {
  Interpreter interp;
  EXPECT_EQ(run(interp, R"(
config.gc_threshold0 = 10
@compile
fn f(x) {
  for i in range(50) { let d = {}; d["d"] = d }
  return x + gc()
}
print(f(ones([2]))[0].item())
)"),
            "1.0\n");
}

// Random graphs of lists and dicts: containers made, linked to each other, cut, dropped, with
// collections of random generations at random points (and automatic ones every 50
// allocations). The surviving graph, walked to depth 3, must be the same as with the collector
// off; a container freed or cleared while reachable changes the sum or crashes.
const char* kRandomGraph = R"(
let st = [SEED]
let collect = GC
if not collect { config.gc = false } else { config.gc_threshold0 = 50 }
INCREMENTAL
fn rnd(n) {
  st[0] = (st[0] * 1103515245 + 12345) % 2147483648
  return (st[0] // 65536) % n
}
let pool = []
for step in range(20000) {
  let r = rnd(10)
  if r < 4 or len(pool) < 2 {
    if rnd(2) == 0 { pool.append([step]) } else { pool.append({"v": step}) }
  } elif r < 5 {
    # a burst of new containers linked among themselves and with the pool; one in four is
    # kept by a pool member, the rest is garbage once the burst ends
    let burst = []
    for j in range(rnd(6) + 1) { if rnd(2) == 0 { burst.append([j]) } else { burst.append({"v": j}) } }
    for j in range(rnd(10)) {
      let a = burst[rnd(len(burst))]
      let b = burst[rnd(len(burst))]
      if rnd(3) == 0 { b = pool[rnd(len(pool))] }
      if type(a) == "list" { a.append(b) } else { a[str(rnd(5))] = b }
    }
    if rnd(4) == 0 {
      let p = pool[rnd(len(pool))]
      if type(p) == "list" { p.append(burst[0]) } else { p["b"] = burst[0] }
    }
  } elif r < 6 {
    let a = pool[rnd(len(pool))]
    let b = pool[rnd(len(pool))]
    if type(a) == "list" { a.append(b) } else { a[str(rnd(5))] = b }
  } elif r < 7 {
    let a = pool[rnd(len(pool))]
    if type(a) == "list" { while len(a) > 1 { a.pop() } } else { for k in ["0", "1", "2", "3", "4"] { a[k] = none } }
  } elif r < 9 {
    let i = rnd(len(pool))
    pool[i] = pool[len(pool) - 1]
    pool.pop()
  } else {
    let g = rnd(GENS)
    if collect { gc(g) }
  }
}
fn total(x, depth) {
  if depth == 0 or x == none { return 0 }
  let t = 0
  if type(x) == "list" {
    for y in x { if type(y) == "int" { t += y } elif y == none { t += 1 } else { t += total(y, depth - 1) } }
  } else {
    for k in x { let y = x[k]; if type(y) == "int" { t += y } elif y == none { t += 1 } else { t += total(y, depth - 1) } }
  }
  return t
}
let sum = 0
for p in pool { sum += total(p, 3) }
print(len(pool), sum)
if collect { print("freed", stats()["gc"]["freed"]) }
)";

std::string randomGraph(const std::string& incremental, int gens) {
  std::string s = kRandomGraph;
  s.replace(s.find("INCREMENTAL"), 11, incremental);
  s.replace(s.find("GENS"), 4, std::to_string(gens));
  return s;
}

TEST(Gc, RandomGraphsEndTheSameWithAndWithoutTheCollector) {
  for (int seed = 1; seed <= 4; ++seed) {
    std::string prefix = "let SEED = " + std::to_string(seed) + "\n";
    const std::string kRandomGraph = randomGraph("config.gc_increment = 0", 3);
    Interpreter on, off;
    std::string withGc = run(on, prefix + "let GC = true\n" + kRandomGraph);
    std::string without = run(off, prefix + "let GC = false\n" + kRandomGraph);
    size_t cut = withGc.find("freed ");
    ASSERT_NE(cut, std::string::npos) << withGc;
    EXPECT_EQ(withGc.substr(0, cut), without) << "seed " << seed;
    EXPECT_GT(std::stoll(withGc.substr(cut + 6)), 1000) << "seed " << seed;  // it did collect
  }
}

// The same random graphs with the old generation collected incrementally in steps of 20
// containers (Note [Incremental old generation]), old collections as often as they can come,
// and the program changing the graph between every two steps: the surviving graph is the same
// as with the collector off, and the steps did run to their end and free garbage.
TEST(Gc, IncrementalCollectionsOfRandomGraphsEndTheSame) {
  const std::string settings =
      "if collect { config.gc_increment = 20\n config.gc_threshold0 = 5\n"
      " config.gc_threshold1 = 2\n"
      " config.gc_threshold2 = 1 }";
  for (int seed = 1; seed <= 4; ++seed) {
    std::string prefix = "let SEED = " + std::to_string(seed) + "\n";
    Interpreter on, off;
    // gc(0) and gc(1) only (gc(2) would cut an incremental collection short), then with gc(2).
    for (int gens : {2, 3}) {
      std::string script = randomGraph(settings, gens) +
                           "if collect { print(\"incremental\", stats()[\"gc\"][\"incremental\"] > 0) }\n";
      std::string withGc = run(on, prefix + "let GC = true\n" + script);
      std::string without = run(off, prefix + "let GC = false\n" + script);
      size_t cut = withGc.find("freed ");
      ASSERT_NE(cut, std::string::npos) << withGc;
      EXPECT_EQ(withGc.substr(0, cut), without) << "seed " << seed;
      EXPECT_NE(withGc.find("incremental true"), std::string::npos) << withGc;
    }
  }
}

// Cycles that reached the old generation before they became garbage are freed by the
// incremental collection, with no gc() call: the program only goes on making containers
// (young cycles, and one list in eight kept, which fills the old generation until it is due).
// Of the old generation, only the kept lists (37,500) and a few others remain.
TEST(Gc, IncrementalCollectionFreesOldCycles) {
  Interpreter interp;
  EXPECT_EQ(run(interp, R"(
config.gc_increment = 1000
config.gc_threshold2 = 2
let keep = []
for i in range(5000) {
  let d = {"i": i}
  d["self"] = d
  keep.append(d)
}
gc(1)
gc(1)
let s0 = stats()["gc"]
keep = none
let live = []
for i in range(300000) {
  let c = [i]
  c.append(c)
  if i % 8 == 0 { live.append([i]) }
}
let s = stats()["gc"]
print(s["incremental"] > s0["incremental"], s["freed"] - s0["freed"] >= 300000)
print(s["tracked"][2] < 37500 + 1000)
)"),
            "true true\ntrue\n");
}

// An interpreter frees its modules' cycles (functions and their module, compiled frames) when
// it is destroyed; what an embedder still holds stays valid.
TEST(Gc, DestroyingAnInterpreterFreesItsCycles) {
  Value kept;
  {
    Interpreter interp;
    run(interp, R"(
fn f(x) { return x + 1 }
let g = compile(f)
let d = {"list": [1, 2]}
d["self"] = d
)");
    Interpreter::Entry entry(interp);
    kept = *interp.mainModule().lookup("d");
  }
  ASSERT_TRUE(kept.is(interp::Type::Dict));
  EXPECT_EQ(kept.as<interp::DictObj>()->find("list")->as<interp::ListObj>()->items.size(), 2u);
  // With its interpreter gone no collector tracks the dict: the app that kept a cycle breaks it
  // (LeakSanitizer checks that nothing is left at exit).
  kept.as<interp::DictObj>()->clearRefs();
}

// The runtime's caches hold no user value strongly (docs/reliability.md, "Memory: cycles"):
// the compiler's list of compiled functions is cleared as they die, PGO states are keyed by
// source names, a trace's bookkeeping ends with it. So a compiled function (and one made by
// value_and_grad) that closes over a tensor gives its storage back the moment the last
// reference goes: no collection runs (config.gc = false), and the second 3 MiB tensor fits a
// 4 MiB budget only if the first was freed.
TEST(Gc, CompileCachesKeepNoDeadValueAlive) {
  for (const char* wrap : {"compile(f)", "compile(value_and_grad(f))"}) {
    interp::InterpreterOptions o;
    o.maxMemoryBytes = 4 << 20;
    Interpreter interp(o);
    std::string script = R"(
config.gc = false
fn make() {
  let big = ones([768, 1024])
  fn f(x) { return (x * big[1, 2]).sum() }
  return WRAP
}
let g = make()
let r = g(ones([3]))
print(r[0].item() if type(r) == "tuple" else r.item())
g = none
let u = zeros([768, 1024])
print(u.shape)
)";
    script.replace(script.find("WRAP"), 4, wrap);
    EXPECT_EQ(run(interp, script), "3.0\nshape([768, 1024])\n") << wrap;
  }
}

}  // namespace
