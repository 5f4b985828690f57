// Closure code: function bodies compiled once from the resolved AST into trees of small nodes,
// each with a handler chosen for its operands (Note [Closure code]). Private to interp/eval/.
#pragma once

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "interp/eval/evaluator.h"

namespace tessel::interp {

class Engine;

// Note [Closure code]
// A tree walk decides, at every visit of a node, what kind it is and what kinds its operands
// are (`n - 1`: a Binary whose lhs is a local holding an int and whose rhs is a literal). Those
// decisions depend only on the resolved AST, so they are made once: the first run of a fn
// compiles its body into CExpr/CStmt nodes whose handler is specialized for the shape (a local
// minus a constant, a call of a global fn, a store into a local slot), with the slot indexes and
// constants copied into the node. Every AST kind has one generic handler, and the compiler
// (compile_code.cpp) has one function per kind, generated from the kind lists of ast.h, so a
// new kind cannot be missed; a specialized handler falls back to its kind's generic one for
// whatever it does not decide itself (another type, overflow, an unassigned local).
//
// A body is compiled in one of two forms (CodeForm): eager, and traced. The traced form is what
// runs while a tracer is installed (Note [One engine] in engine.h): the same handlers, but each
// statement reports to the tracer, global reads are reported too, and the shortcuts that skip
// a statement (Note [Final return], runIfReturn) are not taken.
struct CExpr {
  using Run = Value (*)(const CExpr& self, Frame& f, Engine& ev);
  using Test = bool (*)(const CExpr& self, Frame& f, Engine& ev);
  CExpr(Expr* e, Run r, Test t) : src(e), run(r), test(t) {}
  virtual ~CExpr() = default;
  Expr* src;
  Run run;
  Test test;  // the truth of the value as a branch condition
};

struct CStmt {
  using Run = Flow (*)(const CStmt& self, Frame& f, Engine& ev);
  CStmt(Stmt* s, Run r) : src(s), run(r) {}
  virtual ~CStmt() = default;
  Stmt* src;
  Run run;
};

/// The compiled statements of one block, and the block itself.
struct CBlock {
  const Block* src = nullptr;
  std::vector<CStmt*> stmts;
};

enum class CodeForm : uint8_t { Eager, Traced };

// Note [Final return]
// Most fn bodies end with `return <value>`, and many are only that (`fn point(x, y) { return
// {...} }`). Run as a statement, the return stores its value in Frame::result, from which the
// call then moves it out, after one more turn of the block's loop. callPlain instead runs the
// statements before it, then counts the return's step and evaluates its value as the call's
// own result: no handler for the return, no Frame::result round trip. Errors are converted at
// the return statement, as the statement loop converts them. The traced form, and bodies run
// by a region runner, run the return as a statement.
/// A function body (or a module's top-level code) in closure form, and its nodes.
struct ClosureCode {
  CodeForm form = CodeForm::Eager;
  CBlock body;
  /// The value of the body's last statement when that is `return <value>` (Note [Final
  /// return]), else null. Never set in the traced form.
  const CExpr* finalValue = nullptr;
  /// The fn's where-clauses (FnProto::where), in order.
  std::vector<const CExpr*> wheres;
  /// Every block of the body, by its source (Evaluator::blockInMode).
  std::unordered_map<const Block*, const CBlock*> blocks;
  std::deque<std::unique_ptr<CExpr>> exprNodes;
  std::deque<std::unique_ptr<CStmt>> stmtNodes;
  std::deque<std::unique_ptr<CBlock>> blockNodes;
};

/// proto's body in `form` (compiled at the first request, then kept in the proto).
ClosureCode& closureCode(FnProto& proto, CodeForm form);

/// Builds the nodes of one ClosureCode. The compile function of each AST kind picks its
/// handler: expressions in compile_expr.cpp, statements in compile_stmt.cpp.
class ClosureCompiler {
 public:
  explicit ClosureCompiler(ClosureCode& code) : code_(code) {}
  CExpr* expr(Expr* e);
  CStmt* stmt(Stmt* s);
  CBlock* block(const Block& b);
  bool traced() const { return code_.form == CodeForm::Traced; }

  template <class T, class... A>
  T* node(A&&... args) {
    auto owned = std::make_unique<T>(std::forward<A>(args)...);
    T* raw = owned.get();
    if constexpr (std::is_base_of_v<CExpr, T>)
      code_.exprNodes.push_back(std::move(owned));
    else
      code_.stmtNodes.push_back(std::move(owned));
    return raw;
  }

#define TESSEL_X(k) CExpr* compile##k(k* e);
  TESSEL_EXPR_KINDS(TESSEL_X)
#undef TESSEL_X
#define TESSEL_X(k) CStmt* compile##k(k* s);
  TESSEL_STMT_KINDS(TESSEL_X)
#undef TESSEL_X

 private:
  ClosureCode& code_;
};

/// The truth of a compiled expression's value as a branch condition (the generic Test).
bool testValue(const CExpr& self, Frame& f, Engine& ev);
/// The nodes of the default values of proto's parameters (null where one has none).
std::vector<const CExpr*> defaultsOf(ClosureCompiler& cc, FnProto& proto);
/// The value node of a compiled `return <value>` (Note [Final return]).
const CExpr* finalReturnValue(const CStmt& ret);
/// Where a statement's errors and guards point: its condition for if, while and assert.
Span statementSpan(Stmt* s);

}  // namespace tessel::interp
