// Interpreter: running sources, modules and imports.
#include "interp/interpreter.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "interp/natives/attributes.h"
#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/tensor_bridge.h"
#include "interp/eval/evaluator.h"
#include "interp/natives/native_modules.h"
#include "interp/syntax/parser.h"
#include "interp/syntax/resolver.h"

namespace tessel::interp {

namespace fs = std::filesystem;

// Note [Interpreter entry]
// Interpreters are independent (embedding.md): each has its own memory budget, tpu config,
// stats, heap of containers (the cycle collector's) and default device, but the layers below read those through the thread that runs
// (a thread-local each), since a kernel or an allocation does not know its interpreter. So
// every way into an interpreter opens an Entry, which installs them on the current thread
// and puts back whatever was there before (an interpreter may call into another: a host
// function of one running a second). The outermost Entry also starts a fresh step count and
// forgets an interrupt() that arrived while nothing ran.

Interpreter::Entry::Entry(Interpreter& interp)
    : interp_(interp), budget_(interp.memoryBudget_), tpu_(&interp.tpu_),
      previousDevice_(setThreadDefaultDevice(interp.options_.device)),
      previousHeap_(setCurrentGcHeap(&interp.gcHeap_)) {
  if (interp_.entries_++ == 0) {
    interp_.interruptRequested_.store(false);
    if (interp_.evaluator_) interp_.evaluator_->resetSteps();
  }
}

Interpreter::Entry::~Entry() {
  --interp_.entries_;
  setThreadDefaultDevice(previousDevice_);
  setCurrentGcHeap(previousHeap_);
}

Interpreter::Interpreter(InterpreterOptions options)
    : options_(std::move(options)),
      memoryBudget_(options_.maxMemoryBytes > 0
                        ? std::make_shared<backends::MemoryBudget>(options_.maxMemoryBytes)
                        : nullptr),
      out_(&std::cout),
      err_(&std::cerr) {
  // The layers below call up through tables that the higher ones fill in (interp/README.md,
  // "Layers"): installed here, before the first value is made, rather than from static
  // initializers, which the linker may drop from a static library nothing else references.
  installTensorHooks();
  installAttributeHooks();
  Entry entry(*this);  // the compiler's state registers its tpu log in this interpreter's
  compiler_ = compilerPlugin() ? compilerPlugin()->createState() : nullptr;
  evaluator_ = Evaluator::create(*this);
  prelude_ = newModule("builtins", "");
  registerCoreBuiltins(*prelude_);
  registerNativeBuiltins(*this, *prelude_);
  main_ = newModule("__main__", "");
  std::vector<Value> argv;
  for (auto& a : options_.args) argv.push_back(makeStr(a));
  main_->define("args", makeList(std::move(argv)));
}

// Tensors freed on the way give their bytes back to the budget they were charged to, Entry or
// not (Note [Memory budget]). The interpreter lets go of its modules and then collects: the
// cycles among what they held (a module's globals and its functions, compiled frames) are
// freed here, not left to the end of the process. What an embedder still holds stays alive.
Interpreter::~Interpreter() {
  gcHeap_.perfLog = nullptr;
  Entry entry(*this);
  main_ = Ref<ModuleObj>();
  prelude_ = Ref<ModuleObj>();
  modules_.clear();
  gcHeap_.collect();
}

Ref<ModuleObj> Interpreter::newModule(std::string name, std::string path) {
  return make<ModuleObj>(std::move(name), std::move(path));
}

void Interpreter::resetMain() {
  main_ = newModule("__main__", main_->path);
  std::vector<Value> argv;
  for (auto& a : options_.args) argv.push_back(makeStr(a));
  main_->define("args", makeList(std::move(argv)));
}

Value Interpreter::runProgram(uint32_t file, ModuleObj& module, bool echo) {
  std::unique_ptr<Program> program = parseProgram(sources_, file);
  resolveProgram(*program, module);
  // Globals that name a built-in start out bound to it, so calls to print or len need no
  // lookup; a module may still rebind them, as Python's module globals shadow builtins.
  for (size_t i = 0; i < module.globals.size(); ++i)
    if (module.globals[i].is(Type::Undefined))
      if (Value* b = prelude_->lookup(module.globalNames[i])) module.globals[i] = *b;
  FnProto* proto = program->proto;
  programs_.push_back(std::move(program));
  return evaluator_->runModule(proto, module, echo);
}

Value Interpreter::runFile(const std::string& path, bool echo) {
  Entry entry(*this);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(ErrorKind::ImportError, "cannot open script '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  main_->path = path;
  uint32_t file = sources_.add(path, text.str());
  return runProgram(file, *main_, echo);
}

Value Interpreter::runSource(const std::string& displayName, const std::string& text, bool echo) {
  Entry entry(*this);
  uint32_t file = sources_.add(displayName, text);
  return runProgram(file, *main_, echo);
}

Value Interpreter::evalExpression(const std::string& displayName, const std::string& text) {
  return runSource(displayName, text, true);
}

Value Interpreter::call(const Value& callee, std::span<Value> positional, Span site,
                        std::span<const std::string> kwNames, std::span<Value> kwValues) {
  Entry entry(*this);
  return evaluator_->callValue(callee, positional, kwNames, kwValues, site);
}

namespace {

std::vector<std::string> stdlibDirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("TESSEL_STDLIB_PATH")) {
    std::string list = env;
    size_t start = 0, colon;
    while ((colon = list.find(':', start)) != std::string::npos) {
      dirs.push_back(list.substr(start, colon - start));
      start = colon + 1;
    }
    dirs.push_back(list.substr(start));
  }
  return dirs;
}

}  // namespace

