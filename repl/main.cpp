// The `tessel` command: run a script, run -c code, or open the REPL.
#include <csignal>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "interp/interpreter.h"
#include "repl/repl.h"
#include "repl/runner.h"

namespace {

tessel::interp::Interpreter* gInterp = nullptr;

// Only the program installs a signal handler (the library never does): Ctrl-C asks the
// running script to stop; the REPL then returns to its prompt.
void onSigint(int) {
  if (gInterp) gInterp->interrupt();
}

const char* kUsage =
    "usage: tessel [options] [script.dsl [args...]]\n"
    "       tessel -c CODE [args...]\n"
    "       tessel                      (interactive REPL)\n"
    "\n"
    "options:\n"
    "  -c CODE        run CODE as a program\n"
    "  --logs CATS    compiler logs on stderr, e.g. recompiles,guards,dynamic,+dynamic,\n"
    "                 graph_code,perf (the same as TESSEL_LOGS=CATS)\n"
    "  -h, --help     show this help\n"
    "  --version      print the version\n";

struct Invocation {
  std::string script;
  std::string code;
  bool hasCode = false;
  std::vector<std::string> args;
  int status = 0;
};

int runMain(void* p) {
  auto* inv = static_cast<Invocation*>(p);
  tessel::interp::InterpreterOptions options;
  options.args = inv->args;
  tessel::interp::Interpreter interp(options);
  gInterp = &interp;
  int status;
  if (inv->hasCode)
    status = tessel::repl::runCode(interp, inv->code);
  else if (!inv->script.empty())
    status = tessel::repl::runScript(interp, inv->script);
  else
    status = tessel::repl::runRepl(interp);
  std::cout.flush();
  gInterp = nullptr;
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Invocation inv;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--version") {
      std::cout << "tessel " << TESSEL_VERSION << "\n";
      return 0;
    }
    if (a == "--logs" || a.rfind("--logs=", 0) == 0) {
      std::string cats;
      if (a == "--logs") {
        if (i + 1 >= argc) {
          std::cerr << "tessel: --logs needs a list of categories\n" << kUsage;
          return 2;
        }
        cats = argv[++i];
      } else {
        cats = a.substr(7);
      }
      // The interpreter reads TESSEL_LOGS when it starts, so the flag is just that variable.
      setenv("TESSEL_LOGS", cats.c_str(), 1);
      continue;
    }
    if (a == "-c") {
      if (i + 1 >= argc) {
        std::cerr << "tessel: -c needs an argument\n" << kUsage;
        return 2;
      }
      inv.code = argv[++i];
      inv.hasCode = true;
      ++i;
      break;
    }
    if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::cerr << "tessel: unknown option '" << a << "'\n" << kUsage;
      return 2;
    }
    inv.script = a;
    ++i;
    break;
  }
  for (; i < argc; ++i) inv.args.push_back(argv[i]);
  struct sigaction sa {};
  sa.sa_handler = onSigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  return tessel::repl::runWithLargeStack(runMain, &inv);
}
