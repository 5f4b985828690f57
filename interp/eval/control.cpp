// Control flow in closure code: if (with the guard-return shortcuts of recursive fns), while
// and for; their handlers and the compile function of each kind.
#include "interp/eval/engine.h"

namespace tessel::interp {
namespace {

struct CControl : CStmt {
  CControl(Stmt* s, Run r) : CStmt(s, r) {}
  std::vector<CExpr*> conds;    // an if's (one per branch), a while's
  std::vector<CBlock*> blocks;  // one per cond, then an if's else block; a loop's body
  CExpr* iterable = nullptr;    // a for's
};
Flow runIf(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CControl&>(self);
  for (size_t i = 0; i < s.conds.size(); ++i)
    if (s.conds[i]->test(*s.conds[i], f, ev)) return ev.runCode(*s.blocks[i], f);
  if (s.blocks.size() > s.conds.size()) return ev.runCode(*s.blocks.back(), f);
  return Flow::Normal;
}
// `if c { ... }` without elif or else, the usual guard.
Flow runIfOnly(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CControl&>(self);
  const CExpr& cond = *s.conds[0];
  return cond.test(cond, f, ev) ? ev.runCode(*s.blocks[0], f) : Flow::Normal;
}
// `if c { return x }` with x a local, a literal or nothing, the guard of a recursive fn: the
// block's one statement runs here, its step counted as runStatements counts it. Such a return
// raises no UserError for the block to convert (an unassigned local's NameError is a
// ScriptError already), so the block's loop and handlers are not needed.
struct CIfReturn : CControl {
  CIfReturn(Stmt* s, Run r) : CControl(s, r) {}
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  uint32_t returnSlot = kNoSlot;  // the returned local's, when x is one
  uint32_t guardSlot = 0;         // runGuardReturn's `n`
  int64_t guardBound = 0;         // and its int literal
};
// The return once the condition held. A local is returned here, without the return's handler.
// Its step is counted by the caller (returnFromIf), whose slow path is a tail call.
[[gnu::always_inline]] inline Flow returnCounted(const CIfReturn& s, Frame& f, Engine& ev) {
  const CStmt& ret = *s.blocks[0]->stmts[0];
  if (s.returnSlot != CIfReturn::kNoSlot) {
    const Value& v = f.slots[s.returnSlot];
    if (!v.is(Type::Undefined)) [[likely]] {
      f.result = v;
      return Flow::Return;
    }
  }
  return ret.run(ret, f, ev);  // a literal, nothing, or the NameError
}
[[gnu::noinline, gnu::cold]] Flow returnAfterPoll(const CIfReturn& s, Frame& f, Engine& ev) {
  ev.stepsRanOut(s.blocks[0]->stmts[0]->src->span);
  return returnCounted(s, f, ev);
}
[[gnu::always_inline]] inline Flow returnFromIf(const CIfReturn& s, Frame& f, Engine& ev) {
  if (traceContext().regions) [[unlikely]]  // the runner must see the block
    return ev.runCode(*s.blocks[0], f);
  if (ev.stepRunsOut()) [[unlikely]]
    return returnAfterPoll(s, f, ev);
  return returnCounted(s, f, ev);
}
Flow runIfReturn(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CIfReturn&>(self);
  const CExpr& cond = *s.conds[0];
  if (!cond.test(cond, f, ev)) return Flow::Normal;
  return returnFromIf(s, f, ev);
}
// `if n < 2 { return n }`: the condition a local compared with an int literal, decided here
// when the local holds an int (as testIntCompare would, Note [Int operator handlers] in
// operators.cpp); anything else is the condition's own test, errors included.
template <CompareOp Op>
Flow runGuardReturn(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CIfReturn&>(self);
  const Value& n = f.slots[s.guardSlot];
  bool holds;
  if (n.is(Type::Int)) [[likely]] {
    bool ok;
    holds = compareInts(Op, n.asInt(), s.guardBound, ok);
  } else {
    const CExpr& cond = *s.conds[0];
    holds = cond.test(cond, f, ev);
  }
  return holds ? returnFromIf(s, f, ev) : Flow::Normal;
}
// runGuardReturn's handler for `cond`, or null when cond is not a local compared with an int
// literal.
CStmt::Run guardReturnRun(Expr* cond, uint32_t& slot, int64_t& bound) {
  if (cond->kind != ExprKind::Compare) return nullptr;
  auto* c = static_cast<Compare*>(cond);
  if (c->ops.size() != 1 || c->operands[0]->kind != ExprKind::Name ||
      c->operands[1]->kind != ExprKind::IntLit)
    return nullptr;
  const VarRef& ref = static_cast<Name*>(c->operands[0])->ref;
  if (ref.kind != VarRef::Kind::Local) return nullptr;
  slot = ref.index;
  bound = static_cast<IntLit*>(c->operands[1])->value;
  switch (c->ops[0]) {
    case CompareOp::Eq:
      return runGuardReturn<CompareOp::Eq>;
    case CompareOp::Ne:
      return runGuardReturn<CompareOp::Ne>;
    case CompareOp::Lt:
      return runGuardReturn<CompareOp::Lt>;
    case CompareOp::Le:
      return runGuardReturn<CompareOp::Le>;
    case CompareOp::Gt:
      return runGuardReturn<CompareOp::Gt>;
    case CompareOp::Ge:
      return runGuardReturn<CompareOp::Ge>;
    default:
      return nullptr;
  }
}
// Whether `b` is one return that runIfReturn may run without its block.
bool isSimpleReturn(const Block& b) {
  if (b.size() != 1 || b[0]->kind != StmtKind::Return) return false;
  Expr* v = static_cast<Return*>(b[0])->value;
  if (!v) return true;
  switch (v->kind) {
    case ExprKind::IntLit:
    case ExprKind::FloatLit:
    case ExprKind::StrLit:
    case ExprKind::BoolLit:
    case ExprKind::NoneLit:
      return true;
    case ExprKind::Name:
      return static_cast<Name*>(v)->ref.kind == VarRef::Kind::Local;
    default:
      return false;
  }
}
Flow runWhile(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CControl&>(self);
  const CExpr& cond = *s.conds[0];
  const CBlock& body = *s.blocks[0];
  const Span& span = self.src->span;
  while (cond.test(cond, f, ev)) {
    ev.countLoopStep(span);
    Flow flow = ev.runCode(body, f);
    if (flow == Flow::Break) break;
    if (flow == Flow::Return) return flow;
  }
  return Flow::Normal;
}
Flow runFor(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CControl&>(self);
  return ev.forEach(static_cast<For*>(self.src), s.iterable->run(*s.iterable, f, ev),
                    *s.blocks[0], f);
}

}  // namespace

CStmt* ClosureCompiler::compileIf(If* i) {
  bool only = i->conds.size() == 1 && i->blocks.size() == 1;
  CControl* n;
  // The shortcut skips the return statement, which the traced form must run as one.
  if (only && isSimpleReturn(i->blocks[0]) && !traced()) {
    auto* r = node<CIfReturn>(i, runIfReturn);
    if (CStmt::Run guard = guardReturnRun(i->conds[0], r->guardSlot, r->guardBound))
      r->run = guard;
    Expr* v = static_cast<Return*>(i->blocks[0][0])->value;
    if (v && v->kind == ExprKind::Name) r->returnSlot = static_cast<Name*>(v)->ref.index;
    n = r;
  } else {
    n = node<CControl>(i, only ? runIfOnly : runIf);
  }
  for (Expr* c : i->conds) n->conds.push_back(expr(c));
  for (const Block& b : i->blocks) n->blocks.push_back(block(b));
  return n;
}

CStmt* ClosureCompiler::compileWhile(While* w) {
  auto* n = node<CControl>(w, runWhile);
  n->conds.push_back(expr(w->cond));
  n->blocks.push_back(block(w->body));
  return n;
}

CStmt* ClosureCompiler::compileFor(For* loop) {
  auto* n = node<CControl>(loop, runFor);
  n->iterable = expr(loop->iterable);
  n->blocks.push_back(block(loop->body));
  return n;
}

}  // namespace tessel::interp
