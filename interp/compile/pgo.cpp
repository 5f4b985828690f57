// PGO profiles: reading, merging and writing them safely, and `tessel pgo show`
// (Note [PGO profiles] in pgo.h).
#include "interp/compile/pgo.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "interp/compile/compile_trace.h"

namespace tessel::interp {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kProfileVersion = 1;

// FNV-1a: a stable name for a script's profile across runs and machines.
uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

using States = std::map<PgoKey, CodeState>;

// Parses a profile; false with `why` for anything but a well-formed file of this version (the
// file is the user's: any JSON at all may be in it).
bool parseProfile(const std::string& text, const std::string& script, States& out,
                  std::string& why) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    why = "not valid JSON (damaged or truncated)";
    return false;
  }
  auto field = [](const json& object, const char* key) -> const json* {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  };
  const json* version = field(doc, "tessel_pgo");
  if (!version) {
    why = "not a Tessel PGO profile";
    return false;
  }
  if (*version != kProfileVersion) {
    why = "version " + version->dump() + ", this tessel reads version " +
          std::to_string(kProfileVersion);
    return false;
  }
  const json* owner = field(doc, "script");
  const json* frames = field(doc, "frames");
  if (!owner || !owner->is_string() || !frames || !frames->is_array()) {
    why = "no script or frames list";
    return false;
  }
  if (!script.empty() && *owner != script) {
    why = "it belongs to another script (" + owner->get<std::string>() + ")";
    return false;
  }
  for (const json& f : *frames) {
    const json* function = field(f, "function");
    const json* line = field(f, "line");
    const json* region = field(f, "region");
    const json* sources = field(f, "sources");
    if (!function || !function->is_string() || !line || !line->is_number_integer() ||
        (region && !region->is_string()) || !sources || !sources->is_object()) {
      why = "a frame entry is malformed";
      return false;
    }
    PgoKey key{owner->get<std::string>(), function->get<std::string>(), line->get<int>(),
               region ? region->get<std::string>() : ""};
    CodeState state;
    if (!codeStateFromJson(*sources, state, why)) return false;
    out[key] = std::move(state);
  }
  return true;
}

std::string profileText(const std::string& script, const States& states) {
  json frames = json::array();
  for (const auto& [key, state] : states) {
    frames.push_back({{"function", key.function},
                      {"line", key.line},
                      {"region", key.region},
                      {"sources", codeStateJson(state)}});
  }
  json doc = {{"tessel_pgo", kProfileVersion}, {"script", script}, {"frames", std::move(frames)}};
  return doc.dump(2) + "\n";
}

