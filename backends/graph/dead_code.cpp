// Dead-code elimination: a backward liveness walk, then a copy of the live values.
#include "backends/graph/dead_code.h"

#include <unordered_map>

#include "backends/graph/graph_rewriter.h"
#include "backends/graph/sym_eval.h"
#include "shapes/expr.h"

namespace tessel::graph {

namespace {

/// Marks what `roots` need (operands, and the binders of the unbacked symbols in shapes and
/// attributes). With `wholeGraph`, also what must run whatever the outputs: random ops (they
/// advance the stream), ops that can raise on their data (eager code raises there even when
/// the result is unused: found by tests/fuzz/fuzz_compile_diff, an unused `y // y` with a
/// zero in y) and the binders of every runtime assert's symbols.
std::vector<uint8_t> liveValues(const Graph& g, std::span<const ValueId> roots, bool wholeGraph) {
  const size_t n = g.size();
  // Which value binds each unbacked symbol: the first whose shape mentions it.
  std::unordered_map<uint32_t, ValueId> binder;
  for (ValueId id = 0; id < n; ++id)
    for (uint32_t s : unbackedSymbolsOf(g.value(id))) binder.emplace(s, id);

  std::vector<uint8_t> live(n, 0);
  std::vector<ValueId> work;
  auto mark = [&](ValueId v) {
    if (!live[v]) {
      live[v] = 1;
      work.push_back(v);
    }
  };
  auto markSymbols = [&](const std::vector<uint32_t>& syms) {
    for (uint32_t s : syms)
      if (auto it = binder.find(s); it != binder.end()) mark(it->second);
  };
  for (ValueId o : roots) mark(o);
  for (ValueId id = 0; id < n; ++id) {
    const Value& v = g.value(id);
    if (v.kind == ValueKind::Input ||
        (wholeGraph && ((v.kind == ValueKind::Op && isRandomOp(v.op)) || mayRaiseOnData(v))))
      mark(id);
  }
  if (wholeGraph)
    for (const RuntimeAssert& a : g.runtimeAsserts())
      if (a.cond.expr()) markSymbols(a.cond.expr()->syms);
  while (!work.empty()) {
    const ValueId id = work.back();
    work.pop_back();
    const Value& v = g.value(id);
    for (ValueId a : v.args) mark(a);
    for (const SymInt& d : v.shape) markSymbols(freeSymbols(d));
    if (v.kind == ValueKind::Op) markSymbols(attrSymbols(v.attrs));
  }
  return live;
}

}  // namespace

Graph eliminateDeadCode(const Graph& g) {
  const std::vector<uint8_t> live = liveValues(g, g.outputs(), /*wholeGraph=*/true);
  GraphRewriter rw(g);
  for (ValueId id = 0; id < g.size(); ++id)
    if (live[id]) rw.copy(id);
  return rw.finish();
}

Graph keepOutputs(const Graph& g, std::span<const size_t> which) {
  std::vector<ValueId> roots;
  for (size_t i : which) roots.push_back(g.outputs().at(i));
  const std::vector<uint8_t> live = liveValues(g, roots, /*wholeGraph=*/false);
  const std::vector<uint8_t> bound = unbackedSymbolsBound(g, live);
  std::vector<RuntimeAssert> asserts;
  for (const RuntimeAssert& a : g.runtimeAsserts()) {
    // The op that made an assert decides; without one, its symbols do.
    const bool mine = a.origin != RuntimeAssert::kNoOrigin ? live[a.origin] != 0
                                                           : checkableWith(a.cond, bound);
    if (mine) asserts.push_back(a);
  }
  GraphRewriter rw(g);
  for (ValueId id = 0; id < g.size(); ++id)
    if (live[id]) rw.copy(id);
  return rw.finish(roots, std::move(asserts));
}

}  // namespace tessel::graph
