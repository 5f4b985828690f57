// The registry of non-core built-ins and built-in modules.
#include "interp/native_modules.h"

#include "interp/interpreter.h"
#include "interp/tensor_bridge.h"

namespace tessel::interp {

namespace {
const CompilerPlugin* gPlugin = nullptr;
}  // namespace

void installCompilerPlugin(const CompilerPlugin& plugin) {
  static CompilerPlugin installed;
  installed = plugin;
  gPlugin = &installed;
}

const CompilerPlugin* compilerPlugin() {
  return gPlugin;
}

void registerNativeBuiltins(Interpreter& interp, ModuleObj& prelude) {
  registerTensorBuiltins(interp, prelude);
  if (gPlugin) gPlugin->registerBuiltins(interp, prelude);
}

Value findNativeModule(Interpreter& interp, const std::string& name) {
  return gPlugin ? gPlugin->findModule(interp, name) : Value::none();
}

}  // namespace tessel::interp