bool readFile(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

// `into` learns `from`: a source seen with two values, in either, is "?".
void mergeState(CodeState& into, const CodeState& from) {
  for (const auto& [source, v] : from.values) {
    auto [it, inserted] = into.values.emplace(source, v);
    if (!inserted && (!v || !it->second || *it->second != *v)) it->second = std::nullopt;
  }
}

// Holds an advisory lock on `path` for its lifetime (no lock when the file cannot be made:
// the rename still keeps the profile whole).
class FileLock {
 public:
  explicit FileLock(const std::string& path) : fd_(::open(path.c_str(), O_CREAT | O_RDWR, 0644)) {
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

// Writes `text` to a temporary file beside `path` and renames it over `path`: readers see the
// old file or the new one, never a part.
bool writeWhole(const std::string& path, const std::string& text, std::string& why) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    why = "cannot create " + tmp;
    return false;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fflush(f) == 0 && ok;
  ok = ::fsync(fileno(f)) == 0 && ok;
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    why = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace

json codeStateJson(const CodeState& state) {
  json sources = json::object();
  for (const auto& [source, v] : state.values) {
    if (!v)
      sources[source] = "?";
    else if (std::nearbyint(*v) == *v && std::fabs(*v) < 9.0e15)
      sources[source] = static_cast<int64_t>(*v);
    else
      sources[source] = *v;
  }
  return sources;
}

bool codeStateFromJson(const json& sources, CodeState& state, std::string& why) {
  for (const auto& [source, v] : sources.items()) {
    if (v == "?") {
      state.values[source] = std::nullopt;
    } else if (v.is_number()) {
      state.values[source] = v.get<double>();
    } else {
      why = "source " + source + " has neither a number nor \"?\"";
      return false;
    }
  }
  return true;
}

bool PgoKey::operator<(const PgoKey& o) const {
  return std::tie(script, function, line, region) <
         std::tie(o.script, o.function, o.line, o.region);
}

PgoStore::PgoStore(std::string dir, CompileTrace* trace) : dir_(std::move(dir)), trace_(trace) {}

std::string PgoStore::defaultDir() {
  if (const char* d = std::getenv("TESSEL_CACHE_DIR"); d && *d) return std::string(d) + "/pgo";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/tessel/pgo";
}

std::string PgoStore::profilePath(const std::string& script) const {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(script)));
  return dir_ + "/" + fs::path(script).stem().string() + "-" + hash + ".json";
}

void PgoStore::warnIgnored(const std::string& path, const std::string& why) {
  std::cerr << "tessel: warning: ignoring the PGO profile " << path << ": " << why << "\n";
  if (trace_) trace_->pgoIgnored(path, why);
}

PgoStore::Profile& PgoStore::profileOf(const std::string& script) {
  Profile& p = profiles_[script];
  if (p.read) return p;
  p.read = true;
  std::string path = profilePath(script), text, why;
  if (!readFile(path, text)) return p;  // no profile yet
  if (!parseProfile(text, script, p.saved, why)) {
    p.saved.clear();
    warnIgnored(path, why);
  }
  return p;
}

std::optional<CodeState> PgoStore::load(const PgoKey& key, std::string& path) {
  if (key.script.empty()) return std::nullopt;
  try {
    Profile& p = profileOf(key.script);
    auto it = p.saved.find(key);
    if (it == p.saved.end()) return std::nullopt;
    path = profilePath(key.script);
    return it->second;
  } catch (const std::exception& e) {  // a profile never makes a program fail
    warnIgnored(profilePath(key.script), e.what());
    return std::nullopt;
  }
}

void PgoStore::record(const PgoKey& key, const CodeState& state) {
  if (!key.script.empty()) recorded_[key] = state;
}

void PgoStore::save() noexcept {
  try {
    std::map<std::string, States> byScript;
    for (const auto& [key, state] : recorded_) byScript[key.script][key] = state;
    if (byScript.empty()) return;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    for (auto& [script, states] : byScript) {
      std::string path = profilePath(script), text, why;
      FileLock lock(path + ".lock");
      // What other processes saved since this one read the file is kept, and merged.
      States onDisk;
      if (readFile(path, text) && !parseProfile(text, script, onDisk, why)) onDisk.clear();
      for (auto& [key, state] : states) mergeState(onDisk[key], state);
      if (!writeWhole(path, profileText(script, onDisk), why)) {
        std::cerr << "tessel: warning: the PGO profile was not saved: " << why << "\n";
        continue;
      }
      if (trace_) trace_->pgoSave(path, onDisk.size());
    }
  } catch (const std::exception& e) {
    std::cerr << "tessel: warning: the PGO profiles were not saved: " << e.what() << "\n";
  }
}

std::string pgoScriptOf(const std::string& sourceName) {
  if (sourceName.empty() || sourceName[0] == '<') return "";
  std::error_code ec;
  if (!fs::is_regular_file(sourceName, ec)) return "";
  fs::path p = fs::weakly_canonical(fs::absolute(sourceName, ec), ec);
  return ec ? "" : p.string();
}

std::string sourceValueText(const std::optional<double>& v) {
  if (!v) return "?";
  if (std::nearbyint(*v) == *v && std::fabs(*v) < 9.0e15)
    return std::to_string(static_cast<int64_t>(*v));
  std::ostringstream s;
  s << *v;
  return s.str();
}

bool readProfile(const std::string& path, std::map<PgoKey, CodeState>& states, std::string& why) {
  std::string text;
  if (!readFile(path, text)) {
    why = "unreadable";
    return false;
  }
  return parseProfile(text, "", states, why);
}

}  // namespace tessel::interp
