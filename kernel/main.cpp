// tessel-kernel: Tessel as a Jupyter kernel (docs/notebook.md). Jupyter starts it with
// `-f CONNECTION_FILE`; `tessel-kernel install` writes its kernelspec.
#include <pthread.h>
#include <tessel/tessel.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <string>
#include <thread>
#include <xeus/xkernel.hpp>
#include <xeus/xkernel_configuration.hpp>
#include <zmq.hpp>

#include "kernel/checked_server.h"
#include "kernel/kernelspec.h"
#include "kernel/tessel_interpreter.h"
#include "repl/runner.h"

namespace {

namespace nl = nlohmann;

std::atomic<tessel::Interpreter*> gInterp{nullptr};

const char* kUsage =
    "usage: tessel-kernel -f CONNECTION_FILE   (how Jupyter starts it)\n"
    "       tessel-kernel install [--user | --prefix DIR]   write the kernelspec\n";

void onSigint(int) {
  if (tessel::Interpreter* interp = gInterp.load()) interp->interrupt();
}

// Jupyter interrupts a kernel with SIGINT, and may start it with SIGINT ignored (a background
// job's default), so the kernel installs its own handler: it asks the running cell to stop
// (Interpreter::interrupt: the cell ends with an Interrupted error, the session is kept).
// A signal landing on xeus's polling thread would make zmq_poll fail with EINTR (an exception
// out of its loop), so SIGINT is blocked on this thread before any other is started, and one
// thread waits for it. Threads started before main (thread pools of the backends) do not
// block it: a SIGINT they take runs the handler, which does the same.
void blockSigintAndWatch() {
  struct sigaction sa {};
  sa.sa_handler = onSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    for (;;) {
      int sig = 0;
      if (sigwait(&set, &sig) == 0) onSigint(sig);
    }
  }).detach();
}

int runKernel(void* arg) {
  const std::string& connectionFile = *static_cast<const std::string*>(arg);
  xeus::xconfiguration config;
  try {
    config = xeus::load_configuration(connectionFile);
  } catch (const std::exception& e) {
    std::cerr << "tessel-kernel: cannot read the connection file " << connectionFile << ": "
              << e.what() << "\n";
    return 1;
  }
  tessel::Options options;
  // A notebook's cells are the user's own code, as a script given to `tessel` is.
  options.files = {tessel::FilePolicy::Access::All, {}};
  options.device = "";
  int status = 0;
  try {
    auto session = std::make_unique<tessel::kernel::TesselInterpreter>(std::move(options));
    tessel::Interpreter& interp = session->interpreter();
    // The key and signature scheme of the connection file are in `config`: xeus signs every
    // message with them and drops those whose signature does not match. Requests whose
    // content xeus would choke on are answered with an error first (Note [Malformed requests]).
    // Strings are bytes in Tessel (read_text of a binary file), and JSON must be UTF-8: with
    // the default handler one bad byte in an output makes the serializer throw and the
    // request go unanswered. `replace` sends U+FFFD for it instead.
    xeus::xkernel kernel(config, xeus::get_user_name(), xeus::make_context<zmq::context_t>(),
                         std::move(session), tessel::kernel::makeCheckedServer,
                         xeus::make_in_memory_history_manager(), nullptr, xeus::make_null_debugger,
                         nl::json::object(), nl::json::error_handler_t::replace);
    // The kernel owns the session: SIGINT stops finding its interpreter before it goes.
    struct Published {
      explicit Published(tessel::Interpreter& interp) { gInterp = &interp; }
      ~Published() { gInterp = nullptr; }
    } published(interp);
    kernel.start();
  } catch (const std::exception& e) {
    std::cerr << "tessel-kernel: " << e.what() << "\n";
    status = 1;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  std::string first = argc > 1 ? argv[1] : "";
  if (first == "install") return tessel::kernel::installCommand(argc - 2, argv + 2);
  if (first == "-h" || first == "--help") {
    std::cout << kUsage;
    return 0;
  }
  if (argc != 3 || first != "-f") {
    std::cerr << kUsage;
    return 2;
  }
  std::string connectionFile = argv[2];
  blockSigintAndWatch();
  // Deep recursion in a cell reaches Tessel's own limit before the native stack's.
  return tessel::repl::runWithLargeStack(runKernel, &connectionFile);
}
