// What statements share in the engine: binding names and patterns, stores into names,
// subscripts and attributes, augmented assignment, for loops over every iterable, and making
// closures.
#include "interp/eval/attribute_hooks.h"
#include "interp/eval/engine.h"
#include "interp/eval/iteration.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/tensor_hooks.h"

namespace tessel::interp {

bool testValue(const CExpr& self, Frame& f, Engine& ev) {
  return ev.truthOf(self.run(self, f, ev), self.src);
}


void Engine::bindRef(const VarRef& ref, Value v, Frame& f) {
  switch (ref.kind) {
    case VarRef::Kind::Local:
      f.slots[ref.index] = std::move(v);
      return;
    case VarRef::Kind::LocalCell: {
      // A fresh cell per binding: closures made in earlier loop iterations keep their value.
      f.slots[ref.index] = make<CellObj>(std::move(v)).value();
      return;
    }
    case VarRef::Kind::Global:
      f.module->globals[ref.index] = std::move(v);
      return;
    case VarRef::Kind::Upvalue:
      f.closure->upvalues[ref.index]->value = std::move(v);
      return;
    case VarRef::Kind::Unresolved:
      break;
  }
  TESSEL_ASSERT(false, "binding an unresolved name");
}

void Engine::bind(Pattern* p, Value v, Frame& f) {
  if (!p->isSeq) {
    bindRef(p->ref, std::move(v), f);
    return;
  }
  std::vector<Value> items;
  if (v.is(Type::List))
    items = v.as<ListObj>()->items;
  else if (v.is(Type::Tuple))
    items = v.as<TupleObj>()->items;
  else if (v.is(Type::Tensor) || v.is(Type::Shape)) {
    atStatement();  // its errors are the let's or the for's
    items = tensorHooks().iterate(v);
  }
  else
    raise(ErrorKind::TypeError,
          "cannot unpack a value of type '" + std::string(typeName(v.type())) + "'", p->span);
  if (items.size() != p->elems.size())
    raise(ErrorKind::ValueError,
          "cannot unpack " + std::to_string(items.size()) + " values into " +
              std::to_string(p->elems.size()) + " names",
          p->span);
  for (size_t i = 0; i < items.size(); ++i) bind(p->elems[i], std::move(items[i]), f);
}

void Engine::storeName(Name* n, Value v, Frame& f) {
  switch (n->ref.kind) {
    case VarRef::Kind::Local:
      f.slots[n->ref.index] = std::move(v);
      return;
    case VarRef::Kind::LocalCell: {
      Value& slot = f.slots[n->ref.index];
      if (!slot.is(Type::Cell))
        slot = make<CellObj>(std::move(v)).value();
      else
        slot.as<CellObj>()->value = std::move(v);
      return;
    }
    case VarRef::Kind::Upvalue:
      checkMutableWhileTracing(f.closure->upvalues[n->ref.index]->traceEpoch, "variable");
      f.closure->upvalues[n->ref.index]->value = std::move(v);
      return;
    case VarRef::Kind::Global: {
      checkMutableWhileTracing(0, "global variable");
      Value& slot = f.module->globals[n->ref.index];
      if (slot.is(Type::Undefined))
        raise(ErrorKind::NameError,
              "cannot assign to undeclared variable '" + n->name + "' (declare it with let)",
              n->span);
      slot = std::move(v);
      return;
    }
    case VarRef::Kind::Unresolved:
      break;
  }
  TESSEL_ASSERT(false, "assigning an unresolved name");
}

Value Engine::augmented(Assign* s, const Value& old, Value rhs) {
  static const BinaryOp kAugOps[] = {BinaryOp::Add, BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul,
                                     BinaryOp::Div};
  if (s->op == AssignOp::Set) return rhs;
  int64_t r;
  if (old.is(Type::Int) && rhs.is(Type::Int) &&
      intArith(kAugOps[static_cast<int>(s->op)], old.asInt(), rhs.asInt(), r))
    return Value::integer(r);  // `counts[k] += 1`
  // `xs += ys` extends the list in place, like Python, so aliases see the new items.
  if (s->op == AssignOp::Add && old.is(Type::List) && rhs.is(Type::List)) {
    auto& items = old.as<ListObj>()->items;
    std::vector<Value> more = rhs.as<ListObj>()->items;  // a copy: `xs += xs` is allowed
    items.insert(items.end(), more.begin(), more.end());
    return old;
  }
  at(s->span);
  return binaryOp(kAugOps[static_cast<int>(s->op)], old, rhs);
}

void Engine::storeIndex(Assign* s, const Value& object, const Value& key, Value rhs) {
  at(s->target->span);
  if (s->op != AssignOp::Set) {
    rhs = augmented(s, getIndex(object, key), std::move(rhs));
    at(s->target->span);
  }
  setIndex(object, key, std::move(rhs));
}

void Engine::storeAttr(Assign* s, const Value& object, Value rhs) {
  auto* a = static_cast<Attr*>(s->target);
  at(s->target->span);
  if (s->op != AssignOp::Set) {
    rhs = augmented(s, attributeHooks().get(interp_, object, a->name), std::move(rhs));
    at(s->target->span);
  }
  attributeHooks().set(interp_, object, a->name, std::move(rhs));
}

Flow Engine::forEach(For* s, Value iterable, const CBlock& code, Frame& f) {
  Pattern* target = s->target;
  bool toSlot = !target->isSeq && target->ref.kind == VarRef::Kind::Local;
  const Span& span = s->span;
  return eachItem(iterable, s->iterable->span, [&](Value item) -> Flow {
    checkInterrupt(span);
    countStep(span);  // an iteration is a step even when its body is empty
    if (toSlot)
      f.slots[target->ref.index] = std::move(item);
    else
      bind(target, std::move(item), f);
    return runCode(code, f);
  });
}

Value Engine::makeClosure(FnProto* proto, std::span<const CExpr* const> defaults, Frame& f) {
  Ref<FunctionObj> fn = make<FunctionObj>(proto, Ref<ModuleObj>(f.module));
  fn->upvalues.reserve(proto->upvalues.size());
  for (const UpvalueDesc& up : proto->upvalues) {
    if (up.fromParentLocal) {
      Value& slot = f.slots[up.index];
      // A captured variable that was not yet assigned gets its cell now, so that a later
      // assignment in the parent is seen by the closure.
      if (!slot.is(Type::Cell)) slot = make<CellObj>(Value::undefined()).value();
      fn->upvalues.emplace_back(slot.as<CellObj>());
    } else {
      fn->upvalues.push_back(f.closure->upvalues[up.index]);
    }
  }
  fn->defaults.reserve(proto->params.size());
  for (const CExpr* d : defaults)
    fn->defaults.push_back(d ? d->run(*d, f, *this) : Value::undefined());
  return fn.value();
}

}  // namespace tessel::interp
