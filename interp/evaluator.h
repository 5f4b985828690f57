// Evaluator: the one tree walk (architecture.md, "One evaluator"). Eager execution and, later,
// tracing run through it; natives reach it through Interpreter.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "interp/ast.h"
#include "interp/objects.h"
#include "shapes/user_error.h"

namespace tessel::interp {

class Interpreter;
class ScriptError;
struct CBlock;
struct CExpr;
struct ClosureCode;
struct CStmt;

/// The int operators a loop counter or an index usually needs, without overflow; false when
/// the generic path must decide (overflow, division by a non-positive number, other ops).
[[gnu::always_inline]] inline bool intArith(BinaryOp op, int64_t x, int64_t y, int64_t& r) {
  switch (op) {
    case BinaryOp::Add:
      return !__builtin_add_overflow(x, y, &r);
    case BinaryOp::Sub:
      return !__builtin_sub_overflow(x, y, &r);
    case BinaryOp::Mul:
      return !__builtin_mul_overflow(x, y, &r);
    case BinaryOp::FloorDiv:
      if (y <= 0) return false;
      r = x / y - (x % y != 0 && x < 0);
      return true;
    case BinaryOp::Mod:
      if (y <= 0) return false;
      r = x % y;
      if (r < 0) r += y;
      return true;
    default:
      return false;
  }
}

/// + - * of two floats, the operators a float fast path takes; false for the others (their
/// errors and rules belong to the generic operator).
[[gnu::always_inline]] inline bool floatArith(BinaryOp op, double x, double y, double& r) {
  switch (op) {
    case BinaryOp::Add:
      r = x + y;
      return true;
    case BinaryOp::Sub:
      r = x - y;
      return true;
    case BinaryOp::Mul:
      r = x * y;
      return true;
    default:
      return false;
  }
}

/// x op y for the orderings and equalities of two ints; `ok` is false for in / not in.
[[gnu::always_inline]] inline bool compareInts(CompareOp op, int64_t x, int64_t y, bool& ok) {
  ok = true;
  switch (op) {
    case CompareOp::Eq:
      return x == y;
    case CompareOp::Ne:
      return x != y;
    case CompareOp::Lt:
      return x < y;
    case CompareOp::Le:
      return x <= y;
    case CompareOp::Gt:
      return x > y;
    case CompareOp::Ge:
      return x >= y;
    default:
      ok = false;
      return false;
  }
}

/// The activation of one function (or of a module's top-level code).
struct Frame {
  Value* slots;
  FunctionObj* closure;  // null for module code
  ModuleObj* module;
  Value result;
};

enum class Flow : uint8_t { Normal, Break, Continue, Return };

/// What a tracer (interp/compile/tracer.h) needs to see while a @compile function runs on
/// fake tensors: each statement (for guard provenance and graph breaks) and each global the
/// body reads (globals are guarded like arguments). Null outside tracing, so eager code pays
/// one pointer test.
class TraceHooks {
 public:
  virtual ~TraceHooks() = default;
  /// `span` is where guards added by the statement point (an if's condition).
  virtual void enterStatement(Stmt* stmt, Span span) = 0;
  virtual void leaveStatement() = 0;
  virtual void globalRead(ModuleObj& module, uint32_t slot, const Value& value) = 0;
  /// The running statement cannot be traced (interp/graph_break.h); never returns.
  [[noreturn]] virtual void graphBreak(ErrorKind kind, const std::string& reason) = 0;
  /// False under fullgraph: what would break the graph is an error instead.
  virtual bool breaksAllowed() const = 0;
  /// x.item() on the traced tensor `x`: a scalar kept in the graph (config.
  /// capture_scalar_outputs), or none when item() must break the graph instead.
  virtual Value captureItem(const Value& x) = 0;
};
/// The hooks of the trace running on this thread, or nullptr (set by setTraceHooks).
TraceHooks* activeTraceHooks();

/// Runs the blocks of a compiled function that has graph breaks (interp/compile/regions.h):
/// installed for the duration of such a call, it receives every block the evaluator would run
/// eagerly (function bodies, loop bodies, branches) and runs the statements it can as compiled
/// graphs, handing the others back to execStatements.
class BlockRunner {
 public:
  virtual ~BlockRunner() = default;
  virtual Flow runBlock(const Block& block, Frame& f) = 0;
};

class Evaluator {
 public:
  explicit Evaluator(Interpreter& interp);

  /// Runs a module's top-level code. With `echo`, returns the value of a trailing expression
  /// statement.
  Value runModule(FnProto* proto, ModuleObj& module, bool echo);
  /// Starts a fresh count of steps for InterpreterOptions::maxSteps (Interpreter::Entry).
  void resetSteps() { stepsLeft_ = maxSteps_ > 0 ? maxSteps_ : INT64_MAX; }

