// `tessel pgo show` (pgo_command.h): the profiles are read by the compiler's PGO store and drawn
// by the renderer the report's PGO section uses.
#include "repl/pgo_command.h"

#include <tessel/tessel.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "repl/report/pgo.h"

namespace tessel::repl {

namespace fs = std::filesystem;

namespace {

// The profile files to show: those of `scripts`, or every one; false (with a message) when a
// script has none.
bool profilePaths(const std::vector<std::string>& scripts, std::vector<std::string>& paths,
                  std::ostream& err) {
  std::error_code ec;
  if (scripts.empty()) {
    for (const auto& entry : fs::directory_iterator(pgo::profileDir(), ec))
      if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    return true;
  }
  for (const std::string& s : scripts) {
    std::string path = pgo::profilePath(s);
    if (path.empty()) {
      err << "tessel: pgo show: " << s << " is not a script file\n";
      return false;
    }
    if (!fs::exists(path, ec)) {
      err << "tessel: pgo show: no PGO profile for " << s << " (looked for " << path << ")\n";
      return false;
    }
    paths.push_back(path);
  }
  return true;
}

}  // namespace

int showPgo(const std::vector<std::string>& scripts, std::ostream& out, std::ostream& err) {
  std::vector<std::string> paths;
  if (!profilePaths(scripts, paths, err)) return 1;
  if (paths.empty()) {
    out << "no PGO profiles in " << pgo::profileDir() << "\n";
    return 0;
  }
  int status = 0;
  for (const std::string& path : paths) {
    std::vector<pgo::ProfileEntry> entries;
    try {
      entries = pgo::readProfile(path);
    } catch (const Error& e) {
      err << "tessel: pgo show: ignoring " << path << ": " << e.message() << "\n";
      status = 1;
      continue;
    }
    std::set<std::string> dynamic;
    for (const pgo::ProfileEntry& entry : entries) {
      for (const auto& [source, value] : entry.sources)
        if (value == "?") dynamic.insert(source);
      out << entry.script << ":" << entry.line << ":" << entry.function;
      if (!entry.region.empty()) out << " (region " << entry.region << ")";
      out << ":\n";
      for (const std::string& line : report::renderPgoSources(entry.sources)) out << line << "\n";
    }
    std::string line = report::dynamicSourcesAssignment({dynamic.begin(), dynamic.end()});
    out << (line.empty() ? "no dynamic sources" : line) << "\n";
  }
  return status;
}

}  // namespace tessel::repl
