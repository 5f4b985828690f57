// Running a compiled function with graph breaks: blocks split into regions and broken
// statements, each region cached with its own guards (Note [Regions] in regions.h).
#include "interp/compile/regions.h"

#include <algorithm>
#include <iostream>

#include "backends/autodiff/tape.h"
#include "interp/compile/compile_trace.h"
#include "interp/compile/compiler_state.h"
#include "interp/compile/tracer.h"
#include "interp/interpreter.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

// Which slots statements may read before they write them: a region's inputs. Conservative:
// a write counts only when it is a top-level statement of the region (it surely ran before
// what follows); a read anywhere else counts.
class SlotReads {
 public:
  explicit SlotReads(size_t numSlots) : reads_(numSlots, false), written_(numSlots, false) {}
  std::vector<bool> take() { return std::move(reads_); }

  void stmt(Stmt* s, bool top) {
    switch (s->kind) {
      case StmtKind::Let: {
        auto* n = static_cast<Let*>(s);
        expr(n->value);
        pattern(n->target, top);
        return;
      }
      case StmtKind::Assign: {
        auto* n = static_cast<Assign*>(s);
        if (n->target->kind == ExprKind::Name) {
          auto* name = static_cast<Name*>(n->target);
          if (n->op != AssignOp::Set) expr(name);
          expr(n->value);
          write(name->ref, top);
        } else {
          expr(n->target);
          expr(n->value);
        }
        return;
      }
      case StmtKind::ExprStmt:
        expr(static_cast<ExprStmt*>(s)->expr);
        return;
      case StmtKind::FnDecl: {
        auto* n = static_cast<FnDecl*>(s);
        for (Expr* d : n->decorators) expr(d);
        captures(*n->proto);
        write(n->ref, top);
        return;
      }
      case StmtKind::If: {
        auto* n = static_cast<If*>(s);
        for (Expr* c : n->conds) expr(c);
        for (const Block& b : n->blocks) block(b);
        return;
      }
      case StmtKind::While: {
        auto* n = static_cast<While*>(s);
        expr(n->cond);
        block(n->body);
        return;
      }
      case StmtKind::For: {
        auto* n = static_cast<For*>(s);
        expr(n->iterable);
        pattern(n->target, false);
        block(n->body);
        return;
      }
      case StmtKind::Return:
        if (auto* v = static_cast<Return*>(s)->value) expr(v);
        return;
      case StmtKind::Assert: {
        auto* n = static_cast<Assert*>(s);
        expr(n->cond);
        if (n->message) expr(n->message);
        return;
      }
      case StmtKind::Import:
        write(static_cast<Import*>(s)->ref, top);
        return;
      case StmtKind::Try: {
        auto* n = static_cast<Try*>(s);
        block(n->body);
        for (const Try::Handler& h : n->handlers) {
          if (h.name) pattern(h.name, false);
          block(h.body);
        }
        return block(n->finally);
      }
      case StmtKind::Raise:
        return expr(static_cast<Raise*>(s)->value);
      case StmtKind::Break:
      case StmtKind::Continue:
        return;
    }
  }