  Value callValue(const Value& callee, std::span<Value> positional,
                  std::span<const std::string> kwNames, std::span<Value> kwValues, Span site);

  /// Evaluates an expression. Int literals and local variables, the commonest leaves, are
  /// handled here inline; everything else in evalNode (Note [Fast paths] in eval_expr.cpp).
  Value eval(Expr* e, Frame& f) {
    switch (e->kind) {
      case ExprKind::Name: {
        auto* n = static_cast<Name*>(e);
        if (n->ref.kind == VarRef::Kind::Local) {
          const Value& v = f.slots[n->ref.index];
          if (!v.is(Type::Undefined)) [[likely]]
            return v;
        }
        return evalNode(e, f);
      }
      case ExprKind::IntLit:
        return Value::integer(static_cast<IntLit*>(e)->value);
      // These three attach spans to their own errors (Note [Spans]).
      case ExprKind::Binary:
        return evalBinary(static_cast<Binary*>(e), f);
      case ExprKind::Compare:
        return evalCompare(static_cast<Compare*>(e), f);
      case ExprKind::Call:
        return evalCall(static_cast<Call*>(e), f);
      default:
        return evalNode(e, f);
    }
  }

  /// When `e` is an int literal or a variable holding an int, stores it in `out`
  /// without building a Value; the operand fast paths of operators start with this.
  bool intOperand(Expr* e, const Frame& f, int64_t& out) const {
    if (e->kind == ExprKind::IntLit) {
      out = static_cast<IntLit*>(e)->value;
      return true;
    }
    if (e->kind == ExprKind::Name) {
      auto* n = static_cast<Name*>(e);
      if (n->ref.kind == VarRef::Kind::Local && f.slots[n->ref.index].is(Type::Int)) {
        out = f.slots[n->ref.index].asInt();
        return true;
      }
      // Module globals too (top-level loops), unless a tracer must see the read.
      if (n->ref.kind == VarRef::Kind::Global && !traceHooks_ &&
          f.module->globals[n->ref.index].is(Type::Int)) {
        out = f.module->globals[n->ref.index].asInt();
        return true;
      }
    }
    return false;
  }
  /// intOperand, or an int operator over two such operands (`n - 1`): the argument of most
  /// recursive calls, computed without a call or a Value.
  bool intExpr(Expr* e, const Frame& f, int64_t& out) const {
    if (intOperand(e, f, out)) return true;
    if (e->kind != ExprKind::Binary) return false;
    auto* b = static_cast<Binary*>(e);
    int64_t x, y;
    return intOperand(b->lhs, f, x) && intOperand(b->rhs, f, y) && intArith(b->op, x, y, out);
  }
  /// Like eval, but a local variable or a string literal comes back by reference, without a

  /// copy; other expressions are evaluated into `tmp`. The reference is valid while the
  /// current statement runs (only statements of this frame assign its local slots).
  const Value& evalRef(Expr* e, Frame& f, Value& tmp) {
    if (e->kind == ExprKind::Name) {
      auto* n = static_cast<Name*>(e);
      if (n->ref.kind == VarRef::Kind::Local) {
        const Value& v = f.slots[n->ref.index];
        if (!v.is(Type::Undefined)) [[likely]]
          return v;
      }
    } else if (e->kind == ExprKind::StrLit) {
      return static_cast<StrLit*>(e)->cached;
    }
    tmp = eval(e, f);
    return tmp;
  }
  /// Binds a resolved name as `let` does (a fresh cell for captured variables).
  void bindRef(const VarRef& ref, Value v, Frame& f);
  /// Installs (or, with nullptr, removes) the hooks of the tracer now running.
  void setTraceHooks(TraceHooks* hooks);
  TraceHooks* traceHooks() const { return traceHooks_; }
  /// Installs (or removes) the runner of a compiled function with graph breaks.
  void setBlockRunner(BlockRunner* runner) {
    blockRunner_ = runner;
    treeWalkOnly_ = traceHooks_ || blockRunner_;
  }
  BlockRunner* blockRunner() const { return blockRunner_; }
  /// Runs statements as a block does, without handing them to a BlockRunner (the runner's
  /// way back for the statements it does not compile). Errors get the statement's span.
  Flow execStatements(Stmt* const* begin, Stmt* const* end, Frame& f);

