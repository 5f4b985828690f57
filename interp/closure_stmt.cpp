// Closure code for statements (Note [Closure code] in closure_code.h): the node handlers, the
// compiler that picks one for each statement, and the compiled bodies kept in FnProtos. Each
// handler does what its case of Evaluator::execStmt does, with its expressions compiled.
#include "interp/closure_code.h"
#include "interp/ops.h"

namespace tessel::interp {
namespace {

// Anything not specialized below (fn declarations, asserts, imports): the tree walk runs it.
Flow runTree(const CStmt& self, Frame& f, Evaluator& ev) {
  return ev.execTree(self.src, f);
}

struct CSimple : CStmt {
  CSimple(Stmt* s, Run r) : CStmt(s, r) {}
  CExpr* value = nullptr;
  CExpr* target = nullptr;  // an assignment's name, or the object of its index or attribute
  CExpr* key = nullptr;     // an index assignment's subscript
  uint32_t slot = 0;        // a local target's
  Value constant;           // `x op= <literal>`: the literal (runAugSlotConst)
  mutable uint32_t hint = 0;  // an index assignment's last dict entry (DictObj::find)
};

Flow runExprStmt(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  s.value->run(*s.value, f, ev);
  return Flow::Normal;
}
Flow runReturn(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  f.result = s.value ? s.value->run(*s.value, f, ev) : Value::none();
  return Flow::Return;
}
Flow runReturnLocal(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  const Value& v = f.slots[s.slot];
  f.result = !v.is(Type::Undefined) ? v : s.value->run(*s.value, f, ev);  // else the NameError
  return Flow::Return;
}
Flow runBreak(const CStmt&, Frame&, Evaluator&) {
  return Flow::Break;
}
Flow runContinue(const CStmt&, Frame&, Evaluator&) {
  return Flow::Continue;
}

Flow runLetLocal(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  f.slots[s.slot] = s.value->run(*s.value, f, ev);
  return Flow::Normal;
}
Flow runLet(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  ev.bind(static_cast<Let*>(self.src)->target, s.value->run(*s.value, f, ev), f);
  return Flow::Normal;
}

// Assignments (execAssign): the value first, then the target's old value for `x op= v`.
Flow runSetLocal(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value rhs = s.value->run(*s.value, f, ev);
  f.slots[s.slot] = std::move(rhs);
  return Flow::Normal;
}
// storeName for a name that is not a plain local: a global's store, the assignment of
// top-level loops, is done here when it cannot fail and no trace runs (which would check it).
void storeNonLocal(Evaluator& ev, Name* name, Value v, Frame& f) {
  if (name->ref.kind == VarRef::Kind::Global) {
    Value& slot = f.module->globals[name->ref.index];
    if (!slot.is(Type::Undefined) && currentTraceEpoch() == 0) [[likely]] {
      slot = std::move(v);
      return;
    }
  }
  ev.storeName(name, std::move(v), f);
}
Flow runSetName(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  auto* a = static_cast<Assign*>(self.src);
  storeNonLocal(ev, static_cast<Name*>(a->target), s.value->run(*s.value, f, ev), f);
  return Flow::Normal;
}
// The operator of `x op= v`.
BinaryOp augOp(AssignOp op) {
  static const BinaryOp kAugOps[] = {BinaryOp::Add, BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul,
                                     BinaryOp::Div};
  return kAugOps[static_cast<int>(op)];
}
// `x op= v` with the value `rhs` in hand: then the target's old value, as execAssign reads them.
Flow augmentName(const CSimple& s, Value rhs, Frame& f, Evaluator& ev) {
  auto* a = static_cast<Assign*>(s.src);
  auto* name = static_cast<Name*>(a->target);
  Value old = s.target->run(*s.target, f, ev);
  int64_t r;
  if (old.is(Type::Int) && rhs.is(Type::Int) && intArith(augOp(a->op), old.asInt(), rhs.asInt(), r)) {
    if (name->ref.kind == VarRef::Kind::Local)
      f.slots[name->ref.index] = Value::integer(r);
    else
      storeNonLocal(ev, name, Value::integer(r), f);
    return Flow::Normal;
  }
  ev.storeName(name, ev.augmented(a, old, std::move(rhs)), f);
  return Flow::Normal;
}
Flow runAugName(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  return augmentName(s, s.value->run(*s.value, f, ev), f, ev);
}
// `i += 1` on a local or global slot: an int result replaces the int in place (for a global,
// where storeNonLocal would store it); anything else goes the general way.
template <VarRef::Kind K>
[[gnu::noinline]] Flow runAugSlot(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value rhs = s.value->run(*s.value, f, ev);
  // Read after the value: its code may have assigned the variable (or moved the globals).
  Value& slot = K == VarRef::Kind::Local ? f.slots[s.slot] : f.module->globals[s.slot];
  int64_t r;
  if (slot.is(Type::Int) && rhs.is(Type::Int) &&
      intArith(augOp(static_cast<Assign*>(self.src)->op), slot.asInt(), rhs.asInt(), r) &&
      (K == VarRef::Kind::Local || currentTraceEpoch() == 0)) [[likely]] {
    slot = Value::integer(r);
    return Flow::Normal;
  }
  return augmentName(s, std::move(rhs), f, ev);
}
// `i += 1`: the same without a call for the value, so without a frame (Note [Frameless fast
// paths] in closure_expr.cpp); anything but ints is left to runAugSlot.
template <VarRef::Kind K>
Flow runAugSlotConst(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value& slot = K == VarRef::Kind::Local ? f.slots[s.slot] : f.module->globals[s.slot];
  int64_t r;
  if (slot.is(Type::Int) && s.constant.is(Type::Int) &&
      intArith(augOp(static_cast<Assign*>(self.src)->op), slot.asInt(), s.constant.asInt(), r) &&
      (K == VarRef::Kind::Local || currentTraceEpoch() == 0)) [[likely]] {
    slot = Value::integer(r);
    return Flow::Normal;
  }
  return runAugSlot<K>(self, f, ev);
}
// `d[k] = v`, `d[k] += v` and `xs[i] = v` where they cannot fail and no trace runs (which
// checks the container's epoch): what storeIndex does, without its generic getIndex and
// setIndex. `+=` on an int field or element updates it in place, with one lookup.
bool storeIndexFast(const CSimple& s, const Value& object, const Value& key, Value& rhs) {
  if (currentTraceEpoch() != 0) return false;
  auto* a = static_cast<Assign*>(s.src);
  Value* slot = nullptr;
  if (object.is(Type::Dict) && key.is(Type::Str)) {
    auto* d = object.as<DictObj>();
    slot = d->find(key.as<StrObj>()->str, s.hint);
    if (!slot && a->op == AssignOp::Set) {
      d->insertNew(key.as<StrObj>()->str, std::move(rhs));
      return true;
    }
  } else if (object.is(Type::List) && key.is(Type::Int)) {
    auto& items = object.as<ListObj>()->items;
    int64_t i = key.asInt(), n = static_cast<int64_t>(items.size());
    if (i < 0) i += n;
    if (i >= 0 && i < n) slot = &items[i];
  }
  if (!slot) return false;
  if (a->op == AssignOp::Set) {
    *slot = std::move(rhs);
    return true;
  }
  int64_t r;
  if (!slot->is(Type::Int) || !rhs.is(Type::Int) ||
      !intArith(augOp(a->op), slot->asInt(), rhs.asInt(), r))
    return false;
  *slot = Value::integer(r);
  return true;
}
Flow runSetIndex(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value object = s.target->run(*s.target, f, ev);
  Value key = s.key->run(*s.key, f, ev);
  Value rhs = s.value->run(*s.value, f, ev);
  auto* a = static_cast<Assign*>(self.src);
  if (!storeIndexFast(s, object, key, rhs)) ev.storeIndex(a, object, key, std::move(rhs));
  return Flow::Normal;
}
Flow runSetAttr(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value object = s.target->run(*s.target, f, ev);
  Value rhs = s.value->run(*s.value, f, ev);
  ev.storeAttr(static_cast<Assign*>(self.src), object, std::move(rhs));
  return Flow::Normal;
}

struct CControl : CStmt {
  CControl(Stmt* s, Run r) : CStmt(s, r) {}
  std::vector<CExpr*> conds;    // an if's (one per branch), a while's
  std::vector<CBlock*> blocks;  // one per cond, then an if's else block; a loop's body
  CExpr* iterable = nullptr;    // a for's
};
Flow runIf(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CControl&>(self);
  for (size_t i = 0; i < s.conds.size(); ++i)
    if (s.conds[i]->test(*s.conds[i], f, ev)) return ev.runCode(*s.blocks[i], f);
  if (s.blocks.size() > s.conds.size()) return ev.runCode(*s.blocks.back(), f);
  return Flow::Normal;
}
// `if c { ... }` without elif or else, the usual guard.
Flow runIfOnly(const CStmt& self, Frame& f, Evaluator& ev) {
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
[[gnu::always_inline]] inline Flow returnFromIf(const CIfReturn& s, Frame& f, Evaluator& ev) {
  if (!ev.runsClosureCode()) [[unlikely]]
    return ev.runCode(*s.blocks[0], f);
  const CStmt& ret = *s.blocks[0]->stmts[0];
  ev.countStatementStep(ret.src->span);
  if (s.returnSlot != CIfReturn::kNoSlot) {
    const Value& v = f.slots[s.returnSlot];
    if (!v.is(Type::Undefined)) [[likely]] {
      f.result = v;
      return Flow::Return;
    }
  }
  return ret.run(ret, f, ev);  // a literal, nothing, or the NameError
}
Flow runIfReturn(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CIfReturn&>(self);
  const CExpr& cond = *s.conds[0];
  if (!cond.test(cond, f, ev)) return Flow::Normal;
  return returnFromIf(s, f, ev);
}
// `if n < 2 { return n }`: the condition a local compared with an int literal, decided here
// when the local holds an int (as testIntCompare would, Note [Int operator handlers] in
// closure_expr.cpp); anything else is the condition's own test, errors included.
template <CompareOp Op>
Flow runGuardReturn(const CStmt& self, Frame& f, Evaluator& ev) {
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
Flow runWhile(const CStmt& self, Frame& f, Evaluator& ev) {
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
Flow runFor(const CStmt& self, Frame& f, Evaluator& ev) {
  auto& s = static_cast<const CControl&>(self);
  return ev.forEach(static_cast<For*>(self.src), s.iterable->run(*s.iterable, f, ev), s.blocks[0],
                    f);
}

CStmt* compileAssign(ClosureCompiler& cc, Assign* a) {
  switch (a->target->kind) {
    case ExprKind::Name: {
      auto* name = static_cast<Name*>(a->target);
      bool local = name->ref.kind == VarRef::Kind::Local;
      CStmt::Run run = local ? runSetLocal : runSetName;
      bool global = name->ref.kind == VarRef::Kind::Global;
      bool constant = a->value->kind == ExprKind::IntLit;
      if (a->op != AssignOp::Set && constant)
        run = local ? runAugSlotConst<VarRef::Kind::Local>
              : global ? runAugSlotConst<VarRef::Kind::Global> : runAugName;
      else if (a->op != AssignOp::Set)
        run = local ? runAugSlot<VarRef::Kind::Local>
              : global ? runAugSlot<VarRef::Kind::Global> : runAugName;
      auto* n = cc.node<CSimple>(a, run);
      if (constant) n->constant = Value::integer(static_cast<IntLit*>(a->value)->value);
      n->value = cc.expr(a->value);
      n->target = cc.expr(name);
      n->slot = name->ref.index;
      return n;
    }
    case ExprKind::Index: {
      auto* x = static_cast<Index*>(a->target);
      // Other subscripts are an error, raised by the tree walk once the object is evaluated.
      if (x->subs.size() != 1 || x->subs[0].kind != Subscript::Kind::Single) break;
      auto* n = cc.node<CSimple>(a, runSetIndex);
      n->target = cc.expr(x->object);
      n->key = cc.expr(x->subs[0].index);
      n->value = cc.expr(a->value);
      return n;
    }
    case ExprKind::Attr: {
      auto* n = cc.node<CSimple>(a, runSetAttr);
      n->target = cc.expr(static_cast<Attr*>(a->target)->object);
      n->value = cc.expr(a->value);
      return n;
    }
    default:
      break;
  }
  return cc.node<CStmt>(a, runTree);
}

}  // namespace

CStmt* ClosureCompiler::stmt(Stmt* s) {
  switch (s->kind) {
    case StmtKind::ExprStmt: {
      auto* n = node<CSimple>(s, runExprStmt);
      n->value = expr(static_cast<ExprStmt*>(s)->expr);
      return n;
    }
    case StmtKind::Return: {
      Expr* v = static_cast<Return*>(s)->value;
      bool local =
          v && v->kind == ExprKind::Name && static_cast<Name*>(v)->ref.kind == VarRef::Kind::Local;
      auto* n = node<CSimple>(s, local ? runReturnLocal : runReturn);
      if (v) n->value = expr(v);
      if (local) n->slot = static_cast<Name*>(v)->ref.index;
      return n;
    }
    case StmtKind::Break:
      return node<CStmt>(s, runBreak);
    case StmtKind::Continue:
      return node<CStmt>(s, runContinue);
    case StmtKind::Let: {
      auto* let = static_cast<Let*>(s);
      bool local = !let->target->isSeq && let->target->ref.kind == VarRef::Kind::Local;
      auto* n = node<CSimple>(s, local ? runLetLocal : runLet);
      n->value = expr(let->value);
      n->slot = let->target->ref.index;
      return n;
    }
    case StmtKind::Assign:
      return compileAssign(*this, static_cast<Assign*>(s));
    case StmtKind::If: {
      auto* i = static_cast<If*>(s);
      bool only = i->conds.size() == 1 && i->blocks.size() == 1;
      CControl* n;
      if (only && isSimpleReturn(i->blocks[0])) {
        auto* r = node<CIfReturn>(s, runIfReturn);
        if (CStmt::Run guard = guardReturnRun(i->conds[0], r->guardSlot, r->guardBound))
          r->run = guard;
        Expr* v = static_cast<Return*>(i->blocks[0][0])->value;
        if (v && v->kind == ExprKind::Name) r->returnSlot = static_cast<Name*>(v)->ref.index;
        n = r;
      } else {
        n = node<CControl>(s, only ? runIfOnly : runIf);
      }
      for (Expr* c : i->conds) n->conds.push_back(expr(c));
      for (const Block& b : i->blocks) n->blocks.push_back(block(b));
      return n;
    }
    case StmtKind::While: {
      auto* w = static_cast<While*>(s);
      auto* n = node<CControl>(s, runWhile);
      n->conds.push_back(expr(w->cond));
      n->blocks.push_back(block(w->body));
      return n;
    }
    case StmtKind::For: {
      auto* loop = static_cast<For*>(s);
      auto* n = node<CControl>(s, runFor);
      n->iterable = expr(loop->iterable);
      n->blocks.push_back(block(loop->body));
      return n;
    }
    default:
      break;
  }
  return node<CStmt>(s, runTree);
}

CBlock* ClosureCompiler::block(const Block& b) {
  code_.blocks.push_back(std::make_unique<CBlock>());
  CBlock* out = code_.blocks.back().get();
  out->src = &b;
  out->stmts.reserve(b.size());
  for (Stmt* s : b) out->stmts.push_back(stmt(s));
  return out;
}

ClosureCode& closureCode(FnProto& proto) {
  if (!proto.code) {
    std::unique_ptr<ClosureCode, ClosureCodeDeleter> code(new ClosureCode);
    ClosureCompiler compiler(*code);
    code->body.src = &proto.body;
    code->body.stmts.reserve(proto.body.size());
    for (Stmt* s : proto.body) code->body.stmts.push_back(compiler.stmt(s));
    if (!proto.body.empty() && proto.body.back()->kind == StmtKind::Return &&
        static_cast<Return*>(proto.body.back())->value)  // Note [Final return]
      code->finalValue = static_cast<CSimple*>(code->body.stmts.back())->value;
    // No signature to check, no captured parameters: a call with one argument per parameter
    // only fills the frame's first slots (Evaluator::callPlain).
    if (!proto.hasSignature && !proto.hasCellParams && !proto.result)
      proto.plainArity = static_cast<int64_t>(proto.params.size());
    proto.code = std::move(code);
  }
  return *proto.code;
}

void ClosureCodeDeleter::operator()(ClosureCode* code) const {
  delete code;
}

}  // namespace tessel::interp