 private:
  void block(const Block& b) {
    for (Stmt* s : b) stmt(s, false);
  }
  void read(const VarRef& ref) {
    bool local = ref.kind == VarRef::Kind::Local || ref.kind == VarRef::Kind::LocalCell;
    if (local && ref.index < reads_.size() && !written_[ref.index]) reads_[ref.index] = true;
  }
  void write(const VarRef& ref, bool top) {
    bool local = ref.kind == VarRef::Kind::Local || ref.kind == VarRef::Kind::LocalCell;
    if (local && top && ref.index < written_.size()) written_[ref.index] = true;
  }
  void pattern(Pattern* p, bool top) {
    if (!p->isSeq) return write(p->ref, top);
    for (Pattern* e : p->elems) pattern(e, top);
  }
  // An inner function reads the cells it captures from this frame.
  void captures(const FnProto& proto) {
    for (const UpvalueDesc& u : proto.upvalues)
      if (u.fromParentLocal && u.index < reads_.size()) reads_[u.index] = true;
  }
  void exprs(const std::vector<Expr*>& es) {
    for (Expr* e : es) expr(e);
  }
  void expr(Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case ExprKind::Name:
        return read(static_cast<Name*>(e)->ref);
      case ExprKind::TupleLit:
        return exprs(static_cast<TupleLit*>(e)->elems);
      case ExprKind::ListLit:
        return exprs(static_cast<ListLit*>(e)->elems);
      case ExprKind::DictLit:
        exprs(static_cast<DictLit*>(e)->keys);
        return exprs(static_cast<DictLit*>(e)->values);
      case ExprKind::Unary:
        return expr(static_cast<Unary*>(e)->operand);
      case ExprKind::Binary:
        expr(static_cast<Binary*>(e)->lhs);
        return expr(static_cast<Binary*>(e)->rhs);
      case ExprKind::Compare:
        return exprs(static_cast<Compare*>(e)->operands);
      case ExprKind::Logical:
        expr(static_cast<Logical*>(e)->lhs);
        return expr(static_cast<Logical*>(e)->rhs);
      case ExprKind::Not:
        return expr(static_cast<Not*>(e)->operand);
      case ExprKind::Ternary: {
        auto* t = static_cast<Ternary*>(e);
        expr(t->cond);
        expr(t->then);
        return expr(t->otherwise);
      }
      case ExprKind::Call:
        expr(static_cast<Call*>(e)->callee);
        return exprs(static_cast<Call*>(e)->args);
      case ExprKind::Index: {
        auto* x = static_cast<Index*>(e);
        expr(x->object);
        for (const Subscript& sub : x->subs) {
          expr(sub.index);
          expr(sub.lo);
          expr(sub.hi);
          expr(sub.step);
        }
        return;
      }
      case ExprKind::Attr:
        return expr(static_cast<Attr*>(e)->object);
      case ExprKind::Lambda:
        return captures(*static_cast<Lambda*>(e)->proto);
      case ExprKind::FString:
        for (const FString::Part& part : static_cast<FString*>(e)->parts) expr(part.value);
        return;
      case ExprKind::Comprehension: {
        // Its targets are its own slots, bound before they are read (resolver.cpp).
        auto* c = static_cast<Comprehension*>(e);
        for (const CompClause& clause : c->clauses) {
          expr(clause.iterable);
          pattern(clause.target, true);
          exprs(clause.conds);
        }
        expr(c->elem);
        return expr(c->value);
      }
      default:
        return;  // literals
    }
  }

  std::vector<bool> reads_, written_;
};

bool holdsCell(std::span<const Value> slots) {
  for (const Value& v : slots)
    if (v.is(Type::Cell)) return true;
  return false;
}

}  // namespace

Region& RegionRunner::regionFor(const Block& block, uint32_t begin, uint32_t end,
                                const FnProto& proto) {
  auto [it, inserted] = frame_.regions.try_emplace(RegionKey{&block, begin, end});
  if (inserted) {
    it->second = std::make_unique<Region>();
    Region& r = *it->second;
    SlotReads reads(proto.numSlots);
    for (uint32_t i = begin; i < end; ++i) reads.stmt(block[i], true);
    r.reads = reads.take();
    for (uint32_t s = 0; s < proto.numSlots; ++s)
      if (r.reads[s]) r.inputNames.push_back(proto.slotNames[s]);
  }
  return *it->second;
}

