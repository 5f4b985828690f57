// Engine: the evaluator's internals, shared by the handlers of closure code (interp/eval/):
// frames on the value stack, calls, the statement loop, steps and limits, and the one place
// errors get their spans. Private to interp/eval/.
#pragma once

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "interp/syntax/diagnostics.h"
#include "interp/eval/code.h"
#include "interp/eval/int_ops.h"
#include "interp/values/operators.h"
#include "interp/syntax/stack_guard.h"

namespace tessel::interp {

// Note [One engine]
// There is one evaluator: closure code (Note [Closure code] in code.h). What differs between
// an eager run, a trace and a function with graph breaks is a mode of that engine, read from
// the thread's TraceContext (trace_context.h), as Lua's VM reads its hook mask:
// - eager: bodies run in their eager form;
// - tracing (TraceContext::hooks): a body entered while a tracer is installed runs in its
//   traced form, whose statements report to the tracer (enterStatement, graph breaks at a
//   data-dependent statement) and whose global reads are reported (globalRead). Values are
//   fake tensors and the op sink is the graph being built (op_sink.h), so the handlers are the
//   same;
// - regions (TraceContext::regions): every block is handed to the region runner
//   (interp/compile/regions.h), which runs it as compiled regions and hands the statements it
//   cannot compile back to runStatements.
// A body is compiled in each form it runs in, once. The eager form's fast call path
// (callPlain) is only reached from eager code, which never runs while a tracer is installed:
// a trace is entered through a call (callValue, enterFunction), and every body entered there
// picks its form.
//
// Note [Spans]
// Natives and operators throw plain UserErrors: they do not know where in the script they run.
// A handler about to do something that may throw one (call a native, apply a generic operator,
// test a value's truth) first records its node's span as the engine's error site (at()), as
// Lua's VM saves its pc before an instruction that may raise. The statement loop is the one
// place that turns a UserError into a ScriptError: at the site when one was recorded during
// the statement, else at the statement (its condition for if, while and assert). Each statement
// starts with no site, and a call through the public callValue (a native calling back into
// Tessel code) restores the caller's site when it returns, so a site never outlives what it
// names. ScriptErrors pass through untouched; a try block costs nothing until something throws.
class Engine final : public Evaluator {
 public:
  explicit Engine(Interpreter& interp);
  ~Engine() override;

  // Evaluator
  Value runModule(FnProto* proto, ModuleObj& module, bool echo) override;
  void resetSteps() override {
    stepsLeft_ = maxSteps_ > 0 ? maxSteps_ : INT64_MAX;
    banked_ = 0;
    pollRequested_ = false;
  }
  Value callValue(const Value& callee, std::span<Value> positional,
                  std::span<const std::string> kwNames, std::span<Value> kwValues,
                  Span site) override;
  void bindRef(const VarRef& ref, Value v, Frame& f) override;
  Value whereClause(FunctionObj& fn, size_t i, Frame& f) override;
  Flow runStatements(const CBlock& block, uint32_t begin, uint32_t end, Frame& f) override;
  const CBlock& blockInMode(FnProto& proto, const Block& block) override;

  Interpreter& interpreter() { return interp_; }

  /// Records where a UserError thrown from now on in this statement happened (Note [Spans]).
  void at(const Span& span) { site_ = &span; }
  /// Records that such an error is the running statement's.
  void atStatement() { site_ = nullptr; }

  // Running code.
  /// The statements [it, end) of a block: steps, and errors at their spans.
  Flow runStatements(CStmt* const* it, CStmt* const* end, Frame& f);
  /// A compiled block, or, in region mode, the region runner's run of it.
  Flow runCode(const CBlock& b, Frame& f) {
    if (traceContext().regions) [[unlikely]]
      return traceContext().runner->runBlock(b, f);
    return runStatements(b.stmts.data(), b.stmts.data() + b.stmts.size(), f);
  }
  /// A fn's body in the form of the current mode.
  Flow runBody(FnProto& proto, Frame& f) { return runCode(codeInMode(proto).body, f); }
  ClosureCode& codeInMode(FnProto& proto) {
    CodeForm form = traceContext().hooks ? CodeForm::Traced : CodeForm::Eager;
    return closureCode(proto, form);
  }

