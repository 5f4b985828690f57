// Minimal REPL loop; the full one (libedit, completion, commands) replaces this.
#include "repl/repl.h"

#include <iostream>
#include <string>

#include "interp/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/printer.h"

namespace tessel::repl {

int runRepl(interp::Interpreter& interp) {
  std::string line;
  while (std::getline(std::cin, line)) {
    try {
      interp::Value v = interp.runSource("<stdin>", line, true);
      if (!v.is(interp::Type::None)) std::cout << interp::repr(v) << "\n";
    } catch (const interp::ScriptError& e) {
      std::cerr << interp::formatDiagnostic(e, interp.sources());
    }
  }
  return 0;
}

}  // namespace tessel::repl
