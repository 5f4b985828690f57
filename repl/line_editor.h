// Reading input lines for the REPL: libedit on a terminal (editing, history, completion), plain
// reads otherwise. libedit stays inside line_editor.cpp.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::repl {

/// What a completer proposes for the text before the cursor: the word that starts at byte
/// `start` is replaced by one of `candidates` (or their common prefix).
struct Completion {
  size_t start = 0;
  std::vector<std::string> candidates;
  /// For one candidate already typed in full: its signature and summary (help()'s docs),
  /// shown below the line on Tab; "" for none.
  std::string doc;
};

/// Computes completions for the line text up to the cursor.
using Completer = std::function<Completion(std::string_view beforeCursor)>;

class LineEditor {
 public:
  enum class Status {
    Line,         // `text` holds the line, without its newline
    EndOfInput,   // Ctrl-D on an empty line, or end of piped input
    Interrupted,  // Ctrl-C: the line being typed was discarded
  };
  struct Result {
    Status status;
    std::string text;
  };

  virtual ~LineEditor() = default;
  /// Reads one line, showing `prompt` when interactive.
  virtual Result readLine(const std::string& prompt) = 0;
  /// Records a line in the in-memory history (up/down arrows); no-op when not interactive.
  virtual void addHistory(const std::string& line) = 0;
  virtual void setCompleter(Completer completer) = 0;
  /// A flag a SIGINT handler raises (runRepl's `interrupted`): while it is up, a blocked
  /// readLine gives up the line being typed and returns Interrupted. readLine lowers it first.
  virtual void setInterruptFlag(std::atomic<bool>* flag) = 0;
  /// Whether this editor talks to a terminal (prompts shown, editing on).
  virtual bool interactive() const = 0;

  /// A libedit editor when stdin is a terminal, else a plain reader of stdin.
  static std::unique_ptr<LineEditor> forStdin();
  /// A plain reader of a file descriptor (no prompts, no history).
  static std::unique_ptr<LineEditor> plain(int fd);
};

}  // namespace tessel::repl
