// tessel::pgo: the PGO profiles a tool lists (`tessel pgo show`), read by the compiler's own
// store (interp/compile/pgo.h) so that what is shown is what the next run will load.
#include "interp/compile/pgo.h"

#include "api/api_internal.h"
#include "interp/compile/compiled_frame.h"

namespace tessel::pgo {

std::string profileDir() {
  return interp::PgoStore::defaultDir();
}

std::string profilePath(const std::string& script) {
  std::string absolute = interp::pgoScriptOf(script);
  if (absolute.empty()) return "";
  return interp::PgoStore(profileDir(), nullptr).profilePath(absolute);
}

std::vector<ProfileEntry> readProfile(const std::string& path) {
  std::map<interp::PgoKey, interp::CodeState> states;
  std::string why;
  if (!interp::readProfile(path, states, why)) throw api::errorWithoutLocation("ValueError", why);
  std::vector<ProfileEntry> entries;
  for (const auto& [key, state] : states) {
    ProfileEntry e{key.script, key.line, key.function, key.region, {}};
    for (const auto& [source, v] : state.values)
      e.sources.emplace_back(source, interp::sourceValueText(v));
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace tessel::pgo
