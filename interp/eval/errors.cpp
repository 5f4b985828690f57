// try/except/finally and raise in closure code (language.md, "Errors you can catch"): their
// handlers and compile functions.
#include "interp/eval/engine.h"
#include "interp/values/graph_break.h"

namespace tessel::interp {
namespace {

struct CTry : CStmt {
  CTry(Stmt* s, Run r) : CStmt(s, r) {}
  const CBlock* body = nullptr;
  std::vector<const CBlock*> handlers;  // one per Try::Handler
  const CBlock* finally = nullptr;
};

// Note [Uncatchable errors]
// A LimitError (steps, memory, recursion, the value stack) and an interrupt end the script: an
// `except` that caught them would let a runaway script go on, and a step limit has already
// been lifted for the error's own unwinding. So no handler matches them; `finally` blocks
// still run on the way out.
bool catchable(ErrorKind kind) {
  return kind != ErrorKind::LimitError && kind != ErrorKind::Interrupted;
}

// The handler of `t` that catches `kind`, or -1.
int handlerFor(const Try& t, ErrorKind kind) {
  if (!catchable(kind)) return -1;
  for (size_t i = 0; i < t.handlers.size(); ++i)
    if (t.handlers[i].any || t.handlers[i].kind == kind) return static_cast<int>(i);
  return -1;
}

// The body, then the matching handler when the body raised, as one block of control flow.
Flow tryAndHandle(const CTry& c, const Try& t, Frame& f, Engine& ev) {
  Value caught;
  int handler = -1;
  try {
    return ev.runCode(*c.body, f);
  } catch (const ScriptError& err) {
    handler = handlerFor(t, err.kind());
    if (handler < 0) throw;
    caught = Value::object(new ErrorObj(err, true));
  } catch (const UserError& err) {
    // Raised outside any statement of this frame (a compiled region's run): at the try.
    handler = handlerFor(t, err.kind());
    if (handler < 0) throw;
    caught = Value::object(new ErrorObj(ScriptError(err.kind(), err.what(), t.span), true));
  }
  const Try::Handler& h = t.handlers[handler];
  if (h.name) ev.bind(h.name, caught, f);
  ev.handling.push_back(caught);
  struct Pop {
    Engine& ev;
    ~Pop() { ev.handling.pop_back(); }
  } pop{ev};
  return ev.runCode(*c.handlers[handler], f);
}

Flow runTry(const CStmt& self, Frame& f, Engine& ev) {
  auto& c = static_cast<const CTry&>(self);
  auto& t = *static_cast<Try*>(self.src);
  // A trace cannot keep a branch on whether something failed: the statement runs eagerly, its
  // blocks as compiled regions (Note [Regions]).
  graphBreak(ErrorKind::ValueError, "try/except runs eagerly");
  if (!c.finally) return tryAndHandle(c, t, f, ev);
  Flow flow;
  try {
    flow = tryAndHandle(c, t, f, ev);
  } catch (...) {
    // `finally` runs on the way out; a return, break or continue in it ends the error, as in
    // Python.
    Flow last = ev.runCode(*c.finally, f);
    if (last != Flow::Normal) return last;
    throw;
  }
  Flow last = ev.runCode(*c.finally, f);
  return last != Flow::Normal ? last : flow;
}

struct CRaise : CStmt {
  CRaise(Stmt* s, Run r) : CStmt(s, r) {}
  const CExpr* value = nullptr;  // null: re-raise
};
Flow runRaise(const CStmt& self, Frame& f, Engine& ev) {
  auto& c = static_cast<const CRaise&>(self);
  auto* r = static_cast<Raise*>(self.src);
  if (!c.value) {
    if (ev.handling.empty())
      raise(ErrorKind::ValueError,
            "no error is being handled: a bare 'raise' re-raises inside 'except'", r->span);
    throw ev.handling.back().as<ErrorObj>()->error;
  }
  Value v = c.value->run(*c.value, f, ev);
  if (!v.is(Type::Error))
    raise(ErrorKind::TypeError,
          "raise needs an error value (ValueError(\"...\")), not '" +
              std::string(typeName(v.type())) + "'",
          r->value->span);
  auto* e = v.as<ErrorObj>();
  if (e->raised) throw e->error;  // caught before: it keeps its place and its calls
  throw ScriptError(e->error.kind(), e->error.what(), r->span);
}

}  // namespace

CStmt* ClosureCompiler::compileTry(Try* t) {
  auto* n = node<CTry>(t, runTry);
  n->body = block(t->body);
  for (Try::Handler& h : t->handlers) n->handlers.push_back(block(h.body));
  if (t->hasFinally) n->finally = block(t->finally);
  return n;
}

CStmt* ClosureCompiler::compileRaise(Raise* r) {
  auto* n = node<CRaise>(r, runRaise);
  if (r->value) n->value = expr(r->value);
  return n;
}

}  // namespace tessel::interp
