// Evaluator: the one tree walk (architecture.md, "One evaluator"). Eager execution and, later,
// tracing run through it; natives reach it through Interpreter.
#pragma once

#include <span>
#include <vector>

#include "interp/ast.h"
#include "interp/objects.h"

namespace tessel::interp {

class Interpreter;

/// The activation of one function (or of a module's top-level code).
struct Frame {
  Value* slots;
  FunctionObj* closure;  // null for module code
  ModuleObj* module;
  Value result;
};

enum class Flow : uint8_t { Normal, Break, Continue, Return };

/// What a tracer (interp/tracer.h) needs to see while a @compile function runs on fake
/// tensors: each statement (for guard provenance) and each global the body reads (globals are
/// guarded like arguments). Null outside tracing, so eager code pays one pointer test.
class TraceHooks {
 public:
  virtual ~TraceHooks() = default;
  virtual void enterStatement(Span span) = 0;
  virtual void leaveStatement() = 0;
  virtual void globalRead(ModuleObj& module, uint32_t slot, const Value& value) = 0;
};

class Evaluator {
 public:
  explicit Evaluator(Interpreter& interp);

  /// Runs a module's top-level code. With `echo`, returns the value of a trailing expression
  /// statement.
  Value runModule(FnProto* proto, ModuleObj& module, bool echo);

  Value callValue(const Value& callee, std::span<Value> positional,
                  std::span<const std::string> kwNames, std::span<Value> kwValues, Span site);

  Value eval(Expr* e, Frame& f);
  /// Binds a resolved name as `let` does (a fresh cell for captured variables).
  void bindRef(const VarRef& ref, Value v, Frame& f);
  /// Installs (or, with nullptr, removes) the hooks of the tracer now running.
  void setTraceHooks(TraceHooks* hooks) { traceHooks_ = hooks; }
  TraceHooks* traceHooks() const { return traceHooks_; }

 private:
  Value evalInner(Expr* e, Frame& f);
  Value evalBinary(Binary* e, Frame& f);
  Value evalCompare(Compare* e, Frame& f);
  Value evalCall(Call* e, Frame& f);
  Value evalIndex(Index* e, Frame& f);
  Value evalName(Name* e, Frame& f);
  Value makeClosure(FnProto* proto, Frame& f);

  Flow exec(Stmt* s, Frame& f);
  Flow execStmt(Stmt* s, Frame& f);
  static Span conditionSpan(Stmt* s);
  /// The truth of a branch condition; errors (a data-dependent guard) point at it.
  bool condition(Expr* e, Frame& f);
  Flow execBlock(const Block& b, Frame& f);
  Flow execFor(For* s, Frame& f);
  void execAssign(Assign* s, Frame& f);
  void execFnDecl(FnDecl* s, Frame& f);
  void bind(Pattern* p, Value v, Frame& f);
  void storeName(Name* n, Value v, Frame& f);

  Value callFunction(FunctionObj* fn, std::span<Value> positional,
                     std::span<const std::string> kwNames, std::span<Value> kwValues, Span site);
  void checkInterrupt(Span span);

  Interpreter& interp_;
  std::vector<Value> stack_;  // frame slots of every active call
  size_t sp_ = 0;
  int depth_ = 0;
  TraceHooks* traceHooks_ = nullptr;
};

}  // namespace tessel::interp
