// Running code from outside the handlers: a module's top-level code, statements handed back by
// a region runner, where-clauses, and the one place errors get their spans (Note [Spans] in
// engine.h).
#include "interp/eval/engine.h"

namespace tessel::interp {

void Engine::rethrowAt(const UserError& err, const Span& fallback) {
  throw ScriptError(err.kind(), err.what(), site_ ? *site_ : fallback);
}

void Engine::rethrowAt(const UserError& err, Stmt* s) {
  rethrowAt(err, statementSpan(s));
}

void Engine::outOfMemoryAt(Stmt* s) {
  throw ScriptError(ErrorKind::DeviceError, "out of memory", site_ ? *site_ : statementSpan(s));
}

Flow Engine::runStatements(const CBlock& block, uint32_t begin, uint32_t end, Frame& f) {
  return runStatements(block.stmts.data() + begin, block.stmts.data() + end, f);
}

const CBlock& Engine::blockInMode(FnProto& proto, const Block& block) {
  const ClosureCode& code = codeInMode(proto);
  auto it = code.blocks.find(&block);
  TESSEL_ASSERT(it != code.blocks.end(), "a block that is not in " + proto.name + "()");
  return *it->second;
}

Value Engine::whereClause(FunctionObj& fn, size_t i, Frame& f) {
  const CExpr& w = *codeInMode(*fn.proto).wheres.at(i);
  site_ = nullptr;
  try {
    return w.run(w, f, *this);
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    // A where-clause is checked as a statement of the call would be.
    rethrowAt(err, w.src->span);
  }
}

Value Engine::runModule(FnProto* proto, ModuleObj& module, bool echo) {
  if (!hasRoomFor(proto->numSlots))
    raise(ErrorKind::LimitError, "out of interpreter stack", proto->span);
  Value* base = top_;
  top_ += proto->numSlots;
  struct Pop {
    Engine& e;
    Value* base;
    ~Pop() {
      for (Value* v = base; v < e.top_; ++v) *v = Value::undefined();
      e.top_ = base;
    }
  } pop{*this, base};
  Value* slots = base;
  for (size_t i = 0; i < proto->numSlots; ++i) slots[i] = Value::undefined();
  Frame frame{slots, nullptr, &module, Value()};
  const ClosureCode& code = codeInMode(*proto);
  const std::vector<CStmt*>& body = code.body.stmts;
  for (size_t i = 0; i < body.size(); ++i) {
    CStmt* const* s = &body[i];
    Flow flow;
    if (echo && i + 1 == body.size() && (*s)->src->kind == StmtKind::ExprStmt &&
        code.form == CodeForm::Eager) {
      // The REPL shows a trailing expression's value.
      site_ = nullptr;
      try {
        const CExpr& value = *finalReturnValue(**s);
        return value.run(value, frame, *this);
      } catch (const ScriptError&) {
        throw;
      } catch (const UserError& err) {
        rethrowAt(err, (*s)->src);
      }
    }
    // Not handed to a region runner: top-level code is never a compiled function's.
    flow = runStatements(s, s + 1, frame);
    if (flow == Flow::Return) return Value::none();  // `return` at top level ends the script
    if (flow != Flow::Normal)
      raise(ErrorKind::SyntaxError,
            std::string("'") + (flow == Flow::Break ? "break" : "continue") + "' outside a loop",
            (*s)->src->span);
  }
  return Value::none();
}

}  // namespace tessel::interp
