// The REPL loop: read a complete input (continuing while brackets are open), run it as a command
// or as code, and keep going after errors and interrupts until Ctrl-D, :quit or exit().
#include "repl/repl.h"

#include <iostream>
#include <string>

#include "repl/line_editor.h"
#include "repl/repl_commands.h"
#include "repl/repl_completion.h"
#include "repl/repl_eval.h"
#include "repl/repl_history.h"

namespace tessel::repl {

// `@compile` alone on a line: the fn it decorates comes on the next line.
static bool endsWithDecorator(const std::string& text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return false;
  size_t start = text.find_last_of('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  size_t first = text.find_first_not_of(" \t", start);
  return first != std::string::npos && text[first] == '@';
}

namespace {

constexpr const char* kPrompt = ">>> ";
constexpr const char* kContinuationPrompt = "... ";
constexpr size_t kHistoryEntries = 1000;

class Session {
 public:
  Session(Interpreter& vm, LineEditor& editor, HistoryFile* history)
      : vm_(vm), editor_(editor), history_(history) {}

  int run() {
    if (editor_.interactive())
      std::cout << "Tessel REPL. Type :help for help, Ctrl-D or :quit to leave.\n";
    for (;;) {
      Input input = readInput();
      if (input.kind == Input::Kind::Interrupted) continue;
      if (!input.text.empty()) {
        try {
          if (execute(input.text) == CommandOutcome::Quit) return 0;
        } catch (const Error& e) {  // reportErrors lets only exit() through
          return e.exitStatus();
        }
      }
      if (input.kind == Input::Kind::EndOfInput) return 0;
    }
  }

 private:
  struct Input {
    enum class Kind { Complete, Interrupted, EndOfInput } kind;
    std::string text;  // what to run (for EndOfInput, an unfinished input, run to report it)
  };

  Input readInput() {
    std::string text;
    for (;;) {
      LineEditor::Result r = editor_.readLine(text.empty() ? kPrompt : kContinuationPrompt);
      if (r.status == LineEditor::Status::Interrupted) return {Input::Kind::Interrupted, ""};
      if (r.status == LineEditor::Status::EndOfInput) return {Input::Kind::EndOfInput, text};
      remember(r.text);
      if (text.empty() && r.text.find_first_not_of(" \t") == std::string::npos) continue;
      text += text.empty() ? r.text : "\n" + r.text;
      if (!inputNeedsMore(text)) return {Input::Kind::Complete, text};
    }
  }

  void remember(const std::string& line) {
    if (line.find_first_not_of(" \t") == std::string::npos || line == lastRemembered_) return;
    lastRemembered_ = line;
    editor_.addHistory(line);
    if (history_) history_->append(line);
  }

  CommandOutcome execute(const std::string& text) {
    if (isCommand(text)) return runCommand(vm_, text);
    evalAndEcho(vm_, text);
    return CommandOutcome::Continue;
  }

  Interpreter& vm_;
  LineEditor& editor_;
  HistoryFile* history_;
  std::string lastRemembered_;
};

}  // namespace

// Commands other than :type and :time are always one line.
bool inputNeedsMore(const std::string& text) {
  if (isCommand(text)) return commandTakesExpression(text) && isIncomplete(commandArgument(text));
  return isIncomplete(text) || endsWithDecorator(text);
}

int runRepl(Interpreter& vm, std::atomic<bool>& interrupted) {
  std::unique_ptr<LineEditor> editor = LineEditor::forStdin();
  editor->setInterruptFlag(&interrupted);
  std::unique_ptr<HistoryFile> history;
  if (editor->interactive()) {
    history = std::make_unique<HistoryFile>(HistoryFile::defaultPath());
    for (const std::string& line : history->load(kHistoryEntries)) editor->addHistory(line);
    editor->setCompleter([&vm](std::string_view before) { return completeInput(vm, before); });
  }
  Session session(vm, *editor, history.get());
  int status = session.run();
  std::cout.flush();
  return status;
}

}  // namespace tessel::repl
