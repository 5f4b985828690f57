// Reading the JSON Lines compile trace into report::Trace. Lenient on purpose: the trace
// of a killed process ends mid-line, and a newer producer may add events and fields.
#include "repl/report/trace.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace tessel::repl::report {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Field readers that never throw: a field of the wrong type reads as absent, so one odd
// field costs that field, not the event (bad lines are counted only when unparsable).
std::string str(const json& e, const char* key) {
  auto it = e.find(key);
  if (it == e.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

std::optional<double> num(const json& e, const char* key) {
  auto it = e.find(key);
  if (it == e.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::optional<int64_t> integer(const json& e, const char* key) {
  auto it = e.find(key);
  if (it == e.end() || !it->is_number()) return std::nullopt;
  if (it->is_number_float()) {
    double d = it->get<double>();
    if (!(std::fabs(d) < 9.0e18)) return std::nullopt;  // no int64_t holds it
    return static_cast<int64_t>(d);
  }
  return it->get<int64_t>();
}

bool flag(const json& e, const char* key) {
  auto it = e.find(key);
  return it != e.end() && it->is_boolean() && it->get<bool>();
}

/// A scalar as the page shows it: strings bare, numbers as JSON writes them, null empty.
std::string text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

std::string textField(const json& e, const char* key) {
  auto it = e.find(key);
  return it == e.end() ? "" : text(*it);
}

SourceLine sourceLine(const json& e) {
  return {str(e, "at"), str(e, "code")};
}

/// `range` is [lo, hi] with null for infinity.
std::string rangeText(const json& e) {
  auto it = e.find("range");
  if (it == e.end() || !it->is_array() || it->size() != 2) return "";
  auto bound = [](const json& b, const char* inf) { return b.is_null() ? inf : text(b); };
  return "[" + bound((*it)[0], "-inf") + ", " + bound((*it)[1], "inf") + "]";
}

/// Counts in compile_end may be numbers or lists of what was counted; either reads as a count.
std::optional<int64_t> count(const json& e, const char* key) {
  auto it = e.find(key);
  if (it != e.end() && it->is_array()) return static_cast<int64_t>(it->size());
  return integer(e, key);
}

class Reader {
 public:
  explicit Reader(Process& p) : p_(p) {}

  void event(const json& e) {
    double t = num(e, "t_us").value_or(0);
    p_.lastUs = std::max(p_.lastUs, t);
    if (!p_.pid) p_.pid = integer(e, "pid").value_or(0);
    static const std::unordered_map<std::string, void (Reader::*)(const json&, double)> kinds = {
        {"start", &Reader::start},
        {"end", &Reader::end},
        {"compile_start", &Reader::compileStart},
        {"symbol", &Reader::symbol},
        {"specialization", &Reader::specialization},
        {"guard", &Reader::guard},
        {"graph_break", &Reader::graphBreak},
        {"graph", &Reader::graph},
        {"compile_end", &Reader::compileEnd},
        {"first_run", &Reader::firstRun},
        {"run", &Reader::run},
        {"pgo_load", &Reader::pgoLoad},
        {"pgo_save", &Reader::pgoSave},
        {"pgo_ignored", &Reader::pgoIgnored},
        {"fallback", &Reader::fallback},
        {"frame_summary", &Reader::frameSummary},
    };
    auto it = kinds.find(e["event"].get<std::string>());
    if (it != kinds.end()) (this->*(it->second))(e, t);
  }

 private:
  Process& p_;
  std::map<std::string, size_t> byId_;

  /// The compile an event belongs to; one is made up when its compile_start is missing
  /// (a trace cut at the front), so no event of a compile is lost.
  CompileRecord& compileOf(const json& e, double t) {
    std::string id = str(e, "id");
    auto [it, fresh] = byId_.try_emplace(id, p_.compiles.size());
    if (fresh) {
      CompileRecord c;
      c.id = id;
      c.startUs = t;
      c.frameId = integer(e, "frame_id").value_or(-1);
      c.compile = integer(e, "compile").value_or(-1);
      c.frame = str(e, "frame");
      p_.compiles.push_back(std::move(c));
    }
    return p_.compiles[it->second];
  }

  void start(const json& e, double) {
    p_.started = true;
    p_.rank = integer(e, "rank");
    p_.cwd = str(e, "cwd");
    p_.wallTime = str(e, "wall_time");
    if (auto it = e.find("argv"); it != e.end() && it->is_array()) {
      for (const json& a : *it) p_.argv += (p_.argv.empty() ? "" : " ") + text(a);
    } else {
      p_.argv = textField(e, "argv");
    }
  }

  void end(const json&, double) { p_.ended = true; }

  void compileStart(const json& e, double t) {
    CompileRecord& c = compileOf(e, t);
    c.started = true;
    c.startUs = t;
    c.frame = str(e, "frame");
    c.file = str(e, "file");
    c.line = integer(e, "line").value_or(0);
    c.region = regionOf(e);
    c.recompile = flag(e, "recompile");
    c.reason = str(e, "reason");
  }

  void symbol(const json& e, double t) {
    compileOf(e, t).symbols.push_back({str(e, "symbol"), str(e, "source"), textField(e, "hint"),
                                       rangeText(e), flag(e, "unbacked"), sourceLine(e)});
  }

  void specialization(const json& e, double t) {
    compileOf(e, t).specializations.push_back({str(e, "symbol"), str(e, "source"),
                                               textField(e, "value"), str(e, "reason"),
                                               sourceLine(e)});
  }

  void guard(const json& e, double t) {
    compileOf(e, t).guards.push_back({str(e, "text"), str(e, "kind"), sourceLine(e)});
  }

  void graphBreak(const json& e, double t) {
    compileOf(e, t).breaks.push_back(
        {t, str(e, "frame"), str(e, "reason"), str(e, "kind"), sourceLine(e)});
  }

  void graph(const json& e, double t) {
    GraphRecord g;
    g.code = str(e, "code");
    if (auto it = e.find("ops"); it != e.end() && it->is_array())
      for (const json& op : *it) g.ops.push_back(text(op));
    if (auto it = e.find("tensor_ops"); it != e.end() && it->is_array()) {
      g.hasTensorOps = true;
      for (const json& op : *it) g.tensorOps.push_back(text(op));
    }
    g.nodes = integer(e, "nodes").value_or(0);
    g.inputs = integer(e, "inputs").value_or(0);
    g.outputs = integer(e, "outputs").value_or(0);
    g.backend = str(e, "backend");
    compileOf(e, t).graph = std::move(g);
  }

  void compileEnd(const json& e, double t) {
    CompileRecord& c = compileOf(e, t);
    c.endUs = t;
    c.ok = flag(e, "ok");
    c.broke = flag(e, "break");
    c.error = textField(e, "error");
    CompileMetrics& m = c.metrics;
    m.compileMs = num(e, "compile_ms");
    m.traceMs = num(e, "trace_ms");
    m.solverMs = num(e, "solver_ms");
    m.codegenMs = num(e, "codegen_ms");
    m.solverQueries = integer(e, "solver_queries");
    m.guards = count(e, "guards");
    m.symbols = count(e, "symbols");
  }

  void firstRun(const json& e, double t) {
    CompileRecord& c = compileOf(e, t);
    c.metrics.firstRunMs = num(e, "ms");
    c.firstRunUs = t;
  }

  void run(const json& e, double t) {
    compileOf(e, t).runs.push_back({t, integer(e, "calls").value_or(0)});
  }

  void pgoLoad(const json& e, double t) {
    PgoLoad l{t, str(e, "frame"), str(e, "file"), str(e, "path"), integer(e, "line").value_or(0),
              {}};
    if (auto it = e.find("sources"); it != e.end() && it->is_object())
      for (const auto& [name, value] : it->items()) l.sources.push_back({name, text(value)});
    p_.pgoLoads.push_back(std::move(l));
  }

  void pgoSave(const json& e, double t) {
    p_.pgoSaves.push_back({t, str(e, "path"), textField(e, "frames")});
  }

  void pgoIgnored(const json& e, double t) {
    p_.pgoIgnored.push_back({t, str(e, "path"), str(e, "why")});
  }

  void fallback(const json& e, double t) {
    p_.fallbacks.push_back({t, integer(e, "frame_id").value_or(-1), str(e, "frame"),
                            str(e, "reason"), regionOf(e)});
  }

  // compile_start's and fallback's `region`: null for a whole function.
  static std::optional<std::pair<int64_t, int64_t>> regionOf(const json& e) {
    auto it = e.find("region");
    if (it == e.end() || !it->is_object()) return std::nullopt;
    return std::pair{integer(*it, "first_line").value_or(0), integer(*it, "last_line").value_or(0)};
  }

  void frameSummary(const json& e, double) {
    FrameSummary s;
    s.frameId = integer(e, "frame_id").value_or(-1);
    s.frame = str(e, "frame");
    s.file = str(e, "file");
    s.line = integer(e, "line").value_or(0);
    s.compiles = integer(e, "compiles").value_or(0);
    s.cacheHits = integer(e, "cache_hits").value_or(0);
    s.cacheMisses = integer(e, "cache_misses").value_or(0);
    s.recompiles = integer(e, "recompiles").value_or(0);
    s.graphBreaks = integer(e, "graph_breaks").value_or(0);
    s.fallbacks = integer(e, "fallbacks").value_or(0);
    p_.frameSummaries.push_back(s);
  }
};

}  // namespace

int64_t Trace::badLines() const {
  int64_t n = 0;
  for (const Process& p : processes) n += p.badLines;
  return n;
}

Process readProcess(const std::string& fileName, std::istream& in) {
  Process p;
  p.fileName = fileName;
  Reader reader(p);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json e = json::parse(line, nullptr, /*allow_exceptions=*/false);
    auto kind = e.is_object() ? e.find("event") : e.end();
    if (!e.is_object() || kind == e.end() || !kind->is_string()) {
      ++p.badLines;
      continue;
    }
    reader.event(e);
  }
  return p;
}

bool readTraceDir(const std::string& dir, Trace& trace, std::string& error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = "'" + dir + "' is not a directory";
    return false;
  }
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), endIt; !ec && it != endIt; it.increment(ec))
    if (it->path().extension() == ".jsonl" && it->is_regular_file(ec)) files.push_back(it->path());
  if (ec) {
    error = "cannot read '" + dir + "': " + ec.message();
    return false;
  }
  if (files.empty()) {
    error = "no trace files (*.jsonl) in '" + dir + "'; write some with tessel --trace-dir " + dir;
    return false;
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    if (!in) {
      error = "cannot open '" + f.string() + "'";
      return false;
    }
    trace.processes.push_back(readProcess(f.filename().string(), in));
  }
  // Processes in the order they started; ISO 8601 UTC text sorts as time does.
  std::stable_sort(trace.processes.begin(), trace.processes.end(),
                   [](const Process& a, const Process& b) { return a.wallTime < b.wallTime; });
  return true;
}

}  // namespace tessel::repl::report
