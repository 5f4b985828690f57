// The registry of non-core built-ins and built-in modules.
#include "interp/natives/native_modules.h"

#include <utility>
#include <vector>

#include "interp/natives/dist_module.h"
#include "interp/natives/display.h"
#include "interp/natives/file_natives.h"
#include "interp/natives/gc_natives.h"
#include "interp/natives/plot_module.h"
#include "interp/natives/progress.h"
#include "interp/eval/session.h"
#include "interp/tensors/tensor_bridge.h"

namespace tessel::interp {

namespace {
const CompilerPlugin* gPlugin = nullptr;

// Filled by static initializers before main(), read-only afterwards (no lock needed).
std::vector<std::pair<std::string, std::string_view>>& embeddedModules() {
  static auto* modules = new std::vector<std::pair<std::string, std::string_view>>;
  return *modules;
}
}  // namespace

void registerEmbeddedModule(std::string name, std::string_view text) {
  embeddedModules().emplace_back(std::move(name), text);
}

const std::string_view* findEmbeddedModule(const std::string& name) {
  for (const auto& [n, text] : embeddedModules())
    if (n == name) return &text;
  return nullptr;
}

std::vector<std::string> nativeModuleNames() {
  return {"plot"};
}

std::vector<std::string> embeddedModuleNames() {
  std::vector<std::string> names;
  for (const auto& [n, text] : embeddedModules()) names.push_back(n);
  return names;
}

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
  registerFileBuiltins(interp, prelude);
  registerGcBuiltins(prelude);
  registerDisplayBuiltins(prelude);
  registerProgressBuiltins(prelude);
  prelude.define("dist", makeDistModule());
  if (gPlugin) gPlugin->registerBuiltins(interp, prelude);
}

Value findNativeModule(Interpreter& interp, const std::string& name) {
  if (name == "dist" || name == "math") return *interp.prelude().lookup(name);
  if (name == "plot") return makePlotModule();
  return gPlugin ? gPlugin->findModule(interp, name) : Value::none();
}

}  // namespace tessel::interp
