// Expression evaluation. Spans are attached to UserErrors here, in one place (Note [Spans]).
#include <cmath>

#include "interp/attributes.h"
#include "interp/diagnostics.h"
#include "interp/evaluator.h"
#include "interp/interpreter.h"
#include "interp/ops.h"
#include "interp/printer.h"
#include "interp/stack_guard.h"
#include "interp/sym_value.h"
#include "interp/tensor_bridge.h"

namespace tessel::interp {

// Note [Spans]
// Natives and operators throw plain UserErrors: they do not know where in the script they run.
// evalNode() catches them once, at the innermost expression being evaluated, and rethrows them
// as ScriptErrors carrying that expression's span; ScriptErrors pass through untouched. A try
// block costs nothing until something throws.
//
// Note [Fast paths]
// The tree walk is kept fast by doing the common cases first and without allocation: eval()
// (evaluator.h) answers int literals and locals inline; evalRef() reads locals and string
// literals without copying them; binary operators and comparisons on two ints or two floats
// never reach the generic operators; calls of Tessel fns with positional arguments evaluate
// them straight into the callee's frame (eval_call.cpp); method calls cache their lookup.

Value Evaluator::evalName(Name* n, Frame& f) {
  switch (n->ref.kind) {
    case VarRef::Kind::Local: {
      const Value& v = f.slots[n->ref.index];
      if (v.is(Type::Undefined))
        raise(ErrorKind::NameError, "local variable '" + n->name + "' used before assignment",
              n->span);
      return v;
    }
    case VarRef::Kind::LocalCell: {
      const Value& cell = f.slots[n->ref.index];
      if (!cell.is(Type::Cell))
        raise(ErrorKind::NameError, "local variable '" + n->name + "' used before assignment",
              n->span);
      return cell.as<CellObj>()->value;
    }
    case VarRef::Kind::Upvalue: {
      const Value& v = f.closure->upvalues[n->ref.index]->value;
      if (v.is(Type::Undefined))
        raise(ErrorKind::NameError, "variable '" + n->name + "' used before assignment", n->span);
      return v;
    }
    case VarRef::Kind::Global: {
      const Value& v = f.module->globals[n->ref.index];
      if (traceHooks_) [[unlikely]]
        traceHooks_->globalRead(*f.module, n->ref.index, v);
      if (!v.is(Type::Undefined)) return v;
      if (Value* builtin = interp_.prelude().lookup(n->name)) return *builtin;
      raise(ErrorKind::NameError, "name '" + n->name + "' is not defined", n->span);
    }
    case VarRef::Kind::Unresolved:
      break;
  }
  TESSEL_ASSERT(false, "unresolved name " + n->name);
}

Value Evaluator::evalNode(Expr* e, Frame& f) try {
  switch (e->kind) {
    case ExprKind::IntLit:
      return Value::integer(static_cast<IntLit*>(e)->value);
    case ExprKind::FloatLit:
      return Value::real(static_cast<FloatLit*>(e)->value);
    case ExprKind::StrLit:
      return static_cast<StrLit*>(e)->cached;

    case ExprKind::BoolLit:
      return Value::boolean(static_cast<BoolLit*>(e)->value);
    case ExprKind::NoneLit:
      return Value::none();
    case ExprKind::Name:
      return evalName(static_cast<Name*>(e), f);
    case ExprKind::TupleLit: {
      std::vector<Value> items;
      for (Expr* x : static_cast<TupleLit*>(e)->elems) items.push_back(eval(x, f));
      return makeTuple(std::move(items));
    }
    case ExprKind::ListLit: {
      auto* l = static_cast<ListLit*>(e);
      std::vector<Value> items;
      items.reserve(l->elems.size());
      for (Expr* x : l->elems) items.push_back(eval(x, f));
      return makeList(std::move(items));
    }
    case ExprKind::DictLit: {
      auto* d = static_cast<DictLit*>(e);
      Ref<DictObj> out = make<DictObj>();
      out->entries.reserve(d->keys.size());  // at most one allocation for the entries
      for (size_t i = 0; i < d->keys.size(); ++i) {
        Value k = eval(d->keys[i], f);
        if (!k.is(Type::Str))
          raise(ErrorKind::TypeError,
                "dict keys must be str, not '" + std::string(typeName(k.type())) + "'",
                d->keys[i]->span);
        out->set(k.as<StrObj>()->str, eval(d->values[i], f));
      }
      return out.value();
    }
    case ExprKind::Unary: {
      auto* u = static_cast<Unary*>(e);
      return unaryOp(u->op, eval(u->operand, f));
    }
    case ExprKind::Binary:
      return evalBinary(static_cast<Binary*>(e), f);
    case ExprKind::Compare:
      return evalCompare(static_cast<Compare*>(e), f);
    case ExprKind::Logical: {
      // `and`/`or` return an operand, like Python: `x or default`.
      auto* l = static_cast<Logical*>(e);
      Value lhs = eval(l->lhs, f);
      bool t = truthy(lhs);
      if (l->isAnd ? !t : t) return lhs;
      return eval(l->rhs, f);
    }
    case ExprKind::Not:
      return Value::boolean(!truthy(eval(static_cast<Not*>(e)->operand, f)));
    case ExprKind::Ternary: {
      auto* t = static_cast<Ternary*>(e);
      return truthy(eval(t->cond, f)) ? eval(t->then, f) : eval(t->otherwise, f);
    }
    case ExprKind::Call:
      return evalCall(static_cast<Call*>(e), f);
    case ExprKind::Index:
      return evalIndex(static_cast<Index*>(e), f);
    case ExprKind::Attr: {
      auto* a = static_cast<Attr*>(e);
      return getAttribute(interp_, eval(a->object, f), a->name);
    }
    case ExprKind::Lambda:
      return makeClosure(static_cast<Lambda*>(e)->proto, f);
  }
  return Value::none();
} catch (const ScriptError&) {
  throw;
} catch (const UserError& err) {
  throw ScriptError(err.kind(), err.what(), e->span);
}

Value Evaluator::evalBinary(Binary* b, Frame& f) {
  int64_t x, y, r;
  if (intOperand(b->lhs, f, x) && intOperand(b->rhs, f, y) && intArith(b->op, x, y, r))
    return Value::integer(r);  // `n - 1`, `i * j`: no Value is built for the operands
  checkStack(b->span);
  Value lt, rt;

  const Value& lhs = evalRef(b->lhs, f, lt);
  const Value& rhs = evalRef(b->rhs, f, rt);
  // The int fast path: no overflow, no allocation.
  if (lhs.is(Type::Int) && rhs.is(Type::Int)) {
    if (intArith(b->op, lhs.asInt(), rhs.asInt(), r)) return Value::integer(r);
  } else if (lhs.is(Type::Float) && rhs.is(Type::Float)) {
    double d;
    if (floatArith(b->op, lhs.asFloat(), rhs.asFloat(), d)) return Value::real(d);
  }
  return binarySlow(b, lhs, rhs);
}

Value Evaluator::binarySlow(Binary* b, const Value& lhs, const Value& rhs) try {
  return binaryOp(b->op, lhs, rhs);
} catch (const ScriptError&) {
  throw;
} catch (const UserError& err) {
  throw ScriptError(err.kind(), err.what(), b->span);
}

Value Evaluator::evalCompare(Compare* c, Frame& f) {
  int64_t x, y;
  bool ok;
  if (c->ops.size() == 1 && intOperand(c->operands[0], f, x) && intOperand(c->operands[1], f, y)) {
    bool holds = compareInts(c->ops[0], x, y, ok);
    if (ok) return Value::boolean(holds);
  }
  Value lt, rt;
  const Value& lhs = evalRef(c->operands[0], f, lt);
  const Value& rhs = evalRef(c->operands[1], f, rt);
  if (c->ops.size() == 1 && lhs.is(Type::Int) && rhs.is(Type::Int)) {
    bool holds = compareInts(c->ops[0], lhs.asInt(), rhs.asInt(), ok);
    if (ok) return Value::boolean(holds);
  }

  return compareChain(c, f, lhs, rhs);
}

// The general case: any types, chains evaluated left to right and stopped at the first false.
Value Evaluator::compareChain(Compare* c, Frame& f, Value lhs, Value rhs) try {
  for (size_t i = 0;; ++i) {
    if (i > 0) rhs = eval(c->operands[i + 1], f);
    bool holds;
    if (lhs.is(Type::Int) && rhs.is(Type::Int)) {
      int64_t x = lhs.asInt(), y = rhs.asInt();
      switch (c->ops[i]) {
        case CompareOp::Eq:
          holds = x == y;
          break;
        case CompareOp::Ne:
          holds = x != y;
          break;
        case CompareOp::Lt:
          holds = x < y;
          break;
        case CompareOp::Le:
          holds = x <= y;
          break;
        case CompareOp::Gt:
          holds = x > y;
          break;
        case CompareOp::Ge:
          holds = x >= y;
          break;
        default:
          holds = compareValues(c->ops[i], lhs, rhs);
      }
    } else if ((lhs.is(Type::SymInt) || rhs.is(Type::SymInt)) && c->ops.size() == 1 &&
               c->ops[0] != CompareOp::In && c->ops[0] != CompareOp::NotIn) {
      // A comparison of sizes stays symbolic until a branch needs its truth (a guard).
      return symCompare(c->ops[0], lhs, rhs);
    } else if (lhs.is(Type::Tensor) || rhs.is(Type::Tensor)) {
      // Tensor comparisons are elementwise and give a bool tensor; they do not chain.
      if (c->ops.size() > 1)
        raise(ErrorKind::TypeError, "chained comparisons are not supported on tensors", c->span);
      return tensorCompare(c->ops[i], lhs, rhs);
    } else {
      holds = compareValues(c->ops[i], lhs, rhs);
    }
    if (!holds) return Value::boolean(false);
    if (i + 1 == c->ops.size()) return Value::boolean(true);
    lhs = std::move(rhs);
  }
} catch (const ScriptError&) {
  throw;
} catch (const UserError& err) {
  throw ScriptError(err.kind(), err.what(), c->span);
}

namespace {

std::optional<shapes::SymInt> symSliceBound(const Value& v, const char* what) {
  if (v.is(Type::None)) return std::nullopt;
  if (isIntLike(v)) return toSymInt(v);
  throwUserError(ErrorKind::TypeError, std::string("slice ") + what +
                                           " must be int or none, not '" +
                                           std::string(typeName(v.type())) + "'");
}

std::optional<int64_t> sliceBound(const Value& v, const char* what) {
  auto b = symSliceBound(v, what);
  if (!b) return std::nullopt;
  return shapes::evaluateInt(*b);  // lists and strings need the concrete bound
}

}  // namespace

Value Evaluator::evalIndex(Index* x, Frame& f) {
  Value ot;
  const Value& object = evalRef(x->object, f, ot);
  if (object.is(Type::Tensor)) {
    std::vector<IndexItem> items;
    for (Subscript& s : x->subs) {
      IndexItem item;
      item.kind = s.kind;
      if (s.kind == Subscript::Kind::Single) item.index = eval(s.index, f);
      if (s.kind == Subscript::Kind::Slice) {
        if (s.lo) item.lo = symSliceBound(eval(s.lo, f), "start");
        if (s.hi) item.hi = symSliceBound(eval(s.hi, f), "stop");
        item.step = s.step ? sliceBound(eval(s.step, f), "step") : std::nullopt;
      }
      items.push_back(std::move(item));
    }
    return tensorIndex(interp_, object, items);
  }
  if (x->subs.size() != 1 || x->hasTuple)
    raise(ErrorKind::TypeError,
          "'" + std::string(typeName(object.type())) + "' takes a single index", x->span);
  Subscript& s = x->subs[0];
  switch (s.kind) {
    case Subscript::Kind::Single: {
      Value it;
      const Value& index = evalRef(s.index, f, it);
      if (object.is(Type::List) && index.is(Type::Int)) {
        const auto& items = object.as<ListObj>()->items;
        int64_t i = index.asInt(), n = static_cast<int64_t>(items.size());
        if (i < 0) i += n;
        if (i >= 0 && i < n) return items[i];
      }
      return getIndex(object, index);
    }

    case Subscript::Kind::Slice: {
      auto lo = s.lo ? sliceBound(eval(s.lo, f), "start") : std::nullopt;
      auto hi = s.hi ? sliceBound(eval(s.hi, f), "stop") : std::nullopt;
      auto step = s.step ? sliceBound(eval(s.step, f), "step") : std::nullopt;
      return getSlice(object, lo, hi, step);
    }
    case Subscript::Kind::Ellipsis:
      break;
  }
  raise(ErrorKind::TypeError, "'...' indexes tensors only", x->span);
}

// evalIndex for closure code, whose Index nodes have one plain subscript: the same results,
// and errors at the Index as evalNode gives them.
Value Evaluator::indexOp(Index* x, const Value& object, const Value& index) try {
  if (object.is(Type::Tensor)) {
    std::vector<IndexItem> items(1);
    items[0].kind = Subscript::Kind::Single;
    items[0].index = index;
    return tensorIndex(interp_, object, items);
  }
  return getIndex(object, index);
} catch (const ScriptError&) {
  throw;
} catch (const UserError& err) {
  throw ScriptError(err.kind(), err.what(), x->span);
}

Value Evaluator::makeClosure(FnProto* proto, Frame& f) {
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
  for (auto& p : proto->params)
    fn->defaults.push_back(p.defaultValue ? eval(p.defaultValue, f) : Value::undefined());
  return fn.value();
}

}  // namespace tessel::interp
