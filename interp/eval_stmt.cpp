// Statement execution: bindings, assignment, control flow, loops, imports.
#include "interp/attributes.h"
#include "interp/closure_code.h"
#include "interp/diagnostics.h"
#include "interp/evaluator.h"
#include "interp/graph_break.h"
#include "interp/interpreter.h"
#include "interp/ops.h"
#include "interp/printer.h"
#include "interp/stack_guard.h"
#include "interp/tensor_bridge.h"

namespace tessel::interp {

bool Evaluator::conditionSlow(Expr* e, Frame& f) {
  Value v;
  if (e->kind == ExprKind::Compare && static_cast<Compare*>(e)->ops.size() == 1) {
    auto* c = static_cast<Compare*>(e);
    bool ok;
    Value lt, rt;
    const Value& lhs = evalRef(c->operands[0], f, lt);
    const Value& rhs = evalRef(c->operands[1], f, rt);
    if (lhs.is(Type::Int) && rhs.is(Type::Int)) {
      bool holds = compareInts(c->ops[0], lhs.asInt(), rhs.asInt(), ok);
      if (ok) return holds;
    }
    v = compareChain(c, f, lhs, rhs);
  } else {
    v = eval(e, f);
  }
  return truthOf(v, e);
}

bool Evaluator::truthOf(const Value& v, Expr* e) {
  if (v.is(Type::Bool)) [[likely]]
    return v.asBool();
  try {
    return truthy(v);
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    throw ScriptError(err.kind(), err.what(), e->span);
  }
}

Flow Evaluator::execStatements(Stmt* const* it, Stmt* const* end, Frame& f) {
  try {
    for (; it != end; ++it) {
      countStep((*it)->span);
      Flow flow = exec(*it, f);
      if (flow != Flow::Normal) return flow;
    }
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    // Errors a statement raises outside any expression (a branch on a data-dependent size, an
    // unpacking mismatch) get the statement's span; expression errors already have theirs.
    throw ScriptError(err.kind(), err.what(), conditionSpan(*it));
  } catch (const std::bad_alloc&) {
    // Host memory ran out inside a container or a kernel's buffer: the statement fails, the
    // session goes on.
    throw ScriptError(ErrorKind::DeviceError, "out of memory", conditionSpan(*it));
  }
  return Flow::Normal;
}

Flow Evaluator::runBody(FnProto& proto, Frame& f) {
  if (!runsClosureCode()) [[unlikely]]
    return execBlock(proto.body, f);
  ClosureCode* code = proto.code.get();
  if (!code) [[unlikely]]
    code = &closureCode(proto);
  return runStatements(code->body.stmts.data(), code->body.stmts.data() + code->body.stmts.size(),
                       f);
}

void Evaluator::bindRef(const VarRef& ref, Value v, Frame& f) {
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

void Evaluator::bind(Pattern* p, Value v, Frame& f) {
  if (!p->isSeq) {
    bindRef(p->ref, std::move(v), f);
    return;
  }
  std::vector<Value> items;
  if (v.is(Type::List))
    items = v.as<ListObj>()->items;
  else if (v.is(Type::Tuple))
    items = v.as<TupleObj>()->items;
  else if (v.is(Type::Tensor) || v.is(Type::Shape))
    items = iterateTensorLike(v);
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

void Evaluator::storeName(Name* n, Value v, Frame& f) {
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

Value Evaluator::augmented(Assign* s, const Value& old, Value rhs) {
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
  try {
    return binaryOp(kAugOps[static_cast<int>(s->op)], old, rhs);
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    throw ScriptError(err.kind(), err.what(), s->span);
  }
}

void Evaluator::storeIndex(Assign* s, const Value& object, const Value& key, Value rhs) {
  try {
    if (s->op != AssignOp::Set) rhs = augmented(s, getIndex(object, key), std::move(rhs));
    setIndex(object, key, std::move(rhs));
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    throw ScriptError(err.kind(), err.what(), s->target->span);
  }
}

void Evaluator::storeAttr(Assign* s, const Value& object, Value rhs) {
  auto* a = static_cast<Attr*>(s->target);
  try {
    if (s->op != AssignOp::Set)
      rhs = augmented(s, getAttribute(interp_, object, a->name), std::move(rhs));
    setAttribute(interp_, object, a->name, std::move(rhs));
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    throw ScriptError(err.kind(), err.what(), s->target->span);
  }
}

void Evaluator::execAssign(Assign* s, Frame& f) {
  switch (s->target->kind) {
    case ExprKind::Name: {
      auto* n = static_cast<Name*>(s->target);
      Value rhs = eval(s->value, f);
      storeName(
          n, s->op == AssignOp::Set ? std::move(rhs) : augmented(s, eval(n, f), std::move(rhs)), f);
      return;
    }
    case ExprKind::Index: {
      auto* x = static_cast<Index*>(s->target);
      Value object = eval(x->object, f);
      if (x->subs.size() != 1 || x->subs[0].kind != Subscript::Kind::Single)
        raise(ErrorKind::TypeError, "only single-index assignment is supported: xs[i] = v",
              x->span);
      Value key = eval(x->subs[0].index, f);
      Value rhs = eval(s->value, f);
      storeIndex(s, object, key, std::move(rhs));
      return;
    }
    case ExprKind::Attr: {
      auto* a = static_cast<Attr*>(s->target);
      Value object = eval(a->object, f);
      Value rhs = eval(s->value, f);
      storeAttr(s, object, std::move(rhs));
      return;
    }
    default:
      break;
  }
  raise(ErrorKind::SyntaxError, "cannot assign to this expression", s->target->span);
}

void Evaluator::execFnDecl(FnDecl* s, Frame& f) {
  // A nested fn that calls itself captures its own name: its cell must exist before the
  // closure is made.
  // A fn declared earlier in the block may already have captured this cell: keep it.
  if (s->ref.kind == VarRef::Kind::LocalCell && !f.slots[s->ref.index].is(Type::Cell))
    f.slots[s->ref.index] = make<CellObj>(Value::undefined()).value();
  Value fn = makeClosure(s->proto, f);
  for (size_t i = s->decorators.size(); i-- > 0;) {
    Value deco = eval(s->decorators[i], f);
    Value args[] = {fn};
    fn = callValue(deco, args, {}, {}, s->decorators[i]->span);
  }
  if (s->ref.kind == VarRef::Kind::LocalCell)
    f.slots[s->ref.index].as<CellObj>()->value = fn;
  else
    bindRef(s->ref, fn, f);
}

Flow Evaluator::execFor(For* s, Frame& f) {
  return forEach(s, eval(s->iterable, f), nullptr, f);
}

Flow Evaluator::forEach(For* s, Value iterable, const CBlock* code, Frame& f) {
  Pattern* target = s->target;
  bool toSlot = !target->isSeq && target->ref.kind == VarRef::Kind::Local;
  const Span& span = s->span;
  auto body = [&](Value item) -> Flow {
    checkInterrupt(span);
    countStep(span);  // an iteration is a step even when its body is empty
    if (toSlot)
      f.slots[target->ref.index] = std::move(item);
    else
      bind(target, std::move(item), f);
    return code ? runCode(*code, f) : execBlock(s->body, f);
  };
  switch (iterable.type()) {
    case Type::Range: {
      auto* r = iterable.as<RangeObj>();
      int64_t n = r->size();
      for (int64_t i = 0, v = r->start; i < n; ++i, v += r->step) {
        Flow flow = body(Value::integer(v));
        if (flow == Flow::Break) break;
        if (flow == Flow::Return) return flow;
      }
      return Flow::Normal;
    }
    case Type::List: {
      // Index-based so that appending inside the loop is seen, as in Python.
      auto* l = iterable.as<ListObj>();
      for (size_t i = 0; i < l->items.size(); ++i) {
        Flow flow = body(l->items[i]);
        if (flow == Flow::Break) break;
        if (flow == Flow::Return) return flow;
      }
      return Flow::Normal;
    }
    default:
      break;
  }
  std::vector<Value> items;
  switch (iterable.type()) {
    case Type::Tuple:
      items = iterable.as<TupleObj>()->items;
      break;
    case Type::Dict:
      for (auto& [k, v] : iterable.as<DictObj>()->entries) items.push_back(makeStr(k));
      break;
    case Type::Str:
      for (auto& ch : utf8Chars(iterable.as<StrObj>()->str)) items.push_back(makeStr(ch));
      break;
    case Type::Tensor:
    case Type::Shape:
      try {
        items = iterateTensorLike(iterable);
      } catch (const ScriptError&) {
        throw;
      } catch (const UserError& err) {
        throw ScriptError(err.kind(), err.what(), s->iterable->span);
      }
      break;
    default:
      raise(ErrorKind::TypeError,
            "'" + std::string(typeName(iterable.type())) + "' is not iterable", s->iterable->span);
  }
  for (Value& item : items) {
    Flow flow = body(std::move(item));
    if (flow == Flow::Break) break;
    if (flow == Flow::Return) return flow;
  }
  return Flow::Normal;
}

// A statement run while tracing: the tracer records where guards come from, and a statement
// that turns out to need data (a branch on a data-dependent size, which the shape engine
// reports as a DataDependentError) is a graph break at the innermost statement, which is the
// first to see the error.
Flow Evaluator::execTraced(Stmt* s, Frame& f) {
  TraceHooks* hooks = traceHooks_;
  hooks->enterStatement(s, conditionSpan(s));
  struct Leave {
    TraceHooks* h;
    ~Leave() { h->leaveStatement(); }
  } leave{hooks};
  try {
    return execStmt(s, f);
  } catch (const UserError& err) {
    if (err.kind() != ErrorKind::DataDependentError || !hooks->breaksAllowed()) throw;
    hooks->graphBreak(err.kind(), err.what());
    throw;  // not reached (graphBreak is [[noreturn]]), but GCC warns of a missing return
  }
}

Span Evaluator::conditionSpan(Stmt* s) {
  // Guards and branch errors point at the condition (`at f.dsl:6:8: if x.shape[0] <= 30`).
  switch (s->kind) {
    case StmtKind::If:
      return static_cast<If*>(s)->conds[0]->span;
    case StmtKind::While:
      return static_cast<While*>(s)->cond->span;
    case StmtKind::Assert:
      return static_cast<Assert*>(s)->cond->span;
    default:
      return s->span;
  }
}

// Each kind runs in its own small function, so that the dispatch below stays cheap: the hot
// statements (if, return, expression statements) do not pay for the rarer ones' frames.
Flow Evaluator::execStmt(Stmt* s, Frame& f) {
  switch (s->kind) {
    case StmtKind::Let: {
      auto* n = static_cast<Let*>(s);
      bind(n->target, eval(n->value, f), f);
      return Flow::Normal;
    }
    case StmtKind::Assign:
      execAssign(static_cast<Assign*>(s), f);
      return Flow::Normal;
    case StmtKind::ExprStmt:
      eval(static_cast<ExprStmt*>(s)->expr, f);
      return Flow::Normal;
    case StmtKind::FnDecl:
      execFnDecl(static_cast<FnDecl*>(s), f);
      return Flow::Normal;
    case StmtKind::If: {
      auto* n = static_cast<If*>(s);
      for (size_t i = 0; i < n->conds.size(); ++i)
        if (condition(n->conds[i], f)) return execBlock(n->blocks[i], f);
      if (n->blocks.size() > n->conds.size()) return execBlock(n->blocks.back(), f);
      return Flow::Normal;
    }
    case StmtKind::While:
      return execWhile(static_cast<While*>(s), f);
    case StmtKind::For:
      return execFor(static_cast<For*>(s), f);
    case StmtKind::Break:
      return Flow::Break;
    case StmtKind::Continue:
      return Flow::Continue;
    case StmtKind::Return: {
      auto* n = static_cast<Return*>(s);
      f.result = n->value ? eval(n->value, f) : Value::none();
      return Flow::Return;
    }
    case StmtKind::Assert:
      execAssert(static_cast<Assert*>(s), f);
      return Flow::Normal;
    case StmtKind::Import:
      execImport(static_cast<Import*>(s), f);
      return Flow::Normal;
  }
  return Flow::Normal;
}

Flow Evaluator::execWhile(While* n, Frame& f) {
  while (condition(n->cond, f)) {
    checkInterrupt(n->span);
    countStep(n->span);
    Flow flow = execBlock(n->body, f);
    if (flow == Flow::Break) break;
    if (flow == Flow::Return) return flow;
  }
  return Flow::Normal;
}

void Evaluator::execAssert(Assert* n, Frame& f) {
  if (condition(n->cond, f)) return;
  std::string message = n->message ? str(eval(n->message, f)) : "assertion failed";
  raise(ErrorKind::AssertionError, message, n->cond->span);
}

void Evaluator::execImport(Import* n, Frame& f) {
  Value module = interp_.importModule(n->module, n->isPath, f.module->path, n->span);
  bindRef(n->ref, module, f);
}

Value Evaluator::runModule(FnProto* proto, ModuleObj& module, bool echo) {
  if (!hasRoomFor(proto->numSlots))
    raise(ErrorKind::LimitError, "out of interpreter stack", proto->span);
  Value* base = top_;
  top_ += proto->numSlots;
  struct Pop {
    Evaluator& e;
    Value* base;
    ~Pop() {
      for (Value* v = base; v < e.top_; ++v) *v = Value::undefined();
      e.top_ = base;
    }
  } pop{*this, base};
  Value* slots = base;
  for (size_t i = 0; i < proto->numSlots; ++i) slots[i] = Value::undefined();
  Frame frame{slots, nullptr, &module, Value()};
  const Block& body = proto->body;
  // Top-level code is closure code too (loops at top level are common), unless it is traced.
  ClosureCode* code = runsClosureCode() ? &closureCode(*proto) : nullptr;
  for (size_t i = 0; i < body.size(); ++i) {
    Stmt* s = body[i];
    if (echo && i + 1 == body.size() && s->kind == StmtKind::ExprStmt)
      return eval(static_cast<ExprStmt*>(s)->expr, frame);
    Flow flow = code ? runStatements(&code->body.stmts[i], &code->body.stmts[i] + 1, frame)
                     : execStatements(&body[i], &body[i] + 1, frame);

    if (flow == Flow::Return) return Value::none();  // `return` at top level ends the script
    if (flow != Flow::Normal)
      raise(ErrorKind::SyntaxError,
            std::string("'") + (flow == Flow::Break ? "break" : "continue") + "' outside a loop",
            s->span);
  }
  return Value::none();
}

}  // namespace tessel::interp
