// History file: path from the environment, loading with trimming, appending.
#include "repl/repl_history.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace tessel::repl {

namespace fs = std::filesystem;

std::string HistoryFile::defaultPath() {
  if (const char* dir = std::getenv("TESSEL_CACHE_DIR"); dir && *dir)
    return (fs::path(dir) / "history").string();
  const char* home = std::getenv("HOME");
  if (!home || !*home) {
    const passwd* pw = getpwuid(getuid());
    home = pw ? pw->pw_dir : nullptr;
  }
  if (!home || !*home) return "";
  return (fs::path(home) / ".cache" / "tessel" / "history").string();
}

std::vector<std::string> HistoryFile::load(size_t maxEntries) {
  std::vector<std::string> lines;
  if (path_.empty()) return lines;
  std::ifstream in(path_);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(std::move(line));
  if (lines.size() <= maxEntries) return lines;
  bool rewrite = lines.size() > 2 * maxEntries;
  lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(maxEntries));
  if (rewrite) {
    std::ofstream out(path_, std::ios::trunc);
    for (const std::string& l : lines) out << l << '\n';
  }
  return lines;
}

void HistoryFile::append(const std::string& line) {
  if (path_.empty() || line.empty()) return;
  std::error_code ec;
  fs::create_directories(fs::path(path_).parent_path(), ec);
  std::ofstream out(path_, std::ios::app);
  out << line << '\n';
}

}  // namespace tessel::repl
