// Closure code: function bodies compiled once from the resolved AST into trees of small nodes,
// each with a handler chosen for its operands (Note [Closure code]).
#pragma once

#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "interp/diagnostics.h"
#include "interp/evaluator.h"
#include "interp/stack_guard.h"

namespace tessel::interp {

// Note [Closure code]
// The tree walk decides, at every visit of a node, what kind it is and what kinds its operands
// are (`n - 1`: a Binary whose lhs is a local holding an int and whose rhs is a literal). Those
// decisions depend only on the resolved AST, so they are made once: the first call of a fn
// compiles its body into CExpr/CStmt nodes whose handler is specialized for the shape (a local
// minus a constant, a call of a global fn, a store into a local slot), with the slot indexes and
// constants copied into the node. What the nodes do not specialize (lambdas, slices, chained
// comparisons, imports, fn declarations, ...) is a node that hands its AST node back to the tree
// walk, so every construct keeps exactly one meaning.
//
// Closure code runs only when no tracer and no region runner is installed (Evaluator::
// runBody); while tracing (@compile), the tree walk runs, because the tracer must see each
// statement. Errors are attached where the tree walk attaches them (Note [Spans]): each
// handler catches UserErrors exactly where the corresponding tree-walk function does, and
// blocks convert the rest at the statement, as execStatements does. Steps and interrupts are
// counted at the same places (statements, loop iterations, calls).

struct CExpr {
  using Run = Value (*)(const CExpr& self, Frame& f, Evaluator& ev);
  using Test = bool (*)(const CExpr& self, Frame& f, Evaluator& ev);
  CExpr(Expr* e, Run r, Test t) : src(e), run(r), test(t) {}
  virtual ~CExpr() = default;
  Expr* src;
  Run run;
  Test test;  // the truth of the value as a branch condition
};

struct CStmt {
  using Run = Flow (*)(const CStmt& self, Frame& f, Evaluator& ev);
  CStmt(Stmt* s, Run r) : src(s), run(r) {}
  virtual ~CStmt() = default;
  Stmt* src;
  Run run;
};

/// The compiled statements of one block, and the block itself (the tree walk's fallback).
struct CBlock {
  const Block* src = nullptr;
  std::vector<CStmt*> stmts;
};

// Note [Final return]
// Most fn bodies end with `return <value>`, and many are only that (`fn point(x, y) { return
// {...} }`). Run as a statement, the return stores its value in Frame::result, from which the
// call then moves it out, after one more turn of the block's loop. callPlain instead runs the
// statements before it, then counts the return's step and evaluates its value as the call's
// own result: no handler for the return, no Frame::result round trip. Errors are converted at
// the return statement, as runStatements converts them; the tree walk (tracing, regions) and
// every other way into a body run the return as a statement.
/// A function body (or a module's top-level code) in closure form, and its nodes.
struct ClosureCode {
  CBlock body;
  /// The value of the body's last statement when that is `return <value>` (Note [Final
  /// return]), else null.
  const CExpr* finalValue = nullptr;
  std::deque<std::unique_ptr<CExpr>> exprs;
  std::deque<std::unique_ptr<CStmt>> stmts;
  std::deque<std::unique_ptr<CBlock>> blocks;
};

// execStatements for closure code: the same steps and the same spans for errors. Inline, so
// that the blocks of ifs and loops run without a call of their own.
[[gnu::always_inline]] inline Flow Evaluator::runStatements(CStmt* const* it, CStmt* const* end,
                                                            Frame& f) {
  try {
    for (; it != end; ++it) {
      countStep((*it)->src->span);
      Flow flow = (*it)->run(**it, f, *this);
      if (flow != Flow::Normal) return flow;
    }
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    throw ScriptError(err.kind(), err.what(), conditionSpan((*it)->src));
  } catch (const std::bad_alloc&) {
    throw ScriptError(ErrorKind::DeviceError, "out of memory", conditionSpan((*it)->src));
  }
  return Flow::Normal;
}

// A fn body whose last statement is `return <value>`, in closure code: the statements before it,
// then the value, as the result (Note [Final return]).
[[gnu::always_inline]] inline Value Evaluator::runToFinalReturn(const ClosureCode& code,
                                                                Frame& f) {
  CStmt* const* stmts = code.body.stmts.data();
  size_t last = code.body.stmts.size() - 1;
  if (last != 0 && runStatements(stmts, stmts + last, f) != Flow::Normal)
    return std::move(f.result);
  Stmt* ret = stmts[last]->src;
  countStep(ret->span);
  try {
    return code.finalValue->run(*code.finalValue, f, *this);
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    throw ScriptError(err.kind(), err.what(), conditionSpan(ret));
  } catch (const std::bad_alloc&) {
    throw ScriptError(ErrorKind::DeviceError, "out of memory", conditionSpan(ret));
  }
}

[[gnu::always_inline]] inline Flow Evaluator::runCode(const CBlock& b, Frame& f) {
  if (!runsClosureCode()) [[unlikely]]
    return execBlock(*b.src, f);
  return runStatements(b.stmts.data(), b.stmts.data() + b.stmts.size(), f);
}

template <class PushArgs>
[[gnu::always_inline]] inline Value Evaluator::callPlain(FunctionObj* fn, Frame& f, const Span& site,
                                                         PushArgs&& pushArgs) {
  Ref<FunctionObj> keep(fn);  // the body may rebind the global that held it
  FnProto* proto = fn->proto;
  // The messages of the limits are built out of line (Note [Cold call paths] in eval_call.cpp).
  if (!hasRoomFor(proto->numSlots)) [[unlikely]]
    outOfValueStack(*proto, site);
  Value* slots = top_;
  struct Pop {  // FrameGuard (Note [Value stack] in eval_call.cpp)
    Evaluator& e;
    Value* slots;
    bool entered = false;
    ~Pop() {
      for (Value* v = slots; v < e.top_; ++v) {
        v->~Value();  // back to Undefined, all-zero bytes
        std::memset(static_cast<void*>(v), 0, sizeof(Value));
      }
      e.top_ = slots;
      if (entered) --e.depth_;
    }
  } pop{*this, slots};
  pushArgs();
  checkInterrupt(site);
  checkStack(site);
  countStep(site);
  if (depth_ >= maxCallDepth_) [[unlikely]]
    recursionTooDeep(*proto, site);
  ++depth_;
  pop.entered = true;
  top_ = slots + proto->numSlots;
  Frame frame{slots, fn, fn->module.get(), Value()};
  try {
    const ClosureCode& code = *proto->code;
    if (code.finalValue && runsClosureCode()) [[likely]]
      return runToFinalReturn(code, frame);
    runCode(code.body, frame);
  } catch (ScriptError& err) {
    addTraceFrame(err, *proto, site);
    throw;
  }
  return std::move(frame.result);
}

/// Compiles proto's body (once; the result is kept in the proto).
ClosureCode& closureCode(FnProto& proto);

/// Builds the nodes of one ClosureCode: expressions in closure_expr.cpp, statements in
/// closure_stmt.cpp.
class ClosureCompiler {
 public:
  explicit ClosureCompiler(ClosureCode& code) : code_(code) {}
  CExpr* expr(Expr* e);
  CStmt* stmt(Stmt* s);
  CBlock* block(const Block& b);

  template <class T, class... A>
  T* node(A&&... args) {
    auto owned = std::make_unique<T>(std::forward<A>(args)...);
    T* raw = owned.get();
    if constexpr (std::is_base_of_v<CExpr, T>)
      code_.exprs.push_back(std::move(owned));
    else
      code_.stmts.push_back(std::move(owned));
    return raw;
  }

 private:
  ClosureCode& code_;
};

}  // namespace tessel::interp
