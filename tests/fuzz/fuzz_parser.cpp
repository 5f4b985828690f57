// Fuzz target: the parser and the resolver on arbitrary bytes. Any input must end
// in an AST or a ScriptError (SyntaxError, LimitError); a crash, a sanitizer report or an
// uncaught exception is a bug. Run with tools/fuzz.sh fuzz_parser SECONDS.
#include <cstddef>
#include <cstdint>
#include <string>

#include "interp/syntax/diagnostics.h"
#include "interp/values/objects.h"
#include "interp/syntax/parser.h"
#include "interp/syntax/resolver.h"
#include "interp/syntax/source.h"
#include "shapes/user_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel::interp;
  SourceRegistry sources;
  const uint32_t file =
      sources.add("<fuzz>", std::string(reinterpret_cast<const char*>(data), size));
  try {
    std::unique_ptr<Program> program = parseProgram(sources, file);
    ModuleObj module("<fuzz>");
    resolveProgram(*program, module);
  } catch (const ScriptError&) {
    // A bad program: the expected outcome for most inputs.
  } catch (const tessel::UserError&) {
  }
  needsMoreInput(sources.text(file));
  return 0;
}
