// Script runner: diagnostics, exit statuses, the large-stack thread.
#include "repl/runner.h"

#include <pthread.h>
#include <unistd.h>

#include <iostream>

#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"

namespace tessel::repl {

using interp::ExitRequest;
using interp::ScriptError;

namespace {

std::string gLastError;

void remember(const std::string& diagnostic) {
  gLastError = diagnostic.substr(0, diagnostic.find('\n'));
}

template <class F>
int guarded(interp::Interpreter& interp, F&& body) {
  try {
    body();
    return 0;
  } catch (const ExitRequest& e) {
    return e.status;
  } catch (const ScriptError& e) {
    std::cout.flush();
    std::cerr << interp::formatDiagnostic(e, interp.sources(), isatty(2));
    remember(interp::formatDiagnostic(e, interp.sources(), false));
    return 1;
  } catch (const UserError& e) {
    std::cout.flush();
    std::cerr << "tessel: " << errorKindName(e.kind()) << ": " << e.what() << "\n";
    remember(std::string(errorKindName(e.kind())) + ": " + e.what());
    return 1;
  } catch (const InternalError& e) {
    std::cout.flush();
    std::cerr << "tessel: " << e.what() << "\n";
    remember(e.what());
    return 70;  // EX_SOFTWARE: a bug of Tessel's, not of the script
  }
}

}  // namespace

std::string lastError() {
  return gLastError;
}

int runScript(interp::Interpreter& interp, const std::string& path) {
  return guarded(interp, [&] { interp.runFile(path); });
}

int runCode(interp::Interpreter& interp, const std::string& code) {
  return guarded(interp, [&] { interp.runSource("<string>", code); });
}

int runWithLargeStack(int (*body)(void*), void* arg) {
  constexpr size_t kStackBytes = size_t{512} << 20;  // reserved address space, touched lazily
  struct Call {
    int (*body)(void*);
    void* arg;
    int result;
  } call{body, arg, 0};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kStackBytes);
  pthread_t thread;
  auto trampoline = [](void* p) -> void* {
    auto* c = static_cast<Call*>(p);
    c->result = c->body(c->arg);
    return nullptr;
  };
  if (pthread_create(&thread, &attr, trampoline, &call) != 0) {
    pthread_attr_destroy(&attr);
    return body(arg);  // no big thread available: the stack guard still protects us
  }
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
  return call.result;
}

}  // namespace tessel::repl
