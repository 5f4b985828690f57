// `tessel pgo show` (pgo_command.h): the profiles are read by the compiler's PGO store and drawn
// by the renderer the report's PGO section uses.
#include "repl/pgo_command.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "interp/compile/pgo.h"
#include "repl/report/pgo.h"

namespace tessel::repl {

namespace fs = std::filesystem;
using interp::PgoStore;

namespace {

// The profile files to show: those of `scripts`, or every one; false (with a message) when a
// script has none.
bool profilePaths(const std::vector<std::string>& scripts, std::vector<std::string>& paths,
                  std::ostream& err) {
  PgoStore store(PgoStore::defaultDir(), nullptr);
  std::error_code ec;
  if (scripts.empty()) {
    for (const auto& entry : fs::directory_iterator(PgoStore::defaultDir(), ec))
      if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    return true;
  }
  for (const std::string& s : scripts) {
    std::string script = interp::pgoScriptOf(s);
    if (script.empty()) {
      err << "tessel: pgo show: " << s << " is not a script file\n";
      return false;
    }
    std::string path = store.profilePath(script);
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
    out << "no PGO profiles in " << PgoStore::defaultDir() << "\n";
    return 0;
  }
  int status = 0;
  for (const std::string& path : paths) {
    std::map<interp::PgoKey, interp::CodeState> states;
    std::string why;
    if (!interp::readProfile(path, states, why)) {
      err << "tessel: pgo show: ignoring " << path << ": " << why << "\n";
      status = 1;
      continue;
    }
    std::set<std::string> dynamic;
    for (const auto& [key, state] : states) {
      std::vector<std::pair<std::string, std::string>> sources;
      for (const auto& [source, v] : state.values) {
        sources.emplace_back(source, interp::sourceValueText(v));
        if (!v) dynamic.insert(source);
      }
      out << key.script << ":" << key.line << ":" << key.function;
      if (!key.region.empty()) out << " (region " << key.region << ")";
      out << ":\n";
      for (const std::string& line : report::renderPgoSources(sources)) out << line << "\n";
    }
    std::string line = report::dynamicSourcesAssignment({dynamic.begin(), dynamic.end()});
    out << (line.empty() ? "no dynamic sources" : line) << "\n";
  }
  return status;
}

}  // namespace tessel::repl
