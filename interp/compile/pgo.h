// PGO, profile-guided dynamic shapes (compiler.md, "PGO"): code states saved by one run and
// loaded by the next, so sizes that became dynamic before start dynamic.
//
// Note [PGO profiles]
// A profile is one readable JSON file per script under $TESSEL_CACHE_DIR/pgo/ (default
// ~/.cache/tessel/pgo), named after the script and a hash of its absolute path. It holds, per
// frame (function name and line; a region of a function with graph breaks adds the lines of its
// statements), the frame's code state: each source's value, or "?" once two were seen.
//
// A frame loads its state at its first compile and records it at every compile; at exit the
// recorded states are merged into the file (a source that differs between the file and this run
// becomes "?"), under an advisory lock, written to a temporary file and renamed, so two
// processes of one script never leave a torn file and neither loses the other's sources. A
// profile only ever makes sources dynamic, which changes how many graphs are compiled, never a
// result; a file that cannot be read (damaged, truncated, another version) is ignored with one
// warning naming it, and replaced at exit.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "interp/compile/compiled_frame.h"

namespace tessel::interp {

class CompileTrace;

/// Which code state of a script a profile entry is: a frame, or one region of it.
struct PgoKey {
  std::string script;    // absolute path; empty when the code is not in a file (REPL, -c)
  std::string function;  // its name
  int line = 0;          // of its `fn`
  std::string region;    // "" for the whole function; "5:3-7" for a region's statements
  bool operator<(const PgoKey& o) const;
};

/// The profiles of one process: loaded on demand, saved at exit.
class PgoStore {
 public:
  /// `dir`: where profiles live ($TESSEL_CACHE_DIR/pgo); `trace` (may be null) receives
  /// pgo_save / pgo_ignored events.
  PgoStore(std::string dir, CompileTrace* trace);
  /// $TESSEL_CACHE_DIR/pgo, else $HOME/.cache/tessel/pgo.
  static std::string defaultDir();
  /// The profile file of a script (an absolute path).
  std::string profilePath(const std::string& script) const;

  /// The state an earlier run saved for `key`, if any; `path` is set to its file.
  std::optional<CodeState> load(const PgoKey& key, std::string& path);
  /// Records `key`'s current state, to be saved at exit.
  void record(const PgoKey& key, const CodeState& state);
  /// Merges every recorded state into its script's profile. Never throws; a failure is one
  /// warning.
  void save() noexcept;

 private:
  struct Profile {
    bool read = false;                 // the file was looked at
    std::map<PgoKey, CodeState> saved;  // what it held
  };
  Profile& profileOf(const std::string& script);
  void warnIgnored(const std::string& path, const std::string& why);

  std::string dir_;
  CompileTrace* trace_;
  std::map<std::string, Profile> profiles_;  // by script
  std::map<PgoKey, CodeState> recorded_;
};

/// The absolute path of the file a frame's function was defined in, or "" when it was not a
/// file (the REPL, -c, an embedder's string).
std::string pgoScriptOf(const std::string& sourceName);

/// A profile's sources as JSON: a size or int as an integer, a float as itself, "?" once several
/// values were seen (the profile file and the structured trace write them so).
nlohmann::json codeStateJson(const CodeState& state);
/// The inverse of codeStateJson; false with `why` when `sources` is not an object of numbers
/// and "?".
bool codeStateFromJson(const nlohmann::json& sources, CodeState& state, std::string& why);
/// One source's value as `tessel pgo show` prints it: "?", "8", "0.5".
std::string sourceValueText(const std::optional<double>& v);
/// Reads a profile file (of any script); false with `why` when it is not a good one.
bool readProfile(const std::string& path, std::map<PgoKey, CodeState>& states, std::string& why);

}  // namespace tessel::interp
