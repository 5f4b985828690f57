// Interpreter: one Tessel session (sources, modules, globals, output) and the services that
// built-ins need from the evaluator: calling values, printing them, importing modules.
#pragma once

#include <atomic>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "interp/ast.h"
#include "interp/objects.h"
#include "interp/source.h"

namespace tessel::interp {

class Evaluator;
class CompilerState;

struct InterpreterOptions {
  /// Deepest chain of Tessel calls before a LimitError (the native stack is checked as well).
  int maxCallDepth = 10000;
  /// Script arguments, visible to scripts as `args` (a list of strings).
  std::vector<std::string> args;
};

class Interpreter {
 public:
  explicit Interpreter(InterpreterOptions options = {});
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  /// Runs a script file as the main module. Throws ScriptError.
  void runFile(const std::string& path);
  /// Runs source text in the main module (`tessel -c`, the REPL, embedders). With `echo`, the
  /// value of a final expression statement is returned (else none). Throws ScriptError.
  Value runSource(const std::string& displayName, const std::string& text, bool echo = false);
  /// Parses and resolves only, as `:type` needs; throws ScriptError.
  Value evalExpression(const std::string& displayName, const std::string& text);

  /// Asks the running script to stop at its next loop iteration or call; safe from any thread
  /// and from a signal handler. The script fails with an `Interrupted` error.
  void interrupt() { interruptRequested_.store(true, std::memory_order_relaxed); }
  std::atomic<bool>& interruptFlag() { return interruptRequested_; }

  /// Where print() writes (stdout by default).
  void setOutput(std::ostream* out) { out_ = out; }
  std::ostream& out() { return *out_; }

  SourceRegistry& sources() { return sources_; }
  ModuleObj& mainModule() { return *main_; }
  const InterpreterOptions& options() const { return options_; }
  /// Forgets every global of the main module (the REPL's `:reset`).
  void resetMain();

  /// Calls any callable value with positional and keyword arguments (natives use this for
  /// callbacks such as sorted's key). `site` is the span errors and tracebacks point at. The
  /// argument values may be moved from (the callee's frame takes them).
  Value call(const Value& callee, std::span<Value> positional, Span site,
             std::span<const std::string> kwNames = {}, std::span<Value> kwValues = {});

  /// Imports a module by name (`nn`) or path (`"lib/util.dsl"`), relative to `fromFile`.
  Value importModule(const std::string& name, bool isPath, const std::string& fromFile, Span site);

  /// The prelude: built-in functions every module sees.
  ModuleObj& prelude() { return *prelude_; }

  Evaluator& evaluator() { return *evaluator_; }
  /// Compilation state: config knobs, logs, compiled frames (interp/compile/compiler_state.h);
  /// null in a program built without the compiler (Note [The compiler plugin]).
  CompilerState& compiler() { return *compiler_; }
  bool hasCompiler() const { return compiler_ != nullptr; }

 private:
  Ref<ModuleObj> newModule(std::string name, std::string path);
  Value runProgram(uint32_t file, ModuleObj& module, bool echo);

  InterpreterOptions options_;
  // Before every member that can hold values: compiled frames unregister from it when the
  // modules holding them are destroyed, so it must be destroyed last.
  std::shared_ptr<CompilerState> compiler_;
  SourceRegistry sources_;
  std::vector<std::unique_ptr<Program>> programs_;  // kept alive: closures point into them
  Ref<ModuleObj> prelude_;
  Ref<ModuleObj> main_;
  std::vector<std::pair<std::string, Ref<ModuleObj>>> modules_;  // by absolute path
  std::vector<std::string> importing_;                           // cycle detection
  std::unique_ptr<Evaluator> evaluator_;
  std::ostream* out_;
  std::atomic<bool> interruptRequested_{false};
};

}  // namespace tessel::interp
