// The compiler's side of Note [The compiler plugin] (interp/natives/native_modules.h): every
// Interpreter gets a CompilerState, the compiler's built-ins and the `config` module.
#include <cstdio>

#include "interp/compile/compiled_frame.h"
#include "interp/compile/compiler_state.h"
#include "interp/interpreter.h"
#include "interp/natives/native_modules.h"

namespace tessel::interp {

void registerCompileBuiltins(ModuleObj& prelude);
Value makeConfigModule(CompilerConfig& config);

namespace {

void registerBuiltins(Interpreter& interp, ModuleObj& prelude) {
  registerCompileBuiltins(prelude);
  CompilerState& state = interp.compiler();
  state.configModule = makeConfigModule(state.config);
  prelude.define("config", state.configModule);
  // Collections are logged under `perf`, tagged [gc]; ~Interpreter drops this before the
  // state goes.
  interp.gcHeap().perfLog = [&state](const std::string& line) {
    if (state.log.on(LogCategory::Perf)) std::fprintf(stderr, "[gc] %s\n", line.c_str());
  };
}

Value findModule(Interpreter& interp, const std::string& name) {
  if (name == "config") return interp.compiler().configModule;
  return Value::none();
}

Value wrappedFunction(const Value& callable) {
  if (callable.is(Type::Builtin)) {
    const Value& self = callable.as<BuiltinObj>()->self;
    if (self.is(Type::Compiled)) return self.as<FrameObj>()->function;
  }
  return Value::none();
}

const bool installed = [] {
  installCompilerPlugin({[] { return std::make_shared<CompilerState>(); }, registerBuiltins,
                         findModule, wrappedFunction});
  return true;
}();

}  // namespace

}  // namespace tessel::interp
