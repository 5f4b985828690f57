// The `tessel` command: run a script, run -c code, or open the REPL.
#include <tessel/tessel.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "repl/pgo_command.h"
#include "repl/repl.h"
#include "repl/report/report.h"
#include "repl/runner.h"

namespace {

tessel::Interpreter* gInterp = nullptr;
volatile sig_atomic_t gSignal = 0;  // the signal that stopped a script, for its exit status
bool gRepl = false;
std::atomic<bool> gInputInterrupted{false};  // Ctrl-C at the REPL's prompt

// Only the program installs signal handlers (the library never does). SIGINT and SIGTERM ask
// the running statement to stop, so a script ends the ordinary way: output flushed, PGO
// profiles and the compile trace written, status 128 + the signal (130, 143), as shells expect.
// A second signal while the first is being honoured (a long native op) ends the process at
// once. In the REPL, Ctrl-C returns to the prompt and keeps the session.
void onSignal(int sig) {
  if (gRepl && sig == SIGTERM) {  // the REPL has nothing to save: end as the default would
    signal(SIGTERM, SIG_DFL);
    raise(SIGTERM);
    return;
  }
  if (gInterp) gInterp->interrupt();
  if (gRepl) {
    gInputInterrupted.store(true);
    return;
  }
  gSignal = sig;
  signal(sig, SIG_DFL);
}

const char* kUsage =
    "usage: tessel [options] [script.dsl [args...]]\n"
    "       tessel -c CODE [args...]\n"
    "       tessel                      (interactive REPL)\n"
    "       tessel pgo show [script.dsl...]   the PGO profiles (all, or those of scripts)\n"
    "       tessel report DIR [-o report.html] a page from a --trace-dir directory\n"
    "       tessel reference [-o FILE]   docs/reference.md: every built-in's documentation\n"
    "       tessel jupyter install [--user]  the Jupyter kernelspec (docs/notebook.md)\n"
    "\n"
    "options:\n"
    "  -c CODE        run CODE as a program\n"
    "  --logs CATS    compiler logs on stderr, e.g. recompiles,guards,dynamic,+dynamic,\n"
    "                 graph_code,perf (the same as TESSEL_LOGS=CATS)\n"
    "  --trace-dir DIR  write the structured compile trace to DIR (TESSEL_TRACE=DIR)\n"
    "  --max-memory N   cap the tensor memory the program holds (bytes; K, M, G suffixes)\n"
    "  --max-steps N    cap the statements and calls the program executes\n"
    "  --allow-files DIR  let scripts read and write files under DIR only (repeatable;\n"
    "                 without it, any file)\n"
    "  -h, --help     show this help\n"
    "  --version      print the version\n";

struct Invocation {
  std::string script;
  std::string code;
  bool hasCode = false;
  std::vector<std::string> args;
  int64_t maxMemoryBytes = 0;
  int64_t maxSteps = 0;
  std::vector<std::string> allowedFolders;  // --allow-files; empty: any file
  int status = 0;
};

// The interpreter of scripts given to the command: the user's own, so any file unless
// --allow-files narrows it, and the device TESSEL_DEVICE names.
tessel::Options interpreterOptions(const Invocation& inv) {
  tessel::Options options;
  options.args = inv.args;
  options.maxMemoryBytes = inv.maxMemoryBytes;
  options.maxSteps = inv.maxSteps;
  options.device = "";
  options.files = {tessel::FilePolicy::Access::All, {}};
  if (!inv.allowedFolders.empty())
    options.files = {tessel::FilePolicy::Access::ReadWrite, inv.allowedFolders};
  return options;
}

int runInterpreter(Invocation* inv) {
  tessel::Interpreter interp(interpreterOptions(*inv));
  gInterp = &interp;
  int status;
  if (inv->hasCode)
    status = tessel::repl::runCode(interp, inv->code);
  else if (!inv->script.empty())
    status = tessel::repl::runScript(interp, inv->script);
  else {
    gRepl = true;
    status = tessel::repl::runRepl(interp, gInputInterrupted);
  }
  std::cout.flush();
  gInterp = nullptr;
  if (gSignal) status = 128 + gSignal;
  return status;
}

// Under mpirun the script's thread joins the world before the interpreter starts (its logs and
// compile trace carry the rank), and leaves it once the interpreter has saved what it saves. A
// rank that fails tells the others and ends the job, so none waits for it (docs/distributed.md).
int runMain(void* p) {
  tessel::joinWorld();
  int status = runInterpreter(static_cast<Invocation*>(p));
  if (status != 0) {  // returns at once in a world of one
    std::string error = tessel::repl::lastError();
    tessel::abortWorld(status,
                       error.empty() ? "it stopped with status " + std::to_string(status) : error);
  }
  tessel::leaveWorld();
  return status;
}

}  // namespace

// `tessel pgo show [script...]`.
int pgoCommand(const std::vector<std::string>& words) {
  if (words.empty() || words[0] != "show") {
    std::cerr << "usage: tessel pgo show [script.dsl...]\n";
    return 2;
  }
  return tessel::repl::showPgo({words.begin() + 1, words.end()}, std::cout, std::cerr);
}