  // Calls.
  /// A call of a fn whose body is closure code and that needs no more than its positional
  /// arguments bound (FnProto::plainArity), from eager code: callDirect and enterFunction
  /// without what such a call does not use. `pushArgs()` evaluates the arguments and pushes
  /// each (pushArgument).
  template <class PushArgs>
  Value callPlain(FunctionObj* fn, const Span& site, PushArgs&& pushArgs);
  /// Builds a call's next argument in the first free slot. Every slot there is Undefined, so
  /// nothing is released; the argument's own calls have popped their frames by the time its
  /// value is in hand (so `v` is not built in the slot itself: see callDirect).
  void pushArgument(Value&& v) {
    Value* slot = top_;
    new (slot) Value(std::move(v));
    top_ = slot + 1;
  }
  /// Calls of a compiled Call node: `fn(args)` with the callee's value in hand, and
  /// `object.name(args)` with the receiver's.
  Value callCompiled(Call* c, Value callee, const CExpr* const* args, Frame& f);
  Value callMethodCompiled(Call* c, Value object, const CExpr* const* args, Frame& f);
  /// callValue without restoring the site, for calls made by handlers: `site` is an AST
  /// node's, so it outlives an error (Note [Spans]).
  Value callAny(const Value& callee, std::span<Value> positional,
                std::span<const std::string> kwNames, std::span<Value> kwValues,
                const Span& site);

  // What statements share (bindings.cpp).
  void bind(Pattern* p, Value v, Frame& f);
  /// Assignments to a name, an index or an attribute, with their values in hand.
  void storeName(Name* n, Value v, Frame& f);
  void storeIndex(Assign* s, const Value& object, const Value& key, Value rhs);
  void storeAttr(Assign* s, const Value& object, Value rhs);
  /// The new value of an augmented assignment (`x += v`).
  Value augmented(Assign* s, const Value& old, Value rhs);
  /// A for loop over `iterable` whose body is `body`.
  Flow forEach(For* s, Value iterable, const CBlock& body, Frame& f);
  /// `body(item)` for each item of any iterable (iteration.h).
  template <class Body>
  Flow eachItem(const Value& iterable, const Span& iterableSpan, Body&& body);
  /// A fn value for `proto` made in frame f, with its parameters' default values.
  Value makeClosure(FnProto* proto, std::span<const CExpr* const> defaults, Frame& f);
  /// The truth of a value as a branch condition, errors at `e`.
  bool truthOf(const Value& v, Expr* e) {
    if (v.is(Type::Bool)) [[likely]]
      return v.asBool();
    at(e->span);
    return truthy(v);
  }

  // Steps and limits.
  void countLoopStep(const Span& span) {
    checkInterrupt(span);
    countStep(span);
  }
  /// Counts one step (a statement, a loop iteration or a call) against
  /// InterpreterOptions::maxSteps.
  void countStep(const Span& span) {
    if (--stepsLeft_ < 0) [[unlikely]]
      stepsRanOut(span);
  }
  /// countStep for the hottest handlers: true when its slow path must run, which the caller
  /// then reaches by a tail call to a cold copy of itself, so that the possible return from
  /// stepsRanOut costs the fast path no saved registers (Note [Polls] in calls.cpp).
  [[nodiscard]] bool stepRunsOut() { return --stepsLeft_ < 0; }
  /// countStep's slow path: a poll (Note [Polls]) or the step limit.
  [[gnu::cold]] void stepsRanOut(const Span& span);
  /// Makes the next countStep take its slow path, where a due collection runs (Note [Polls]).
  void requestPoll() {
    banked_ += stepsLeft_;
    stepsLeft_ = 0;
    pollRequested_ = true;
  }

 private:
  template <class EvalArg>
  Value callDirect(FunctionObj* fn, Call* c, EvalArg&& evalArg);
  template <class EvalArg>
  Value callGeneric(Call* c, Value callee, EvalArg&& evalArg);
  template <class EvalArg>
  Value methodCall(Call* c, Value object, EvalArg&& evalArg);
  Value enterFunction(FunctionObj* fn, Value* base, size_t nargs, const Span& site);
  Value callFunction(FunctionObj* fn, std::span<Value> positional,
                     std::span<const std::string> kwNames, std::span<Value> kwValues, Span site);
  Value runToFinalReturn(const ClosureCode& code, Frame& f);

  /// The one place a UserError becomes a ScriptError (Note [Spans]): at the recorded site, else
  /// at `fallback` (a statement's span, where the statement is given).
  [[noreturn, gnu::cold]] void rethrowAt(const UserError& err, const Span& fallback);
  [[noreturn, gnu::cold]] void rethrowAt(const UserError& err, Stmt* s);
  [[noreturn, gnu::cold]] void outOfMemoryAt(Stmt* s);

  /// Stops the script with an Interrupted error once Interpreter::interrupt() was called.
  void checkInterrupt(const Span& span) {
    if (interruptFlag_->load(std::memory_order_relaxed)) [[unlikely]]
      interrupted(span);
  }
  [[noreturn]] void interrupted(const Span& span);
  [[noreturn]] void stepLimitExceeded(const Span& span);
  // The errors and the trace of a call, out of line (Note [Cold call paths] in calls.cpp).
  [[noreturn, gnu::cold]] void outOfValueStack(const FnProto& proto, const Span& site);
  [[noreturn, gnu::cold]] void recursionTooDeep(const FnProto& proto, const Span& site);
  [[gnu::cold]] static void addTraceFrame(ScriptError& err, const FnProto& proto,
                                          const Span& site);

