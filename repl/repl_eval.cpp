// Evaluation with error reporting and echo.
#include "repl/repl_eval.h"

#include <unistd.h>

#include <exception>
#include <iostream>

#include "repl/failure.h"

namespace tessel::repl {

bool reportErrors(const std::function<void()>& body) {
  try {
    body();
    return true;
  } catch (const Error& e) {
    Failure failure = failureOf(e);
    if (failure == Failure::Exit) throw;
    std::cout.flush();
    if (failure == Failure::Script)
      std::cerr << (isatty(STDERR_FILENO) ? e.coloredDiagnostic() : e.what());
    else if (failure == Failure::OutOfMemory)
      std::cerr << "error: out of memory\n";
    else if (failure == Failure::Internal)
      std::cerr << e.message() << "\n";
    else
      std::cerr << e.kind() << ": " << e.message() << "\n";
  } catch (const std::exception& e) {
    // The API lets only tessel::Error out: anything else is a bug (a failed assertion of the
    // REPL's own code), reported as one while the session goes on.
    std::cout.flush();
    std::cerr << e.what() << "\n";
  }
  return false;
}

void echoValue(const Value& value) {
  if (value.isNone()) return;
  std::cout << value.repr() << "\n";
}

void evalAndEcho(Interpreter& vm, const std::string& text) {
  reportErrors([&] { echoValue(vm.run(text, kInputName)); });
}

}  // namespace tessel::repl
