// Shell requests on the interpreter. Code runs on xeus's thread (the main one), so a cell's
// errors, its output and its interrupt all stay on one thread; SIGINT is turned into
// Interpreter::interrupt() by kernel/main.cpp.
#include "kernel/tessel_interpreter.h"

#include <iostream>
#include <sstream>

#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "kernel/rich_display.h"
#include "repl/repl.h"
#include "repl/repl_commands.h"
#include "repl/repl_completion.h"
#include "shapes/user_error.h"

namespace tessel::kernel {

namespace {

// Jupyter counts cursor positions in Unicode code points; the REPL's functions take bytes.
size_t byteOffset(const std::string& text, int codePoints) {
  size_t i = 0;
  for (int n = 0; n < codePoints && i < text.size(); ++n) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

int codePointCount(const std::string& text, size_t bytes) {
  int n = 0;
  for (size_t i = 0; i < bytes && i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++n;
  return n;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// What a continuation line starts with: the last line's indentation, one level deeper after
// an opening bracket.
std::string continuationIndent(const std::string& code) {
  std::vector<std::string> all = lines(code);
  std::string last = all.empty() ? "" : all.back();
  std::string indent = last.substr(0, last.find_first_not_of(" \t") == std::string::npos
                                          ? last.size()
                                          : last.find_first_not_of(" \t"));
  size_t end = last.find_last_not_of(" \t\r");
  if (end != std::string::npos && (last[end] == '{' || last[end] == '(' || last[end] == '['))
    indent += "    ";
  return indent;
}

// Points a process stream (std::cout, std::cerr) at a cell's stream while the cell runs. Some
// warnings are written to std::cerr directly, not to the interpreter's error stream (the
// compiler's, a loss's size warning), and the REPL's `:` commands write to std::cout: in a cell
// they show in its output. Between cells the streams are the process's again, where xeus logs
// what it drops.
class Redirect {
 public:
  Redirect(std::ostream& stream, std::streambuf* cell)
      : stream_(stream), saved_(stream.rdbuf(cell)) {}
  ~Redirect() { stream_.rdbuf(saved_); }
  Redirect(const Redirect&) = delete;
  Redirect& operator=(const Redirect&) = delete;

 private:
  std::ostream& stream_;
  std::streambuf* saved_;
};

}  // namespace

TesselInterpreter::TesselInterpreter(interp::Interpreter& interp) : interp_(interp) {
  xeus::register_interpreter(this);
  registerTensorHtml();
}

TesselInterpreter::~TesselInterpreter() {
  interp_.setOutput(&std::cout);
  interp_.setErrorOutput(&std::cerr);
}

void TesselInterpreter::configure_impl() {
  stdout_ = std::make_unique<KernelStdout>(
      [this](const std::string& text) {
        if (!silent_) publish_stream("stdout", text);
      },
      [this](const interp::Value& value) {
        if (!silent_)
          display_data(mimeBundle(interp_, value), nl::json::object(), nl::json::object());
      },
      [this](const std::string& id, const std::string& text, bool first) {
        if (silent_) return;
        nl::json data = {{"text/plain", text}};
        nl::json transient = {{"display_id", id}};
        if (first)
          display_data(std::move(data), nl::json::object(), std::move(transient));
        else
          update_display_data(std::move(data), nl::json::object(), std::move(transient));
      });
  stderrBuffer_ = std::make_unique<PublishingBuffer>([this](const std::string& text) {
    if (!silent_) publish_stream("stderr", text);
  });
  stderr_ = std::make_unique<std::ostream>(stderrBuffer_.get());
  interp_.setOutput(stdout_.get());
  interp_.setErrorOutput(stderr_.get());
}

void TesselInterpreter::publishOutput() {
  stdout_->flush();
  stdout_->publishPending();
  stderr_->flush();
  stderrBuffer_->publishPending();
}

nl::json TesselInterpreter::errorReply(const std::string& ename, const std::string& evalue,
                                       const std::vector<std::string>& traceback) {
  publishOutput();
  if (!silent_) publish_execution_error(ename, evalue, traceback);
  return {{"status", "error"}, {"ename", ename}, {"evalue", evalue}, {"traceback", traceback}};
}

nl::json TesselInterpreter::okReply() {
  return {
      {"status", "ok"}, {"payload", nl::json::array()}, {"user_expressions", nl::json::object()}};
}

nl::json TesselInterpreter::execute_request_impl(int execution_counter, const std::string& code,
                                                 bool silent, bool /*store_history*/,
                                                 nl::json /*user_expressions*/,
                                                 bool /*allow_stdin*/) {
  silent_ = silent;
  // An interrupt that came while no cell ran must not stop this one.
  interp_.interruptFlag().store(false);
  std::string name = "<cell " + std::to_string(execution_counter) + ">";
  Redirect cellStderr(std::cerr, stderrBuffer_.get());
  try {
    if (repl::isCommand(code)) {
      // :time, :type, :load, :reset, :help as in the REPL; :quit does nothing here.
      Redirect cellStdout(std::cout, stdout_->rdbuf());
      repl::runCommand(interp_, code);
      publishOutput();
      return okReply();
    }
    interp::Value value = interp_.runSource(name, code, true);
    publishOutput();
    if (!silent && !value.is(interp::Type::None) && !value.is(interp::Type::Undefined))
      publish_execution_result(execution_counter, mimeBundle(interp_, value), nl::json::object());
  } catch (const interp::ScriptError& e) {
    std::string kind(errorKindName(e.kind()));
    return errorReply(kind, e.what(), lines(interp::formatDiagnostic(e, interp_.sources(), true)));
  } catch (const UserError& e) {
    std::string kind(errorKindName(e.kind()));
    return errorReply(kind, e.what(), {kind + ": " + e.what()});
  } catch (const std::bad_alloc&) {
    return errorReply("MemoryError", "out of memory", {"error: out of memory"});
  } catch (const interp::ExitRequest& e) {
    // Ending the process would look like a crash to the notebook, which restarts the kernel.
    return errorReply("Exit", "exit(" + std::to_string(e.status) + ")",
                      {"exit() does not end a kernel: restart it from the notebook instead"});
  } catch (const std::exception& e) {
    // A fault of the kernel or of a native rather than of the cell; the cell still gets an
    // answer (xeus would log it and send none, and the notebook would wait for ever).
    return errorReply("InternalError", e.what(), {std::string("internal error: ") + e.what()});
  }
  return okReply();
}

// The reply to a request that failed inside the kernel: an error reply rather than none (xeus
// would log the exception and leave the client waiting).
static nl::json failedReply(const std::exception& e) {
  return {{"status", "error"},
          {"ename", "InternalError"},
          {"evalue", e.what()},
          {"traceback", {std::string("internal error: ") + e.what()}}};
}

nl::json TesselInterpreter::complete_request_impl(const std::string& code, int cursor_pos) {
  size_t cursor = byteOffset(code, cursor_pos);
  repl::Completion c;
  try {
    c = repl::completeInput(interp_, std::string_view(code).substr(0, cursor));
  } catch (const std::exception& e) {
    return failedReply(e);
  }
  return {{"status", "ok"},
          {"matches", c.candidates},
          {"cursor_start", c.candidates.empty() ? cursor_pos : codePointCount(code, c.start)},
          {"cursor_end", cursor_pos},
          {"metadata", nl::json::object()}};
}

nl::json TesselInterpreter::inspect_request_impl(const std::string& code, int cursor_pos,
                                                 int /*detail_level*/) {
  std::string help;
  try {
    help = repl::helpAtCursor(interp_, code, byteOffset(code, cursor_pos));
  } catch (const std::exception& e) {
    return failedReply(e);
  }
  nl::json data = nl::json::object();
  if (!help.empty()) data["text/plain"] = help;
  return {
      {"status", "ok"}, {"found", !help.empty()}, {"data", data}, {"metadata", nl::json::object()}};
}

nl::json TesselInterpreter::is_complete_request_impl(const std::string& code) {
  if (repl::inputNeedsMore(code))
    return {{"status", "incomplete"}, {"indent", continuationIndent(code)}};
  return {{"status", "complete"}};
}

nl::json TesselInterpreter::kernel_info_request_impl() {
  return {{"protocol_version", XEUS_KERNEL_PROTOCOL_VERSION},
          {"implementation", "tessel"},
          {"implementation_version", TESSEL_VERSION},
          {"banner", "Tessel " TESSEL_VERSION ": a tensor language with dynamic shapes"},
          {"language_info",
           {{"name", "tessel"},
            {"version", TESSEL_VERSION},
            {"mimetype", "text/x-tessel"},
            {"file_extension", ".dsl"},
            // Most of Tessel's keywords (if/elif/for/in/and/or/not/import/try/except/raise),
            // its `#` comments and its strings are Python's: that mode colours cells well.
            {"codemirror_mode", "python"},
            {"pygments_lexer", "python"}}},
          {"help_links", nl::json::array()},
          {"debugger", false},
          {"status", "ok"}};
}

void TesselInterpreter::shutdown_request_impl() {
  publishOutput();
}

}  // namespace tessel::kernel