  // The runtime of closure code (Note [Closure code] in closure_code.h): what its handlers
  // share with the tree walk, so that both give every construct one meaning.
  Interpreter& interpreter() { return interp_; }
  /// Runs a compiled block; the tree walk runs its source instead while a tracer or a region
  /// runner is installed.
  Flow runCode(const CBlock& b, Frame& f);
  /// Calls of a compiled Call node: `fn(args)` with the callee's value in hand, and
  /// `object.name(args)` with the receiver's.
  Value callCompiled(Call* c, Value callee, const CExpr* const* args, Frame& f);
  /// A call of a fn whose body is closure code and that needs no more than its positional
  /// arguments bound (FnProto::plainArity): callDirect and enterFunction without what such a
  /// call does not use. `pushArgs()` evaluates the arguments and pushes each (pushArgument).
  template <class PushArgs>
  Value callPlain(FunctionObj* fn, Frame& f, const Span& site, PushArgs&& pushArgs);
  /// Builds a call's next argument in the first free slot. Every slot there is Undefined, so
  /// nothing is released; the argument's own calls have popped their frames by the time its
  /// value is in hand (so `v` is not built in the slot itself: see callDirect).
  void pushArgument(Value&& v) {
    Value* slot = top_;
    new (slot) Value(std::move(v));
    top_ = slot + 1;
  }
  Value callMethodCompiled(Call* c, Value object, const CExpr* const* args, Frame& f);
  /// The statement or expression as the tree walk runs it (what closure code does not
  /// specialize).
  Flow execTree(Stmt* s, Frame& f) { return exec(s, f); }
  bool conditionTree(Expr* e, Frame& f) { return condition(e, f); }
  /// The truth of a value as a branch condition, with errors at `e`.
  bool truthOf(const Value& v, Expr* e);
  Value applyBinary(Binary* b, const Value& lhs, const Value& rhs) {
    return binarySlow(b, lhs, rhs);
  }
  Value applyCompare(Compare* c, Frame& f, const Value& lhs, const Value& rhs) {
    return compareChain(c, f, lhs, rhs);
  }
  /// `object[index]` for an Index with one plain subscript; errors at the Index.
  Value indexOp(Index* x, const Value& object, const Value& index);
  /// The new value of an augmented assignment (`x += v`); errors at the statement.
  Value augmented(Assign* s, const Value& old, Value rhs);
  /// Assignments to a name, an index or an attribute, with their values in hand.
  void storeName(Name* n, Value v, Frame& f);
  void storeIndex(Assign* s, const Value& object, const Value& key, Value rhs);
  void storeAttr(Assign* s, const Value& object, Value rhs);
  void bind(Pattern* p, Value v, Frame& f);
  /// A for loop over `iterable` whose body is `code` (or, when null, the tree walk of its body).
  Flow forEach(For* s, Value iterable, const CBlock* code, Frame& f);
  void countLoopStep(const Span& span) {
    checkInterrupt(span);
    countStep(span);
  }
  /// Counts a statement's step, as runStatements does before running it.
  void countStatementStep(const Span& span) { countStep(span); }
  /// False while a tracer or a region runner is installed: blocks run as the tree walk.
  bool runsClosureCode() const { return !treeWalkOnly_; }

 private:
  Value evalNode(Expr* e, Frame& f);
  Value evalMethodCall(Call* c, Frame& f);
  Value enterFunction(FunctionObj* fn, Value* base, size_t nargs, const Span& site);

  Value evalBinary(Binary* e, Frame& f);
  Value evalCompare(Compare* e, Frame& f);
  Value compareChain(Compare* c, Frame& f, Value lhs, Value rhs);
  Value binarySlow(Binary* b, const Value& lhs, const Value& rhs);

  Value evalCall(Call* e, Frame& f);
  Value evalIndex(Index* e, Frame& f);
  Value evalName(Name* e, Frame& f);
  Value makeClosure(FnProto* proto, Frame& f);

  /// Runs one statement; while tracing, the tracer sees it first (execTraced).
  Flow exec(Stmt* s, Frame& f) {
    if (!traceHooks_) [[likely]]
      return execStmt(s, f);
    return execTraced(s, f);
  }
  Flow execTraced(Stmt* s, Frame& f);

  Flow execWhile(While* s, Frame& f);
  void execAssert(Assert* s, Frame& f);
  void execImport(Import* s, Frame& f);

