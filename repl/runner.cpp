// Script runner: diagnostics, exit statuses, the large-stack thread.
#include "repl/runner.h"

#include <pthread.h>
#include <unistd.h>

#include <iostream>

#include "repl/failure.h"

namespace tessel::repl {

namespace {

std::string gLastError;

void remember(const std::string& diagnostic) {
  gLastError = diagnostic.substr(0, diagnostic.find('\n'));
}

template <class F>
int guarded(F&& body) {
  try {
    body();
    return 0;
  } catch (const Error& e) {
    Failure failure = failureOf(e);
    if (failure == Failure::Exit) return e.exitStatus();
    std::cout.flush();
    if (failure == Failure::Script) {
      std::cerr << (isatty(2) ? e.coloredDiagnostic() : e.what());
      remember(e.what());
      return 1;
    }
    if (failure == Failure::Internal) {
      std::cerr << "tessel: " << e.message() << "\n";
      remember(e.message());
      return 70;  // EX_SOFTWARE: a bug of Tessel's, not of the script
    }
    std::cerr << "tessel: " << e.kind() << ": " << e.message() << "\n";
    remember(e.kind() + ": " + e.message());
    return 1;
  }
}

}  // namespace

std::string lastError() {
  return gLastError;
}

int runScript(Interpreter& vm, const std::string& path) {
  return guarded([&] { vm.execFile(path); });
}

int runCode(Interpreter& vm, const std::string& code) {
  return guarded([&] { vm.exec(code, "<string>"); });
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
