// Evaluator: the one engine that runs Tessel code (architecture.md, "One evaluator"), as the
// rest of the interpreter sees it. Eager runs, tracing (@compile) and compiled regions are
// modes of the same engine (Note [One engine] in interp/eval/engine.h); its internals are
// private to interp/eval/.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "interp/syntax/ast.h"
#include "interp/values/objects.h"
#include "interp/values/trace_context.h"
#include "interp/values/trace_hooks.h"
#include "shapes/user_error.h"

namespace tessel::interp {

class Interpreter;
struct CBlock;

/// The activation of one function (or of a module's top-level code).
struct Frame {
  Value* slots;
  FunctionObj* closure;  // null for module code
  ModuleObj* module;
  Value result;
};

enum class Flow : uint8_t { Normal, Break, Continue, Return };

/// Runs the blocks of a compiled function that has graph breaks (interp/compile/regions.h):
/// installed with setBlockRunner for the duration of such a call, it receives every block the
/// engine would run eagerly (function bodies, loop bodies, branches) and runs the statements it
/// can as compiled graphs, handing the others back to Evaluator::runStatements.
class BlockRunner {
 public:
  virtual ~BlockRunner() = default;
  virtual Flow runBlock(const CBlock& block, Frame& f) = 0;
};

class Evaluator {
 public:
  /// The engine (interp/eval/engine.h).
  static std::unique_ptr<Evaluator> create(Interpreter& interp);
  virtual ~Evaluator() = default;

  /// Runs a module's top-level code. With `echo`, returns the value of a trailing expression
  /// statement.
  virtual Value runModule(FnProto* proto, ModuleObj& module, bool echo) = 0;
  /// Starts a fresh count of steps for InterpreterOptions::maxSteps (Interpreter::Entry).
  virtual void resetSteps() = 0;
  virtual Value callValue(const Value& callee, std::span<Value> positional,
                          std::span<const std::string> kwNames, std::span<Value> kwValues,
                          Span site) = 0;
  /// Binds a resolved name as `let` does (a fresh cell for captured variables).
  virtual void bindRef(const VarRef& ref, Value v, Frame& f) = 0;
  /// The value of fn's i-th where-clause (FnProto::where) in the frame of a call.
  virtual Value whereClause(FunctionObj& fn, size_t i, Frame& f) = 0;
  /// Runs statements [begin, end) of `block` as a block does, without handing them to a
  /// BlockRunner (the runner's way back for the statements it does not compile). Errors get
  /// the statement's span.
  virtual Flow runStatements(const CBlock& block, uint32_t begin, uint32_t end, Frame& f) = 0;
  /// The form of `block` (a block of fn's body, or the body itself) that runs in the current
  /// mode: traced while a tracer is installed, else eager.
  virtual const CBlock& blockInMode(FnProto& proto, const Block& block) = 0;
};

/// The AST block a compiled block was made from, and its statements.
const Block& sourceOf(const CBlock& block);

}  // namespace tessel::interp
