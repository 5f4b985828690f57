// The structured compile trace (`--trace-dir`, docs/compile.md "Structured trace") read back
// into plain structs for `tessel report`: one Process per file, its compiles keyed by id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessel::repl::report {

// Field values are kept as the text the page shows: numbers in the trace are hints, sizes,
// milliseconds, never computed with except where a field says so (times, counts).

/// A user line a record points at: `at` ("file:line[:col]", empty when none) and `code`.
struct SourceLine {
  std::string at;
  std::string code;
};

struct GuardRecord {
  std::string text;  ///< with source names, e.g. "x.shape[0] <= 30"
  std::string kind;  ///< guard, static, duck, range, ...
  SourceLine where;
};

struct SymbolRecord {
  std::string symbol;  ///< s0, u0
  std::string source;  ///< "" when unbacked
  std::string hint;    ///< "" when unbacked
  std::string range;   ///< "[2, inf]"
  bool unbacked = false;
  SourceLine where;
};

struct SpecializationRecord {
  std::string symbol, source, value, reason;
  SourceLine where;
};

struct BreakRecord {
  double tUs = 0;
  std::string frame, reason, kind;
  SourceLine where;
};

struct GraphRecord {
  std::string code;
  std::vector<std::string> ops;
  std::vector<std::string> tensorOps;  // the ops that depend on an input (schema's tensor_ops)
  bool hasTensorOps = false;           // traces written before tensor_ops have none
  int64_t nodes = 0, inputs = 0, outputs = 0;
  std::string backend;
};

/// Timings of compile_end; absent fields stay empty (a killed process has no compile_end).
struct CompileMetrics {
  std::optional<double> compileMs, traceMs, solverMs, codegenMs, firstRunMs;
  std::optional<int64_t> solverQueries, guards, symbols;
};

/// Everything the trace says about one compile id ("frame/compile") of one process.
struct CompileRecord {
  std::string id;
  bool started = false;  ///< a compile_start was read (else: made up from a later event)
  int64_t frameId = -1, compile = -1;
  std::string frame, file;
  int64_t line = 0;
  std::optional<std::pair<int64_t, int64_t>> region;  ///< first and last line
  bool recompile = false;
  std::string reason;  ///< empty for a first compile
  double startUs = 0;
  std::optional<double> endUs;  ///< absent: no compile_end (killed, or still running)
  bool ok = false, broke = false;
  std::string error;  ///< "Kind: message" of a failed compile
  std::vector<GuardRecord> guards;
  std::vector<SymbolRecord> symbols;
  std::vector<SpecializationRecord> specializations;
  std::vector<BreakRecord> breaks;
  std::optional<GraphRecord> graph;
  CompileMetrics metrics;
  std::vector<std::pair<double, int64_t>> runs;  ///< t_us and calls of sampled `run` events
  std::optional<double> firstRunUs;
};

/// One frame of a `pgo_load` profile: source name to "?" or its one value.
struct PgoLoad {
  double tUs = 0;
  std::string frame, file, path;
  int64_t line = 0;
  std::vector<std::pair<std::string, std::string>> sources;
};

struct PgoNote {  ///< pgo_save (detail = frames held) or pgo_ignored (detail = why)
  double tUs = 0;
  std::string path, detail;
};

struct Fallback {
  double tUs = 0;
  int64_t frameId = -1;  ///< -1 when the event names only the frame
  std::string frame, reason;
  std::optional<std::pair<int64_t, int64_t>> region;  ///< a region's fallback: its lines
};

struct FrameSummary {
  int64_t frameId = -1;
  std::string frame, file;
  int64_t line = 0;
  int64_t compiles = 0, cacheHits = 0, cacheMisses = 0, recompiles = 0, graphBreaks = 0,
          fallbacks = 0;
};

/// One trace file: one process.
struct Process {
  std::string fileName;
  int64_t pid = 0;
  std::optional<int64_t> rank;
  std::string argv, cwd, wallTime;
  bool started = false, ended = false;
  double lastUs = 0;                    ///< the largest t_us seen
  std::vector<CompileRecord> compiles;  ///< in the order their first event came
  std::vector<PgoLoad> pgoLoads;
  std::vector<PgoNote> pgoSaves, pgoIgnored;
  std::vector<Fallback> fallbacks;
  std::vector<FrameSummary> frameSummaries;
  int64_t badLines = 0;
};

struct Trace {
  std::vector<Process> processes;  ///< ordered by wall_time, then file name
  int64_t badLines() const;
};

/// Reads one file's lines; a line that is not a JSON object with a string `event` is counted
/// in badLines and skipped, unknown events are ignored (a newer producer).
Process readProcess(const std::string& fileName, std::istream& in);
/// Reads every *.jsonl file of `dir`. Returns false with `error` set when `dir` cannot be read
/// or holds no such file.
bool readTraceDir(const std::string& dir, Trace& trace, std::string& error);

}  // namespace tessel::repl::report