Value Interpreter::importModule(const std::string& name, bool isPath, const std::string& fromFile,
                                Span site) {
  // Entered here as well: a module imported from C++ (help's tables, docs tests) is then made in
  // this interpreter's heap and collected with it, as one imported by a script is; outside an
  // entry its cycles (the module and its functions) would never be tracked, hence never freed.
  Entry entry(*this);
  if (!isPath)
    if (Value native = findNativeModule(*this, name); !native.is(Type::None)) return native;
  fs::path base = fromFile.empty() ? fs::current_path() : fs::path(fromFile).parent_path();
  std::vector<fs::path> candidates;
  if (isPath) {
    candidates.push_back(fs::path(name).is_absolute() ? fs::path(name) : base / name);
  } else {
    candidates.push_back(base / (name + ".dsl"));
    for (const std::string& dir : stdlibDirs())
      candidates.push_back(fs::path(dir) / (name + ".dsl"));
  }
  fs::path found;
  for (const fs::path& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) {
      found = fs::weakly_canonical(c, ec);
      break;
    }
  }
  const std::string_view* embedded = nullptr;
  if (found.empty() && !isPath && (embedded = findEmbeddedModule(name)))
    found = "<stdlib>/" + name + ".dsl";  // Note [Embedded stdlib]
  if (found.empty()) {
    std::string where;
    for (const fs::path& c : candidates) where += (where.empty() ? "" : ", ") + c.string();
    raise(ErrorKind::ImportError, "no module '" + name + "' (looked for " + where + ")", site);
  }
  std::string key = found.string();
  for (auto& [path, module] : modules_)
    if (path == key) return module.value();
  for (const std::string& p : importing_)
    if (p == key) raise(ErrorKind::ImportError, "circular import of '" + name + "'", site);

  std::stringstream text;
  if (embedded) {
    text << *embedded;
  } else {
    std::ifstream in(found, std::ios::binary);
    text << in.rdbuf();
  }
  std::string stem = found.stem().string();
  Ref<ModuleObj> module = newModule(stem, key);
  importing_.push_back(key);
  struct PopImport {
    std::vector<std::string>& v;
    ~PopImport() { v.pop_back(); }
  } pop{importing_};
  uint32_t file = sources_.add(key, text.str());
  try {
    runProgram(file, *module, false);
  } catch (ScriptError& err) {
    err.trace.push_back(TraceFrame{"import " + name, site});
    throw;
  }
  modules_.emplace_back(key, module);
  return module.value();
}

}  // namespace tessel::interp
