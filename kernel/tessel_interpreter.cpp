// Shell requests on the interpreter. Code runs on xeus's thread (the main one), so a cell's
// errors, its output and its interrupt all stay on one thread; SIGINT is turned into
// Interpreter::interrupt() by kernel/main.cpp.
#include "kernel/tessel_interpreter.h"

#include <iostream>
#include <sstream>

#include "repl/failure.h"
#include "repl/repl.h"
#include "repl/repl_commands.h"
#include "repl/repl_completion.h"

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

TesselInterpreter::TesselInterpreter(Options options)
    : stdout_([this](const std::string& text) {
        if (!silent_) publish_stream("stdout", text);
      }),
      stderr_([this](const std::string& text) {
        if (!silent_) publish_stream("stderr", text);
      }) {
  xeus::register_interpreter(this);
  options.output = [this](std::string_view text) { printed(stdout_, std::cout, text); };
  options.errorOutput = [this](std::string_view text) { printed(stderr_, std::cerr, text); };
  options.display = [this](const Value& value) { displayed(value); };
  options.updatableDisplay = [this](std::string_view id, std::string_view text, bool first) {
    updated(id, text, first);
  };
  vm_ = std::make_unique<Interpreter>(std::move(options));
}

TesselInterpreter::~TesselInterpreter() {
  serving_ = false;
}

void TesselInterpreter::configure_impl() {
  serving_ = true;
}

// print() hands its text over a line at a time and at each flush; the buffer decides when a
// `stream` message goes out (PublishingBuffer::kInterval).
void TesselInterpreter::printed(PublishingBuffer& buffer, std::ostream& fallback,
                                std::string_view text) {
  if (!serving_) {
    fallback << text;
    return;
  }
  buffer.sputn(text.data(), static_cast<std::streamsize>(text.size()));
  buffer.pubsync();
}

// display(v): the text printed before it has reached stdout_ (the interpreter saw to that),
// and goes out first so that it shows above the value.
void TesselInterpreter::displayed(const Value& value) {
  if (!serving_) {
    std::cout << value.repr() << "\n";
    return;
  }
  stdout_.publishPending();
  if (!silent_) display_data(mimeBundle(value), nl::json::object(), nl::json::object());
}

// A progress bar: display_data with a display_id, then update_display_data.
void TesselInterpreter::updated(std::string_view id, std::string_view text, bool first) {
  if (!serving_) return;
  if (first) stdout_.publishPending();  // text printed before the bar shows above it
  if (silent_) return;
  nl::json data = {{"text/plain", std::string(text)}};
  nl::json transient = {{"display_id", std::string(id)}};
  if (first)
    display_data(std::move(data), nl::json::object(), std::move(transient));
  else
    update_display_data(std::move(data), nl::json::object(), std::move(transient));
}

// `text/plain` as the REPL echoes the value, and every rich form it has (the tensor table, a
// figure's SVG, ...).
nl::json TesselInterpreter::mimeBundle(const Value& value) {
  nl::json bundle = nl::json::object();
  for (auto& [mimeType, text] : vm_->mimeBundle(value)) bundle[mimeType] = std::move(text);
  return bundle;
}

void TesselInterpreter::publishOutput() {
  stdout_.publishPending();
  stderr_.publishPending();
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
  // The interpreter forgets an interrupt that came while no cell ran (Interpreter::interrupt).
  std::string name = "<cell " + std::to_string(execution_counter) + ">";
  Redirect cellStderr(std::cerr, &stderr_);
  try {
    if (repl::isCommand(code)) {
      // :time, :type, :load, :reset, :help as in the REPL; :quit does nothing here.
      Redirect cellStdout(std::cout, &stdout_);
      repl::runCommand(*vm_, code);
      publishOutput();
      return okReply();
    }
    Value value = vm_->run(code, name);
    publishOutput();
    if (!silent && !value.isNone())
      publish_execution_result(execution_counter, mimeBundle(value), nl::json::object());
  } catch (const Error& e) {
    switch (repl::failureOf(e)) {
      case repl::Failure::Script:
        return errorReply(e.kind(), e.message(), lines(e.coloredDiagnostic()));
      case repl::Failure::User:
        return errorReply(e.kind(), e.message(), {e.kind() + ": " + e.message()});
      case repl::Failure::OutOfMemory:
        return errorReply("MemoryError", "out of memory", {"error: out of memory"});
      case repl::Failure::Exit:
        // Ending the process would look like a crash to the notebook, which restarts the
        // kernel.
        return errorReply("Exit", "exit(" + std::to_string(e.exitStatus()) + ")",
                          {"exit() does not end a kernel: restart it from the notebook instead"});
      case repl::Failure::Internal:
        return errorReply("InternalError", e.message(), {"internal error: " + e.message()});
    }
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
    c = repl::completeInput(*vm_, std::string_view(code).substr(0, cursor));
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
    help = repl::helpAtCursor(*vm_, code, byteOffset(code, cursor_pos));
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