  /// Pops a frame: its slots back to Undefined (all-zero bytes, Note [Value stack] in
  /// calls.cpp), the top back to its base, and the depth when the call was entered.
  struct FrameGuard {
    Engine& e;
    Value* base;
    bool entered = false;
    ~FrameGuard() {
      for (Value* v = base; v < e.top_; ++v) {
        v->~Value();
        std::memset(static_cast<void*>(v), 0, sizeof(Value));
      }
      e.top_ = base;
      if (entered) --e.depth_;
    }
  };
  Interpreter& interp_;

  std::atomic<bool>* interruptFlag_;
  int maxCallDepth_;
  int64_t maxSteps_;   // 0: no limit
  int64_t stepsLeft_;  // of the current entry (resetSteps)
  const Span* site_ = nullptr;  // Note [Spans]

  /// The frame slots of every active call (Note [Value stack] in calls.cpp): zeroed memory
  /// from calloc, so that pages no script reaches cost nothing. All-zero bytes are an
  /// Undefined Value, and every slot above the top is Undefined, so nothing is destroyed.
  struct Free {
    void operator()(Value* v) const { std::free(v); }
  };
  std::unique_ptr<Value, Free> stack_;
  Value* stackEnd_;
  Value* top_;  // the first free slot (Note [Value stack] in calls.cpp)
  /// Whether a frame of n slots fits above the top of the value stack.
  bool hasRoomFor(size_t n) const { return n <= static_cast<size_t>(stackEnd_ - top_); }
  int depth_ = 0;

 public:
  /// The errors being handled by the `except` blocks now running, innermost last (what a bare
  /// `raise` raises again). Last: the hot members above keep their offsets.
  std::vector<Value> handling;

 private:
  int64_t banked_ = 0;  // steps set aside by requestPoll (Note [Polls])
  bool pollRequested_ = false;
};

// The statement loop (Note [Spans]). Inline, so that the blocks of ifs and loops run without a
// call of their own.
[[gnu::always_inline]] inline Flow Engine::runStatements(CStmt* const* it, CStmt* const* end,
                                                         Frame& f) {
  try {
    for (; it != end; ++it) {
      countStep((*it)->src->span);
      site_ = nullptr;
      Flow flow = (*it)->run(**it, f, *this);
      if (flow != Flow::Normal) return flow;
    }
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    rethrowAt(err, (*it)->src);
  } catch (const std::bad_alloc&) {
    // Host memory ran out inside a container or a kernel's buffer: the statement fails, the
    // session goes on.
    outOfMemoryAt((*it)->src);
  }
  return Flow::Normal;
}

// A fn body whose last statement is `return <value>`, in eager code: the statements before it,
// then the value, as the result (Note [Final return]).
[[gnu::always_inline]] inline Value Engine::runToFinalReturn(const ClosureCode& code, Frame& f) {
  CStmt* const* stmts = code.body.stmts.data();
  size_t last = code.body.stmts.size() - 1;
  if (last != 0 && runStatements(stmts, stmts + last, f) != Flow::Normal)
    return std::move(f.result);
  Stmt* ret = stmts[last]->src;
  countStep(ret->span);
  site_ = nullptr;
  try {
    return code.finalValue->run(*code.finalValue, f, *this);
  } catch (const ScriptError&) {
    throw;
  } catch (const UserError& err) {
    rethrowAt(err, ret);
  } catch (const std::bad_alloc&) {
    outOfMemoryAt(ret);
  }
}

template <class PushArgs>
[[gnu::always_inline]] inline Value Engine::callPlain(FunctionObj* fn, const Span& site,
                                                      PushArgs&& pushArgs) {
  Ref<FunctionObj> keep(fn);  // the body may rebind the global that held it
  FnProto* proto = fn->proto;
  // The messages of the limits are built out of line (Note [Cold call paths] in calls.cpp).
  if (!hasRoomFor(proto->numSlots)) [[unlikely]]
    outOfValueStack(*proto, site);
  Value* slots = top_;
  // FrameGuard, as a local struct: GCC inlines it into the fast path better than the member
  // struct (fib.dsl under callgrind: 173.9M -> 170.0M instructions).
  struct Pop {
    Engine& e;
    Value* slots;
    bool entered = false;
    ~Pop() {
      for (Value* v = slots; v < e.top_; ++v) {
        v->~Value();
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
    const ClosureCode& code = *proto->code;  // eager: plainArity is set with it
    if (code.finalValue && !traceContext().regions) [[likely]]
      return runToFinalReturn(code, frame);
    runCode(code.body, frame);
  } catch (ScriptError& err) {
    addTraceFrame(err, *proto, site);
    throw;
  }
  return std::move(frame.result);
}

}  // namespace tessel::interp
