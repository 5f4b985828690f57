// Evaluation with error reporting and echo.
#include "repl/repl_eval.h"

#include <unistd.h>

#include <exception>
#include <iostream>

#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/values/printer.h"

namespace tessel::repl {

bool reportErrors(interp::Interpreter& interp, const std::function<void()>& body) {
  try {
    body();
    return true;
  } catch (const interp::ScriptError& e) {
    std::cout.flush();
    std::cerr << interp::formatDiagnostic(e, interp.sources(), isatty(STDERR_FILENO));
  } catch (const UserError& e) {
    std::cout.flush();
    std::cerr << errorKindName(e.kind()) << ": " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "error: out of memory\n";
  } catch (const InternalError& e) {
    std::cout.flush();
    std::cerr << e.what() << "\n";
  }
  return false;
}

void echoValue(const interp::Value& value) {
  if (value.is(interp::Type::None) || value.is(interp::Type::Undefined)) return;
  std::cout << interp::repr(value) << "\n";
}

void evalAndEcho(interp::Interpreter& interp, const std::string& text) {
  reportErrors(interp, [&] { echoValue(interp.runSource(kInputName, text, true)); });
}

}  // namespace tessel::repl
