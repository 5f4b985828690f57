// The registry of non-core built-ins and built-in modules.
#include "interp/native_modules.h"

#include "interp/compiler_state.h"
#include "interp/interpreter.h"
#include "interp/tensor_bridge.h"

namespace tessel::interp {

void registerCompileBuiltins(ModuleObj& prelude);
Value makeConfigModule(CompilerConfig& config);

void registerNativeBuiltins(Interpreter& interp, ModuleObj& prelude) {
  registerTensorBuiltins(interp, prelude);
  registerCompileBuiltins(prelude);
  CompilerState& state = interp.compiler();
  state.configModule = makeConfigModule(state.config);
  prelude.define("config", state.configModule);
}

Value findNativeModule(Interpreter& interp, const std::string& name) {
  if (name == "config") return interp.compiler().configModule;
  return Value::none();
}

}  // namespace tessel::interp
