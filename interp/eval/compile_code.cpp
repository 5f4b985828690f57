// The closure compiler's dispatch (Note [Closure code] in code.h): one compile function per AST
// kind, called from a switch generated from the kind lists, and the traced form's statement
// wrapper. The compile functions live beside their handlers (literals.cpp, names.cpp,
// operators.cpp, access.cpp, call_nodes.cpp, statements.cpp, control.cpp).
#include "interp/eval/engine.h"

namespace tessel::interp {

// Guards and branch errors point at the condition (`at f.dsl:6:8: if x.shape[0] <= 30`).
Span statementSpan(Stmt* s) {
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

namespace {

// A statement of the traced form: the tracer records where guards come from, and a statement
// that turns out to need data (a branch on a data-dependent size, which the shape engine
// reports as a DataDependentError) is a graph break at the innermost statement, which is the
// first to see the error.
struct CTraced : CStmt {
  CTraced(Stmt* s, Run r, CStmt* in) : CStmt(s, r), inner(in), span(statementSpan(s)) {}
  CStmt* inner;
  Span span;
};
Flow runTraced(const CStmt& self, Frame& f, Engine& ev) {
  auto& t = static_cast<const CTraced&>(self);
  TraceHooks* hooks = traceContext().hooks;
  hooks->enterStatement(self.src, t.span);
  struct Leave {
    TraceHooks* h;
    ~Leave() { h->leaveStatement(); }
  } leave{hooks};
  try {
    return t.inner->run(*t.inner, f, ev);
  } catch (const UserError& err) {
    if (err.kind() != ErrorKind::DataDependentError || !hooks->breaksAllowed()) throw;
    hooks->graphBreak(err.kind(), err.what());
  }
  TESSEL_ASSERT(false, "graphBreak() returned instead of throwing");
  return {};
}

}  // namespace

CExpr* ClosureCompiler::expr(Expr* e) {
  switch (e->kind) {
#define TESSEL_X(k) \
  case ExprKind::k: \
    return compile##k(static_cast<k*>(e));
    TESSEL_EXPR_KINDS(TESSEL_X)
#undef TESSEL_X
  }
  TESSEL_ASSERT(false, "an expression of unknown kind");
}

CStmt* ClosureCompiler::stmt(Stmt* s) {
  CStmt* n = nullptr;
  switch (s->kind) {
#define TESSEL_X(k)                         \
  case StmtKind::k:                         \
    n = compile##k(static_cast<k*>(s));     \
    break;
    TESSEL_STMT_KINDS(TESSEL_X)
#undef TESSEL_X
  }
  TESSEL_ASSERT(n, "a statement of unknown kind");
  return traced() ? node<CTraced>(s, runTraced, n) : n;
}

CBlock* ClosureCompiler::block(const Block& b) {
  code_.blockNodes.push_back(std::make_unique<CBlock>());
  CBlock* out = code_.blockNodes.back().get();
  out->src = &b;
  out->stmts.reserve(b.size());
  for (Stmt* s : b) out->stmts.push_back(stmt(s));
  code_.blocks.emplace(&b, out);
  return out;
}

namespace {
void deleteClosureCode(ClosureCode* code) {
  delete code;
}
}  // namespace

ClosureCode& closureCode(FnProto& proto, CodeForm form) {
  auto& slot = form == CodeForm::Eager ? proto.code : proto.tracedCode;
  if (slot) [[likely]]
    return *slot;
  std::unique_ptr<ClosureCode, ClosureCodeDeleter> code(new ClosureCode,
                                                        ClosureCodeDeleter{&deleteClosureCode});
  code->form = form;
  ClosureCompiler compiler(*code);
  code->body.src = &proto.body;
  code->body.stmts.reserve(proto.body.size());
  for (Stmt* s : proto.body) code->body.stmts.push_back(compiler.stmt(s));
  code->blocks.emplace(&proto.body, &code->body);
  for (Expr* w : proto.where) code->wheres.push_back(compiler.expr(w));
  if (form == CodeForm::Eager) {
    if (!proto.body.empty() && proto.body.back()->kind == StmtKind::Return &&
        static_cast<Return*>(proto.body.back())->value)  // Note [Final return]
      code->finalValue = finalReturnValue(*code->body.stmts.back());
    // No signature to check, no captured parameters: a call with one argument per parameter
    // only fills the frame's first slots (Engine::callPlain).
    if (!proto.hasSignature && !proto.hasCellParams && !proto.result)
      proto.plainArity = static_cast<int64_t>(proto.params.size());
  }
  slot = std::move(code);
  return *slot;
}

const Block& sourceOf(const CBlock& block) {
  return *block.src;
}

}  // namespace tessel::interp