Flow RegionRunner::runRegion(const CBlock& code, uint32_t begin, uint32_t end, Frame& f) {
  const Block& block = sourceOf(code);
  const FnProto& proto = *f.closure->proto;
  Region& region = regionFor(block, begin, end, proto);
  Evaluator& ev = interp_.evaluator();
  std::span<const Value> slots(f.slots, proto.numSlots);
  // A captured variable lives in a cell that closures share with this frame: a region would
  // copy it. Such regions run eagerly (their callees are still compiled).
  if (region.eager || holdsCell(slots))
    return ev.runStatements(code, begin, end, f);

  std::vector<Value> inputs;
  for (uint32_t s = 0; s < proto.numSlots; ++s)
    if (region.reads[s]) inputs.push_back(f.slots[s]);

  FlatArgs flat;
  std::string reason;
  Entry* hit = findEntry(frame_, region.entries, inputs, flat, reason);
  CompilerState& state = frame_.state;
  bool fresh = false;
  if (hit) {
    countHit(frame_, *hit);
  } else {
    ++frame_.stats.cacheMisses;
    if (static_cast<int64_t>(region.entries.size()) >= state.config.recompile_limit) {
      std::cerr << "tessel: warning: a region of " << frame_.name() << " (" << frame_.location()
                << ") reached config.recompile_limit (" << state.config.recompile_limit
                << "); last failing guard: " << reason << "; running it eagerly from now on\n";
      region.eager = true;
      ++frame_.stats.fallbacks;
      if (state.trace)
        state.trace->fallback(frame_, static_cast<int>(block[begin]->span.line),
                              static_cast<int>(block[end - 1]->span.line), reason);
      return ev.runStatements(code, begin, end, f);
    }
    const Span& first = block[begin]->span;
    CompileUnit unit{region.codeState, region.inputNames, inputs, static_cast<int>(first.line),
                     static_cast<int>(first.col), static_cast<int>(block[end - 1]->span.line)};
    int compileId = beginCompile(frame_, unit, !region.entries.empty(), reason);
    auto entry = std::make_unique<Entry>();
    entry->compileId = compileId;
    try {
      Tracer(interp_, frame_, *entry, region.codeState)
          .traceRegion({&code, begin, end, &f, &region.reads});
    } catch (const TracedBreak& brk) {
      recordBreak(interp_, frame_, brk, *entry);
      throw;
    } catch (const std::exception& e) {
      compileFailed(frame_, *entry, e);
      raiseEagerError(frame_, e,
                      [&] { ev.runStatements(code, begin, end, f); });
      throw;
    }
    // A region that made a captured variable would hand the same cell to every call.
    for (auto& [slot, t] : entry->slotOutputs)
      if (t.kind == OutputTemplate::Kind::Constant && t.constant.is(Type::Cell)) {
        region.eager = true;
        return ev.runStatements(code, begin, end, f);
      }
    countCompile(frame_, *entry);
    region.entries.push_back(std::move(entry));
    hit = region.entries.back().get();
    std::string r = entryMismatch(frame_, *hit, inputs, flat);
    TESSEL_ASSERT(r.empty(), "a fresh region entry rejects the values it was traced for: " + r);
    fresh = true;
  }
  GraphRun run = fresh ? firstRun(frame_, *hit, flat) : runGraph(*hit, flat);
  run.inputs = slots;
  // All values first: one may be another slot's value from before the region (`b = a`).
  std::vector<Value> changed;
  for (auto& [slot, t] : hit->slotOutputs) changed.push_back(rebuildOutput(t, run));
  if (hit->flow == Flow::Return) f.result = rebuildOutput(hit->output, run);
  for (size_t i = 0; i < changed.size(); ++i)
    f.slots[hit->slotOutputs[i].first] = std::move(changed[i]);
  return hit->flow;
}

Flow RegionRunner::runBlock(const CBlock& code, Frame& f) {
  const Block& block = sourceOf(code);
  Evaluator& ev = interp_.evaluator();
  // Module code (an import inside a broken statement) and code an eager gradient tape must
  // see op by op run as they would without the compiler.
  if (!f.closure || backends::autodiff::anyTapeActive())
    return ev.runStatements(code, 0, static_cast<uint32_t>(block.size()), f);
  const uint32_t n = static_cast<uint32_t>(block.size());
  uint32_t i = 0;
  while (i < n) {
    if (frame_.breakStmts.count(block[i])) {
      Flow flow = ev.runStatements(code, i, i + 1, f);
      if (flow != Flow::Normal) return flow;
      ++i;
      continue;
    }
    uint32_t j = i + 1;
    while (j < n && !frame_.breakStmts.count(block[j])) ++j;
    try {
      Flow flow = runRegion(code, i, j, f);
      if (flow != Flow::Normal) return flow;
      i = j;
    } catch (const TracedBreak& brk) {
      // Split again: the statement of [i, j) that broke is marked now (it is the outermost
      // statement the trace was running). Should it not be (it always is), the run is run
      // eagerly from now on rather than retraced forever.
      if (brk.stmts.empty() ||
          std::find(block.begin() + i, block.begin() + j, brk.stmts.front()) == block.begin() + j)
        regionFor(block, i, j, *f.closure->proto).eager = true;
    }
  }
  return Flow::Normal;
}

std::vector<const Entry*> frameEntries(const FrameObj& frame) {
  std::vector<const Entry*> out;
  for (const auto& e : frame.entries) out.push_back(e.get());
  for (const auto& [key, region] : frame.regions)
    for (const auto& e : region->entries) out.push_back(e.get());
  std::sort(out.begin(), out.end(),
            [](const Entry* a, const Entry* b) { return a->compileId < b->compileId; });
  return out;
}

Value callWithBreaks(Interpreter& interp, FrameObj& frame, std::span<Value> args, Span site) {
  RegionRunner runner(interp, frame);
  ScopedBlockRunner scope(&runner);
  return interp.call(frame.function, args, site);
}

}  // namespace tessel::interp
