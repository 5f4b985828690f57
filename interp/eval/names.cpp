// Names in closure code: locals, captured variables (cells and upvalues), globals and the
// built-ins a module does not shadow; the traced form reports global reads to the tracer.
#include "interp/eval/operands.h"
#include "interp/eval/session.h"
#include "interp/syntax/suggest.h"

#include <algorithm>

namespace tessel::interp {
namespace {

struct CSlot : CExpr {
  CSlot(Expr* e, Run r, uint32_t s) : CExpr(e, r, testValue), slot(s) {}
  uint32_t slot;
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  mutable const ModuleObj* prelude = nullptr;  // whose slot builtinSlot is
  mutable uint32_t builtinSlot = kNoSlot;
};

const std::string& nameOf(const CExpr& self) {
  return static_cast<Name*>(self.src)->name;
}
[[noreturn, gnu::cold]] void unassigned(const CExpr& self, const char* what) {
  raise(ErrorKind::NameError, std::string(what) + " '" + nameOf(self) + "' used before assignment",
        self.src->span);
}

// Note [Built-in slots]
// A global that the module does not define is a built-in (`len`, `str`, `abs`), looked up by
// name in the prelude. The prelude's slots never move (ModuleObj::slotOf only appends), so a
// global's node keeps the prelude slot found at its first such read and reads that slot from
// then on. The module's own global is still checked first (a later definition shadows the
// built-in) and the prelude's value is read each time, so the cache holds no value that could
// go stale.
const Value* builtinOf(const CSlot& s, Engine& ev) {
  ModuleObj& prelude = ev.interpreter().prelude();
  if (s.prelude != &prelude) {
    auto it = prelude.globalIndex.find(nameOf(s));
    if (it == prelude.globalIndex.end()) return nullptr;
    s.prelude = &prelude;
    s.builtinSlot = it->second;
  }
  const Value& b = prelude.globals[s.builtinSlot];
  return b.is(Type::Undefined) ? nullptr : &b;
}

Value runLocal(const CExpr& self, Frame& f, Engine&) {
  const Value& v = f.slots[static_cast<const CSlot&>(self).slot];
  if (!v.is(Type::Undefined)) [[likely]]
    return v;
  unassigned(self, "local variable");
}
Value runLocalCell(const CExpr& self, Frame& f, Engine&) {
  const Value& cell = f.slots[static_cast<const CSlot&>(self).slot];
  if (!cell.is(Type::Cell)) unassigned(self, "local variable");
  return cell.as<CellObj>()->value;
}
Value runUpvalue(const CExpr& self, Frame& f, Engine&) {
  const Value& v = f.closure->upvalues[static_cast<const CSlot&>(self).slot]->value;
  if (v.is(Type::Undefined)) unassigned(self, "variable");
  return v;
}
// The names a misspelt global may have meant: the frame's variables, the module's globals
// and the built-ins.
std::vector<std::string> namesInScope(Frame& f, Engine& ev) {
  std::vector<std::string> names;
  if (f.closure) {
    names = f.closure->proto->slotNames;
    names.insert(names.end(), f.closure->proto->upvalueNames.begin(),
                 f.closure->proto->upvalueNames.end());
  }
  for (const ModuleObj* m : {f.module, &ev.interpreter().prelude()})
    for (auto& [name, slot] : m->globalIndex)
      if (!m->globals[slot].is(Type::Undefined)) names.push_back(name);
  std::sort(names.begin(), names.end());  // the same suggestion whatever the maps' order
  return names;
}
// A global its module does not define (kept out of runGlobal: Note [Frameless fast paths] in
// operators.cpp).
[[gnu::noinline]] Value runUndefinedGlobal(const CExpr& self, Frame& f, Engine& ev) {
  if (const Value* b = builtinOf(static_cast<const CSlot&>(self), ev)) return *b;
  raise(ErrorKind::NameError,
        "name '" + nameOf(self) + "' is not defined" + didYouMean(nameOf(self), namesInScope(f, ev)),
        self.src->span);
}
Value runGlobal(const CExpr& self, Frame& f, Engine& ev) {
  const Value& v = f.module->globals[static_cast<const CSlot&>(self).slot];
  if (!v.is(Type::Undefined)) [[likely]]
    return v;
  return runUndefinedGlobal(self, f, ev);
}
// The traced form: the tracer guards what the body read from its module.
Value runGlobalTraced(const CExpr& self, Frame& f, Engine& ev) {
  uint32_t slot = static_cast<const CSlot&>(self).slot;
  traceContext().hooks->globalRead(*f.module, slot, f.module->globals[slot]);
  return runGlobal(self, f, ev);
}

}  // namespace

CExpr* ClosureCompiler::compileName(Name* n) {
  const VarRef& ref = n->ref;
  switch (ref.kind) {
    case VarRef::Kind::Local:
      return node<CSlot>(n, runLocal, ref.index);
    case VarRef::Kind::LocalCell:
      return node<CSlot>(n, runLocalCell, ref.index);
    case VarRef::Kind::Upvalue:
      return node<CSlot>(n, runUpvalue, ref.index);
    case VarRef::Kind::Global:
      return node<CSlot>(n, traced() ? runGlobalTraced : runGlobal, ref.index);
    case VarRef::Kind::Unresolved:
      break;
  }
  TESSEL_ASSERT(false, "unresolved name " + n->name);
}

COperand operandOf(ClosureCompiler& cc, Expr* e, Opnd& kind) {
  COperand o;
  switch (e->kind) {
    case ExprKind::IntLit:
      kind = Opnd::Const;
      o.value = Value::integer(static_cast<IntLit*>(e)->value);
      return o;
    case ExprKind::FloatLit:
      kind = Opnd::Const;
      o.value = Value::real(static_cast<FloatLit*>(e)->value);
      return o;
    case ExprKind::StrLit:
      kind = Opnd::Const;
      o.value = makeStr(static_cast<StrLit*>(e)->value);  // made once, when compiled
      return o;
    default:
      break;
  }
  o.node = cc.expr(e);
  kind = Opnd::Any;
  if (e->kind == ExprKind::Name) {
    const VarRef& ref = static_cast<Name*>(e)->ref;
    if (ref.kind == VarRef::Kind::Local) {
      kind = Opnd::Local;
      o.slot = ref.index;
    } else if (ref.kind == VarRef::Kind::Global && !cc.traced()) {
      kind = Opnd::Global;
      o.slot = ref.index;
    }
  }
  return o;
}

}  // namespace tessel::interp
