// The Jupyter side of a Tessel session: xeus calls these for each shell request, and they run
// on one persistent tessel::Interpreter, reusing what the REPL does (its completion, its
// continuation check, its echo) so the notebook and the terminal agree.
#pragma once

#include <tessel/tessel.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <xeus/xinterpreter.hpp>

#include "kernel/kernel_output.h"

namespace tessel::kernel {

namespace nl = nlohmann;

class TesselInterpreter : public xeus::xinterpreter {
 public:
  /// The session's interpreter is made here with `options`, its output routed to the cells.
  explicit TesselInterpreter(Options options);
  ~TesselInterpreter() override;

  /// For the SIGINT handler (Interpreter::interrupt) and nothing else: cells run through xeus.
  Interpreter& interpreter() { return *vm_; }

 private:
  void configure_impl() override;
  nl::json execute_request_impl(int execution_counter, const std::string& code, bool silent,
                                bool store_history, nl::json user_expressions,
                                bool allow_stdin) override;
  nl::json complete_request_impl(const std::string& code, int cursor_pos) override;
  nl::json inspect_request_impl(const std::string& code, int cursor_pos, int detail_level) override;
  nl::json is_complete_request_impl(const std::string& code) override;
  nl::json kernel_info_request_impl() override;
  void shutdown_request_impl() override;

  // Publishes an error (ename the kind, the caret diagnostic as traceback) and returns the
  // execute_reply content.
  nl::json errorReply(const std::string& ename, const std::string& evalue,
                      const std::vector<std::string>& traceback);
  nl::json okReply();
  void publishOutput();
  nl::json mimeBundle(const Value& value);
  // The interpreter's output callbacks (Options): to the cell while the kernel is serving,
  // to the process's streams before configure_impl and once it is being destroyed.
  void printed(PublishingBuffer& buffer, std::ostream& fallback, std::string_view text);
  void displayed(const Value& value);
  void updated(std::string_view id, std::string_view text, bool first);

  PublishingBuffer stdout_;
  PublishingBuffer stderr_;
  bool serving_ = false;
  bool silent_ = false;  // the running cell's `silent`: nothing goes to IOPub
  // Last, so that it goes first: what it writes as it ends finds the buffers above.
  std::unique_ptr<Interpreter> vm_;
};

}  // namespace tessel::kernel