  Flow execStmt(Stmt* s, Frame& f);
  static Span conditionSpan(Stmt* s);
  /// The truth of a branch condition; errors (a data-dependent guard) point at it.
  /// `if n < 2` on two ints is answered here, inline, without making a bool Value.
  [[gnu::always_inline]] bool condition(Expr* e, Frame& f) {
    if (e->kind == ExprKind::Compare) {
      auto* c = static_cast<Compare*>(e);
      int64_t x, y;
      bool ok;
      if (c->ops.size() == 1 && intOperand(c->operands[0], f, x) &&
          intOperand(c->operands[1], f, y)) {
        bool holds = compareInts(c->ops[0], x, y, ok);
        if (ok) return holds;
      }
    }
    return conditionSlow(e, f);
  }
  bool conditionSlow(Expr* e, Frame& f);
  Flow execBlock(const Block& b, Frame& f) {
    if (blockRunner_ && !traceHooks_) [[unlikely]]
      return blockRunner_->runBlock(b, f);
    return execStatements(b.data(), b.data() + b.size(), f);
  }

  Flow execFor(For* s, Frame& f);
  void execAssign(Assign* s, Frame& f);
  void execFnDecl(FnDecl* s, Frame& f);
  /// Runs a fn's body: its closure code, or the tree walk while tracing or running regions.
  Flow runBody(FnProto& proto, Frame& f);
  Flow runStatements(CStmt* const* begin, CStmt* const* end, Frame& f);
  Value runToFinalReturn(const ClosureCode& code, Frame& f);
  template <class EvalArg>
  Value callDirect(FunctionObj* fn, Call* c, Frame& f, EvalArg&& evalArg);
  template <class EvalArg>
  Value callGeneric(Call* c, Value callee, Frame& f, EvalArg&& evalArg);
  template <class EvalArg>
  Value methodCall(Call* c, Value object, Frame& f, EvalArg&& evalArg);

  Value callFunction(FunctionObj* fn, std::span<Value> positional,
                     std::span<const std::string> kwNames, std::span<Value> kwValues, Span site);
  /// Stops the script with an Interrupted error once Interpreter::interrupt() was called.
  void checkInterrupt(const Span& span) {
    if (interruptFlag_->load(std::memory_order_relaxed)) [[unlikely]]
      interrupted(span);
  }
  [[noreturn]] void interrupted(const Span& span);
  /// Counts one step (a statement, a loop iteration or a call) against
  /// InterpreterOptions::maxSteps.
  void countStep(const Span& span) {
    if (--stepsLeft_ < 0) [[unlikely]]
      stepLimitExceeded(span);
  }
  [[noreturn]] void stepLimitExceeded(const Span& span);
  // The errors and the trace of a call, out of line (Note [Cold call paths] in eval_call.cpp).
  [[noreturn, gnu::cold]] void outOfValueStack(const FnProto& proto, const Span& site);
  [[noreturn, gnu::cold]] void recursionTooDeep(const FnProto& proto, const Span& site);
  [[gnu::cold]] static void addTraceFrame(ScriptError& err, const FnProto& proto, const Span& site);

  struct FrameGuard;
  Interpreter& interp_;

  std::atomic<bool>* interruptFlag_;
  int maxCallDepth_;
  int64_t maxSteps_;   // 0: no limit
  int64_t stepsLeft_;  // of the current entry (resetSteps)

  /// The frame slots of every active call (Note [Value stack] in eval_call.cpp): zeroed
  /// memory from calloc, so that pages no script reaches cost nothing. All-zero bytes are an
  /// Undefined Value, and every slot above the top is Undefined, so nothing is destroyed.
  class ValueStack {
   public:
    explicit ValueStack(size_t n)
        : data_(static_cast<Value*>(std::calloc(n, sizeof(Value)))), end_(data_ + n) {
      static_assert(static_cast<int>(Type::Undefined) == 0);
      if (!data_) throw std::bad_alloc();
    }
    ~ValueStack() { std::free(data_); }
    ValueStack(const ValueStack&) = delete;
    ValueStack& operator=(const ValueStack&) = delete;
    Value& operator[](size_t i) { return data_[i]; }
    Value* data() { return data_; }
    size_t size() const { return static_cast<size_t>(end_ - data_); }
    Value* end() const { return end_; }

   private:
    Value* data_;
    Value* end_;
  };
  /// Whether a frame of n slots fits above the top of the value stack.
  bool hasRoomFor(size_t n) const { return n <= static_cast<size_t>(stack_.end() - top_); }
  ValueStack stack_;
  Value* top_ = stack_.data();  // the first free slot (Note [Value stack] in eval_call.cpp)
  int depth_ = 0;
  TraceHooks* traceHooks_ = nullptr;
  BlockRunner* blockRunner_ = nullptr;
  /// traceHooks_ || blockRunner_, kept as one flag: every call and block tests it.
  bool treeWalkOnly_ = false;
};

}  // namespace tessel::interp
