// The structured compile trace (compiler.md, "Observing the compiler"; schema in
// docs/compile.md, "Structured trace"): `--trace-dir DIR` / TESSEL_TRACE=DIR writes one JSON
// object per line for every compile event into DIR/tessel_trace_<pid>.jsonl, which
// `tessel report` turns into a page. Off (no CompileTrace at all) unless asked for, so the
// compiler pays one null check per event site; on, it writes per compile, not per call (cache
// hits are sampled at powers of two).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace tessel::interp {

class Interpreter;
class TracedBreak;
struct CodeState;
struct Entry;
struct FrameObj;

class CompileTrace {
 public:
  /// Opens DIR/tessel_trace_<pid>.jsonl (DIR is created); null, with `error`, when it cannot.
  static std::unique_ptr<CompileTrace> open(const std::string& dir, std::string& error);
  ~CompileTrace();  // writes `end`
  CompileTrace(const CompileTrace&) = delete;
  CompileTrace& operator=(const CompileTrace&) = delete;
  const std::string& path() const { return path_; }

  /// A compile of `frame` begins: a whole call (firstLine 0) or a region's statements.
  void compileStart(const FrameObj& frame, int compileId, int firstLine, int lastLine,
                    bool recompile, const std::string& reason);
  /// A finished compile: its symbols, specializations, guards, graph and timings.
  void compileEnd(const FrameObj& frame, const Entry& entry);
  /// A compile that did not produce an entry: its trace broke, or an error stopped it.
  void compileFailed(const FrameObj& frame, const Entry& entry, bool isBreak,
                     const std::string& error);
  void graphBreak(Interpreter& interp, const FrameObj& frame, int compileId, const TracedBreak& brk);
  void firstRun(const FrameObj& frame, const Entry& entry, double ms);
  /// The entry ran its `calls`-th time (the caller samples: powers of two).
  void run(const FrameObj& frame, const Entry& entry, int64_t calls);
  /// The frame (firstLine 0) or one of its regions reached config.recompile_limit.
  void fallback(const FrameObj& frame, int firstLine, int lastLine, const std::string& reason);
  void pgoLoad(const FrameObj& frame, int compileId, const std::string& path,
               const CodeState& state);
  void pgoSave(const std::string& path, size_t frames);
  /// Compiler collectives: the code states of every rank at this compile (`ranks`, in rank
  /// order) and the sources that became dynamic because they differ.
  void compilerCollective(const FrameObj& frame, int compileId, int rank, int worldSize,
                          const nlohmann::json& ranks, const std::vector<std::string>& dynamic);
  void pgoIgnored(const std::string& path, const std::string& why);
  /// At exit (or when the frame dies): its counters.
  void frameSummary(const FrameObj& frame);

 private:
  CompileTrace(FILE* file, std::string path);
  /// Adds `event`, `t_us`, `pid` and writes one line (flushed: a killed process keeps its
  /// trace up to its last event).
  void emit(const char* event, nlohmann::json& fields);
  nlohmann::json compileFields(const FrameObj& frame, int compileId);
  /// The symbols an entry's trace made, and the ones it specialized.
  void shapeFacts(const FrameObj& frame, const Entry& entry);

  FILE* file_;
  std::string path_;
  std::chrono::steady_clock::time_point start_;
};

/// Whether `calls` is a sampled count (1, 2, 4, 8, ...).
inline bool sampledCall(int64_t calls) { return (calls & (calls - 1)) == 0; }

}  // namespace tessel::interp
