// The REPL's history file: `$TESSEL_CACHE_DIR/history` (default `~/.cache/tessel/history`),
// one entered line per line, loaded at start and appended to as lines are entered.
#pragma once

#include <string>
#include <vector>

namespace tessel::repl {

class HistoryFile {
 public:
  /// The history file's path; "" when neither TESSEL_CACHE_DIR nor a home directory is known.
  static std::string defaultPath();

  explicit HistoryFile(std::string path) : path_(std::move(path)) {}
  /// The last `maxEntries` lines, oldest first. A file grown past twice that is rewritten with
  /// only those lines, so it stays small. A missing or unreadable file gives none.
  std::vector<std::string> load(size_t maxEntries);
  /// Appends one line, creating the directory and file on first use. Errors are ignored: the
  /// REPL works without history.
  void append(const std::string& line);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace tessel::repl
