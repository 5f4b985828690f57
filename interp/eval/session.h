// Interpreter: one Tessel session (sources, modules, globals, output) and the services that
// built-ins need from it: calling values, printing, importing modules. Declared here, in eval/,
// because every native receives one (NativeFn) and the engine runs in one, and both sit below
// interp/interpreter.h: natives/, tensors/ and eval/ include this header. What only the top
// layer does is defined there (interp/interpreter.{h,cpp}): the constructor, which wires the
// layers together, running sources and finding modules, and the Entry. The two services that
// need it, call and importModule, are virtual, so that the layers below reach them without
// linking to the top layer's library.
#pragma once

#include <atomic>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "backends/device.h"
#include "backends/io/file_policy.h"
#include "backends/tpu/tpu.h"
#include "interp/syntax/ast.h"
#include "interp/syntax/source.h"
#include "interp/values/gc.h"
#include "interp/values/objects.h"

namespace tessel::backends {
class MemoryBudget;
}

namespace tessel::interp {

class Evaluator;
class CompilerState;

struct InterpreterOptions {
  /// Deepest chain of Tessel calls before a LimitError (the native stack is checked as well).
  int maxCallDepth = 10000;
  /// Script arguments, visible to scripts as `args` (a list of strings).
  std::vector<std::string> args;
  /// Steps (statements, loop iterations and Tessel calls) one entry (a run, an embedder's
  /// call) may execute before a LimitError; 0: no limit.
  int64_t maxSteps = 0;
  /// Tensor bytes this interpreter may hold at once (Note [Memory budget]); 0: no limit.
  int64_t maxMemoryBytes = 0;
  /// Where creation ops put tensors; unset: TESSEL_DEVICE, else cpu.
  std::optional<backends::Device> device;
  /// What load, save, read_text and the other file functions may touch (Note [File policy]);
  /// none by default: the `tessel` command allows every file.
  backends::io::FilePolicy files;
};

class Interpreter {
 public:
  explicit Interpreter(InterpreterOptions options = {});
  virtual ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  /// Runs a script file as the main module. With `echo`, the value of a final expression
  /// statement is returned (else none). Throws ScriptError.
  Value runFile(const std::string& path, bool echo = false);
  /// Runs source text in the main module (`tessel -c`, the REPL, embedders). With `echo`, the
  /// value of a final expression statement is returned (else none). Throws ScriptError.
  Value runSource(const std::string& displayName, const std::string& text, bool echo = false);
  /// Parses and resolves only, as `:type` needs; throws ScriptError.
  Value evalExpression(const std::string& displayName, const std::string& text);

  /// What an interpreter installs on its thread while it runs (Note [Interpreter entry]);
  /// defined in interp/interpreter.h. runFile, runSource, importModule and call enter by
  /// themselves; code that works on the interpreter's values by other means (the embedding
  /// API) enters first.
  class Entry;

  /// Asks the running script to stop at its next loop iteration or call; safe from any thread
  /// and from a signal handler. The script fails with an `Interrupted` error.
  void interrupt() { interruptRequested_.store(true, std::memory_order_relaxed); }
  std::atomic<bool>& interruptFlag() { return interruptRequested_; }

  /// The embedding API's state for this interpreter (api/), for its host functions; null when
  /// the interpreter is used directly.
  void* embedder = nullptr;

  /// Where print() writes (stdout by default).
  void setOutput(std::ostream* out) { out_ = out; }
  std::ostream& out() { return *out_; }
  /// Where print(..., file = stderr) writes (stderr by default).
  void setErrorOutput(std::ostream* err) { err_ = err; }
  std::ostream& err() { return *err_; }

  SourceRegistry& sources() { return sources_; }
  ModuleObj& mainModule() { return *main_; }
  const InterpreterOptions& options() const { return options_; }
  /// Forgets every global of the main module (the REPL's `:reset`).
  void resetMain();

  /// Calls any callable value with positional and keyword arguments (natives use this for
  /// callbacks such as sorted's key). `site` is the span errors and tracebacks point at. The
  /// argument values may be moved from (the callee's frame takes them).
  virtual Value call(const Value& callee, std::span<Value> positional, Span site,
                     std::span<const std::string> kwNames = {}, std::span<Value> kwValues = {});

  /// Imports a module by name (`nn`) or path (`"lib/util.dsl"`), relative to `fromFile`.
  virtual Value importModule(const std::string& name, bool isPath, const std::string& fromFile,
                             Span site);

  /// The prelude: built-in functions every module sees.
  ModuleObj& prelude() { return *prelude_; }

  Evaluator& evaluator() { return *evaluator_; }
  /// Compilation state: config knobs, logs, compiled frames (interp/compile/compiler_state.h);
  /// null in a program built without the compiler (Note [The compiler plugin]).
  CompilerState& compiler() { return *compiler_; }
  bool hasCompiler() const { return compiler_ != nullptr; }

  /// The cycle collector's heap: every container made while this interpreter runs
  /// (Note [Cycle collection] in interp/values/gc.cpp). gc() and Interpreter::collect() of the
  /// embedding API collect it.
  GcHeap& gcHeap() { return gcHeap_; }

 private:
  Ref<ModuleObj> newModule(std::string name, std::string path);
  Value runProgram(uint32_t file, ModuleObj& module, bool echo);

  InterpreterOptions options_;
  std::shared_ptr<backends::MemoryBudget> memoryBudget_;  // null: no limit
  backends::tpu::TpuState tpu_;                           // config.tpu_*, stats()["tpu"]
  int entries_ = 0;                                       // Entry scopes open
  // Constructed before and destroyed after every member that holds values (it untracks, at
  // its end, what outlives it).
  GcHeap gcHeap_;
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
  std::ostream* err_;
  std::atomic<bool> interruptRequested_{false};
};

}  // namespace tessel::interp