// Reads the value of an option given as `--name VALUE` or `--name=VALUE`; false (with a
// message) when it is missing.
bool optionValue(int argc, char** argv, int& i, const std::string& name, std::string& value) {
  std::string a = argv[i];
  if (a != name) {
    value = a.substr(name.size() + 1);
    return true;
  }
  if (i + 1 >= argc) {
    std::cerr << "tessel: " << name << " needs a value\n" << kUsage;
    return false;
  }
  value = argv[++i];
  return true;
}

// A positive count, with an optional K, M or G suffix (powers of 1024) when `units`; false
// (with a message) when it is not one.
bool parseCount(const std::string& option, const std::string& text, bool units, int64_t& out) {
  size_t used = 0;
  long long n = 0;
  try {
    n = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  int shift = 0;
  if (units && used + 1 == text.size()) {
    switch (text[used]) {
      case 'K': case 'k': shift = 10; break;
      case 'M': case 'm': shift = 20; break;
      case 'G': case 'g': shift = 30; break;
      default: shift = -1;
    }
    if (shift > 0) ++used;
  }
  if (used == 0 || used != text.size() || n <= 0 || n > (INT64_MAX >> shift)) {
    std::cerr << "tessel: " << option << " needs a positive " << (units ? "size" : "count")
              << ", not '" << text << "'\n";
    return false;
  }
  out = static_cast<int64_t>(n) << shift;
  return true;
}

// `tessel reference [-o FILE]`: the reference generated from the docs help() prints (Note [One
// source of docs]). FILE is rewritten only when its text changes, so the build step that runs
// this leaves an unchanged file alone.
int referenceCommand(const std::vector<std::string>& args) {
  tessel::Options options;
  options.device = "";
  std::string text = tessel::Interpreter(options).referenceMarkdown() + "\n";
  if (args.empty()) {
    std::cout << text;
    return 0;
  }
  if (args.size() != 2 || args[0] != "-o") {
    std::cerr << "usage: tessel reference [-o FILE]\n";
    return 2;
  }
  std::ifstream old(args[1], std::ios::binary);
  std::stringstream current;
  current << old.rdbuf();
  if (old && current.str() == text) return 0;
  std::ofstream out(args[1], std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) {
    std::cerr << "tessel reference: cannot write " << args[1] << "\n";
    return 1;
  }
  return 0;
}

// `tessel jupyter install [--user | --prefix DIR]`: tessel-kernel (kernel/) writes its own
// kernelspec, so this runs it: the one next to this program (an install's bin/), else the one
// of the build tree this program was built in. It exists only where xeus was found.
int jupyterCommand(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "install") {
    std::cerr << "usage: tessel jupyter install [--user | --prefix DIR]\n";
    return 2;
  }
  std::vector<std::string> candidates;
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back((self.parent_path() / "tessel-kernel").string());
#ifdef TESSEL_KERNEL_PATH
  candidates.push_back(TESSEL_KERNEL_PATH);
#endif
  for (const std::string& kernel : candidates) {
    if (access(kernel.c_str(), X_OK) != 0) continue;
    std::vector<char*> argv = {const_cast<char*>(kernel.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(kernel.c_str(), argv.data());
    std::cerr << "tessel jupyter: cannot run " << kernel << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  std::cerr << "tessel jupyter: tessel-kernel is not installed (it is built where xeus, Debian's "
               "xeus-dev, is found)\n";
  return 1;
}

int main(int argc, char** argv) {
  Invocation inv;
  int i = 1;
  if (argc > 1 && std::string(argv[1]) == "pgo")
    return pgoCommand({argv + 2, argv + argc});
  if (argc > 1 && std::string(argv[1]) == "reference")
    return referenceCommand({argv + 2, argv + argc});
  if (argc > 1 && std::string(argv[1]) == "jupyter")
    return jupyterCommand({argv + 2, argv + argc});
  if (argc > 1 && std::string(argv[1]) == "report")
    return tessel::repl::runReport({argv + 2, argv + argc}, std::cout, std::cerr);
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
    // The interpreter reads TESSEL_LOGS and TESSEL_TRACE when it starts, so these flags are
    // just those variables.
    if (a == "--logs" || a.rfind("--logs=", 0) == 0) {
      std::string cats;
      if (!optionValue(argc, argv, i, "--logs", cats)) return 2;
      setenv("TESSEL_LOGS", cats.c_str(), 1);
      continue;
    }
    if (a == "--trace-dir" || a.rfind("--trace-dir=", 0) == 0) {
      std::string dir;
      if (!optionValue(argc, argv, i, "--trace-dir", dir)) return 2;
      setenv("TESSEL_TRACE", dir.c_str(), 1);
      continue;
    }
    if (a == "--max-memory" || a.rfind("--max-memory=", 0) == 0) {
      std::string text;
      if (!optionValue(argc, argv, i, "--max-memory", text) ||
          !parseCount("--max-memory", text, true, inv.maxMemoryBytes))
        return 2;
      continue;
    }
    if (a == "--max-steps" || a.rfind("--max-steps=", 0) == 0) {
      std::string text;
      if (!optionValue(argc, argv, i, "--max-steps", text) ||
          !parseCount("--max-steps", text, false, inv.maxSteps))
        return 2;
      continue;
    }
    if (a == "--allow-files" || a.rfind("--allow-files=", 0) == 0) {
      std::string dir;
      if (!optionValue(argc, argv, i, "--allow-files", dir)) return 2;
      inv.allowedFolders.push_back(dir);
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
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return tessel::repl::runWithLargeStack(runMain, &inv);
}
