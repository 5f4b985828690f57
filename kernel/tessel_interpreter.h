// The Jupyter side of a Tessel session: xeus calls these for each shell request, and they run
// on one persistent interp::Interpreter, reusing what the REPL does (its completion, its
// continuation check, its echo) so the notebook and the terminal agree.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <xeus/xinterpreter.hpp>

#include "interp/interpreter.h"
#include "kernel/kernel_output.h"

namespace tessel::kernel {

namespace nl = nlohmann;

class TesselInterpreter : public xeus::xinterpreter {
 public:
  explicit TesselInterpreter(interp::Interpreter& interp);
  ~TesselInterpreter() override;

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

  interp::Interpreter& interp_;
  std::unique_ptr<KernelStdout> stdout_;
  std::unique_ptr<PublishingBuffer> stderrBuffer_;
  std::unique_ptr<std::ostream> stderr_;
  bool silent_ = false;  // the running cell's `silent`: nothing goes to IOPub
};

}  // namespace tessel::kernel
