// Built-in modules and built-ins that live above the core (tensors, config, compiler controls)
// plug in here, so interpreter.cpp does not depend on each of them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "interp/values/objects.h"

namespace tessel::interp {

class Interpreter;
class CompilerState;

/// Adds every non-core built-in (tensor functions, the compiler's) to the prelude.
void registerNativeBuiltins(Interpreter& interp, ModuleObj& prelude);
/// A built-in module by name (`config`), or none.
Value findNativeModule(Interpreter& interp, const std::string& name);
/// The built-in modules that are only imported (`import plot`), not names of the prelude.
std::vector<std::string> nativeModuleNames();

// Note [The compiler plugin]
// The tracing compiler (interp/compile/) is a layer above the core: it uses the evaluator,
// and the core must not include it (architecture.md). It reaches every Interpreter through
// this seam instead: the compiler library installs a plugin before main() runs (a static
// initializer; CMake links that library whole into every program that links tessel_interp),
// and each Interpreter asks it for its CompilerState, its built-ins (compile, stats, explain,
// ...) and its built-in modules (config). A program built with the core alone has no compiler
// and no such built-ins.
struct CompilerPlugin {
  std::shared_ptr<CompilerState> (*createState)();
  void (*registerBuiltins)(Interpreter& interp, ModuleObj& prelude);
  Value (*findModule)(Interpreter& interp, const std::string& name);
  /// The function a compiled function (`compile(f)`, `@compile`) wraps, else none (help()).
  Value (*wrappedFunction)(const Value& callable);
};
/// Installs the compiler (once per process, from interp/compile/plugin.cpp).
void installCompilerPlugin(const CompilerPlugin& plugin);
/// The installed compiler, or nullptr.
const CompilerPlugin* compilerPlugin();

// Note [Embedded stdlib]
// The modules of stdlib/ (nn.dsl, ...) are compiled into the library as text: an app that
// links an installed libtessel, wherever it lives, imports `nn` with no path to configure.
// stdlib/CMakeLists.txt generates the registration (a static initializer in tessel_stdlib,
// linked whole like the compiler). A file of that name next to the importing script, or in a
// directory of $TESSEL_STDLIB_PATH, is found first, so a user can shadow or develop a module.
/// Registers the source text of stdlib module `name` (called before main() runs).
void registerEmbeddedModule(std::string name, std::string_view text);
/// The text of an embedded module, or nullptr.
const std::string_view* findEmbeddedModule(const std::string& name);
/// The names of the embedded stdlib modules, in registration order.
std::vector<std::string> embeddedModuleNames();

}  // namespace tessel::interp
