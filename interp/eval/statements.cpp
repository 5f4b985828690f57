// Simple statements in closure code: expression statements, return, break, continue, let,
// assignments (plain and augmented, to names, subscripts and attributes), assert, import and
// fn declarations; their handlers and the compile function of each kind.
#include "interp/eval/engine.h"
#include "interp/eval/session.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"

namespace tessel::interp {
namespace {

struct CSimple : CStmt {
  CSimple(Stmt* s, Run r) : CStmt(s, r) {}
  CExpr* value = nullptr;
  CExpr* target = nullptr;  // an assignment's name, or the object of its index or attribute
  CExpr* key = nullptr;     // an index assignment's subscript
  uint32_t slot = 0;        // a local target's
  Value constant;           // `x op= <literal>`: the literal (runAugSlotConst)
  mutable uint32_t hint = 0;  // an index assignment's last dict entry (DictObj::find)
};

Flow runExprStmt(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  s.value->run(*s.value, f, ev);
  return Flow::Normal;
}
Flow runReturn(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  f.result = s.value ? s.value->run(*s.value, f, ev) : Value::none();
  return Flow::Return;
}
Flow runReturnLocal(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  const Value& v = f.slots[s.slot];
  f.result = !v.is(Type::Undefined) ? v : s.value->run(*s.value, f, ev);  // else the NameError
  return Flow::Return;
}
Flow runBreak(const CStmt&, Frame&, Engine&) {
  return Flow::Break;
}
Flow runContinue(const CStmt&, Frame&, Engine&) {
  return Flow::Continue;
}

Flow runLetLocal(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  f.slots[s.slot] = s.value->run(*s.value, f, ev);
  return Flow::Normal;
}
Flow runLet(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value v = s.value->run(*s.value, f, ev);
  ev.atStatement();  // an unpacking error is the statement's
  ev.bind(static_cast<Let*>(self.src)->target, std::move(v), f);
  return Flow::Normal;
}

// Assignments: the value first, then the target's old value for `x op= v`.
Flow runSetLocal(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value rhs = s.value->run(*s.value, f, ev);
  f.slots[s.slot] = std::move(rhs);
  return Flow::Normal;
}
// storeName for a name that is not a plain local: a global's store, the assignment of
// top-level loops, is done here when it cannot fail and no trace runs (which would check it).
void storeNonLocal(Engine& ev, Name* name, Value v, Frame& f) {
  if (name->ref.kind == VarRef::Kind::Global) {
    Value& slot = f.module->globals[name->ref.index];
    if (!slot.is(Type::Undefined) && currentTraceEpoch() == 0) [[likely]] {
      slot = std::move(v);
      return;
    }
  }
  ev.storeName(name, std::move(v), f);
}
Flow runSetName(const CStmt& self, Frame& f, Engine& ev) {
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
// `x op= v` with the value `rhs` in hand: then the target's old value, in that order.
Flow augmentName(const CSimple& s, Value rhs, Frame& f, Engine& ev) {
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
Flow runAugName(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  return augmentName(s, s.value->run(*s.value, f, ev), f, ev);
}
// `i += 1` on a local or global slot: an int result replaces the int in place (for a global,
// where storeNonLocal would store it); anything else goes the general way.
template <VarRef::Kind K>
[[gnu::noinline]] Flow runAugSlot(const CStmt& self, Frame& f, Engine& ev) {
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
// paths] in operators.cpp); anything but ints is left to runAugSlot.
template <VarRef::Kind K>
Flow runAugSlotConst(const CStmt& self, Frame& f, Engine& ev) {
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
Flow runSetIndex(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value object = s.target->run(*s.target, f, ev);
  Value key = s.key->run(*s.key, f, ev);
  Value rhs = s.value->run(*s.value, f, ev);
  auto* a = static_cast<Assign*>(self.src);
  if (!storeIndexFast(s, object, key, rhs)) ev.storeIndex(a, object, key, std::move(rhs));
  return Flow::Normal;
}
Flow runSetAttr(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  Value object = s.target->run(*s.target, f, ev);
  Value rhs = s.value->run(*s.value, f, ev);
  ev.storeAttr(static_cast<Assign*>(self.src), object, std::move(rhs));
  return Flow::Normal;
}


// `xs[a:b] = v`, `x[i, j] = v`: what the index assignment does not take, an error once the
// object is evaluated.
Flow runSetOther(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  s.target->run(*s.target, f, ev);
  raise(ErrorKind::TypeError, "only single-index assignment is supported: xs[i] = v",
        static_cast<Assign*>(self.src)->target->span);
}

Flow runBadTarget(const CStmt& self, Frame&, Engine&) {
  raise(ErrorKind::SyntaxError, "cannot assign to this expression",
        static_cast<Assign*>(self.src)->target->span);
}

Flow runAssert(const CStmt& self, Frame& f, Engine& ev) {
  auto& s = static_cast<const CSimple&>(self);
  auto* a = static_cast<Assert*>(self.src);
  if (s.value->test(*s.value, f, ev)) return Flow::Normal;
  std::string message = s.target ? str(s.target->run(*s.target, f, ev)) : "assertion failed";
  raise(ErrorKind::AssertionError, message, a->cond->span);
}

Flow runImport(const CStmt& self, Frame& f, Engine& ev) {
  auto* n = static_cast<Import*>(self.src);
  Value module = ev.interpreter().importModule(n->module, n->isPath, f.module->path, n->span);
  ev.bindRef(n->ref, module, f);
  return Flow::Normal;
}

struct CFnDecl : CStmt {
  CFnDecl(Stmt* s, Run r) : CStmt(s, r) {}
  std::vector<const CExpr*> defaults;    // per parameter, null where it has none
  std::vector<const CExpr*> decorators;  // in source order
};
Flow runFnDecl(const CStmt& self, Frame& f, Engine& ev) {
  auto& d = static_cast<const CFnDecl&>(self);
  auto* s = static_cast<FnDecl*>(self.src);
  // A nested fn that calls itself captures its own name: its cell must exist before the
  // closure is made. A fn declared earlier in the block may already have captured this cell:
  // keep it.
  if (s->ref.kind == VarRef::Kind::LocalCell && !f.slots[s->ref.index].is(Type::Cell))
    f.slots[s->ref.index] = make<CellObj>(Value::undefined()).value();
  Value fn = ev.makeClosure(s->proto, d.defaults, f);
  for (size_t i = s->decorators.size(); i-- > 0;) {
    Value deco = d.decorators[i]->run(*d.decorators[i], f, ev);
    Value args[] = {fn};
    fn = ev.callAny(deco, args, {}, {}, s->decorators[i]->span);
  }
  if (s->ref.kind == VarRef::Kind::LocalCell)
    f.slots[s->ref.index].as<CellObj>()->value = fn;
  else
    ev.bindRef(s->ref, fn, f);
  return Flow::Normal;
}

}  // namespace

const CExpr* finalReturnValue(const CStmt& ret) {
  return static_cast<const CSimple&>(ret).value;
}

CStmt* ClosureCompiler::compileExprStmt(ExprStmt* s) {
  auto* n = node<CSimple>(s, runExprStmt);
  n->value = expr(s->expr);
  return n;
}

CStmt* ClosureCompiler::compileReturn(Return* s) {
  Expr* v = s->value;
  bool local =
      v && v->kind == ExprKind::Name && static_cast<Name*>(v)->ref.kind == VarRef::Kind::Local;
  auto* n = node<CSimple>(s, local ? runReturnLocal : runReturn);
  if (v) n->value = expr(v);
  if (local) n->slot = static_cast<Name*>(v)->ref.index;
  return n;
}

CStmt* ClosureCompiler::compileBreak(Break* s) {
  return node<CStmt>(s, runBreak);
}

CStmt* ClosureCompiler::compileContinue(Continue* s) {
  return node<CStmt>(s, runContinue);
}

CStmt* ClosureCompiler::compileLet(Let* let) {
  bool local = !let->target->isSeq && let->target->ref.kind == VarRef::Kind::Local;
  auto* n = node<CSimple>(let, local ? runLetLocal : runLet);
  n->value = expr(let->value);
  n->slot = let->target->ref.index;
  return n;
}

CStmt* ClosureCompiler::compileAssign(Assign* a) {
  switch (a->target->kind) {
    case ExprKind::Name: {
      auto* name = static_cast<Name*>(a->target);
      bool local = name->ref.kind == VarRef::Kind::Local;
      CStmt::Run run = local ? runSetLocal : runSetName;
      // The traced form reads a global through its node, which reports the read.
      bool global = name->ref.kind == VarRef::Kind::Global && !traced();
      bool constant = a->value->kind == ExprKind::IntLit;
      if (a->op != AssignOp::Set && constant)
        run = local ? runAugSlotConst<VarRef::Kind::Local>
              : global ? runAugSlotConst<VarRef::Kind::Global> : runAugName;
      else if (a->op != AssignOp::Set)
        run = local ? runAugSlot<VarRef::Kind::Local>
              : global ? runAugSlot<VarRef::Kind::Global> : runAugName;
      auto* n = node<CSimple>(a, run);
      if (constant) n->constant = Value::integer(static_cast<IntLit*>(a->value)->value);
      n->value = expr(a->value);
      n->target = expr(name);
      n->slot = name->ref.index;
      return n;
    }
    case ExprKind::Index: {
      auto* x = static_cast<Index*>(a->target);
      if (x->subs.size() != 1 || x->subs[0].kind != Subscript::Kind::Single) {
        auto* n = node<CSimple>(a, runSetOther);
        n->target = expr(x->object);
        return n;
      }
      auto* n = node<CSimple>(a, runSetIndex);
      n->target = expr(x->object);
      n->key = expr(x->subs[0].index);
      n->value = expr(a->value);
      return n;
    }
    case ExprKind::Attr: {
      auto* n = node<CSimple>(a, runSetAttr);
      n->target = expr(static_cast<Attr*>(a->target)->object);
      n->value = expr(a->value);
      return n;
    }
    default:
      break;
  }
  return node<CStmt>(a, runBadTarget);
}


CStmt* ClosureCompiler::compileAssert(Assert* a) {
  auto* n = node<CSimple>(a, runAssert);
  n->value = expr(a->cond);
  if (a->message) n->target = expr(a->message);
  return n;
}

CStmt* ClosureCompiler::compileImport(Import* s) {
  return node<CStmt>(s, runImport);
}

CStmt* ClosureCompiler::compileFnDecl(FnDecl* s) {
  auto* n = node<CFnDecl>(s, runFnDecl);
  n->defaults = defaultsOf(*this, *s->proto);
  for (Expr* d : s->decorators) n->decorators.push_back(expr(d));
  return n;
}

}  // namespace tessel::interp
