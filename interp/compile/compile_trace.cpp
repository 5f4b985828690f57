// Writing the structured compile trace (compile_trace.h; schema in docs/compile.md).
#include "interp/compile/compile_trace.h"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <ctime>
#include <fstream>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "backends/dist/world.h"
#include "backends/graph/fused_program.h"
#include "backends/graph/graph.h"
#include "interp/compile/compiled_frame.h"
#include "interp/compile/pgo.h"
#include "interp/compile/tracer.h"
#include "interp/interpreter.h"

namespace tessel::interp {

using nlohmann::json;

namespace {

// "f.dsl:6:8" and the line's text, or nulls for a guard with no user line.
void putLocation(json& j, const shapes::SourceLoc& loc) {
  if (!loc.known()) {
    j["at"] = nullptr;
    j["code"] = nullptr;
    return;
  }
  j["at"] = loc.toString();
  j["code"] = loc.lineText;
}

json bound(int64_t v) {
  if (v == shapes::ValueRange::kNegInf || v == shapes::ValueRange::kPosInf) return nullptr;
  return v;
}

std::string wallTime() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

json regionJson(int firstLine, int lastLine) {
  return firstLine ? json{{"first_line", firstLine}, {"last_line", lastLine}} : json();
}

// The command line of this process (the trace is opened before a script's args are known).
json commandLine() {
  json argv = json::array();
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string word;
  while (std::getline(in, word, '\0')) argv.push_back(word);
  return argv;
}

}  // namespace

std::unique_ptr<CompileTrace> CompileTrace::open(const std::string& dir, std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // Each interpreter of a process writes its own file (an embedder may run several).
  static std::atomic<int> opened{0};
  int n = opened++;
  std::string path = dir + "/tessel_trace_" + std::to_string(::getpid()) +
                     (n ? "_" + std::to_string(n) : "") + ".jsonl";
  FILE* f = std::fopen(path.c_str(), "a");
  if (!f) {
    error = "cannot write the compile trace " + path;
    return nullptr;
  }
  std::unique_ptr<CompileTrace> trace(new CompileTrace(f, path));
  // The rank joins the world first if mpirun started this process (backends/dist/world.h).
  json start = {{"schema", 1},
                {"rank", backends::dist::rank()},
                {"world_size", backends::dist::worldSize()},
                {"wall_time", wallTime()},
                {"argv", commandLine()}};
  start["cwd"] = std::filesystem::current_path(ec).string();
  trace->emit("start", start);
  return trace;
}

CompileTrace::CompileTrace(FILE* file, std::string path)
    : file_(file), path_(std::move(path)), start_(std::chrono::steady_clock::now()) {}

CompileTrace::~CompileTrace() {
  json end = json::object();
  emit("end", end);
  std::fclose(file_);
}

void CompileTrace::emit(const char* event, json& fields) {
  using namespace std::chrono;
  fields["event"] = event;
  fields["t_us"] = duration_cast<microseconds>(steady_clock::now() - start_).count();
  fields["pid"] = static_cast<int64_t>(::getpid());
  // Invalid UTF-8 in a user's string is replaced rather than thrown about.
  std::string line = fields.dump(-1, ' ', false, json::error_handler_t::replace);
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

json CompileTrace::compileFields(const FrameObj& frame, int compileId) {
  return {{"id", std::to_string(frame.frameId) + "/" + std::to_string(compileId)},
          {"frame_id", frame.frameId},
          {"compile", compileId}};
}

void CompileTrace::compileStart(const FrameObj& frame, int compileId, int firstLine,
                                int lastLine, bool recompile, const std::string& reason) {
  json j = compileFields(frame, compileId);
  j["frame"] = frame.name();
  j["file"] = frame.file;
  j["line"] = frame.line;
  j["region"] = regionJson(firstLine, lastLine);
  j["recompile"] = recompile;
  j["reason"] = recompile ? json(reason) : json();
  emit("compile_start", j);
}

void CompileTrace::shapeFacts(const FrameObj& frame, const Entry& entry) {
  const shapes::ShapeEnv& env = *entry.env;
  for (size_t i = 0; i < env.numSymbols(); ++i) {
    const shapes::SymbolInfo& s = env.symbol(static_cast<uint32_t>(i));
    json j = compileFields(frame, entry.compileId);
    j["symbol"] = s.name;
    j["source"] = s.source;
    j["hint"] = s.hint ? json(*s.hint) : json();
    j["range"] = {bound(s.initialRange.lo), bound(s.initialRange.hi)};
    j["unbacked"] = s.unbacked;
    putLocation(j, s.loc);
    emit("symbol", j);
  }
  for (const shapes::Replacement& r : env.replacements()) {
    std::optional<int64_t> value = r.value ? shapes::SymInt(r.value).maybeConstant() : std::nullopt;
    if (!value) continue;  // a symbol replaced by another is not a specialization
    const shapes::SymbolInfo& s = env.symbol(r.symbol);
    json j = compileFields(frame, entry.compileId);
    j["symbol"] = s.name;
    j["source"] = s.source;
    j["value"] = *value;
    j["reason"] = r.reason;
    putLocation(j, r.loc);
    emit("specialization", j);
  }
}

void CompileTrace::compileEnd(const FrameObj& frame, const Entry& entry) {
  shapeFacts(frame, entry);
  const shapes::ShapeEnv& env = *entry.env;
  size_t shown = 0;
  for (const shapes::Guard& g : entry.guards.guards()) {
    json j = compileFields(frame, entry.compileId);
    j["text"] = g.text;
    j["kind"] = shapes::guardKindName(g.kind);
    putLocation(j, g.loc);
    emit("guard", j);
    ++shown;
  }
  const size_t floats = shown + env.floatGuards().size();  // then the float guards, then globals
  for (size_t i = shown; i < entry.guardTexts.size(); ++i) {
    json j = compileFields(frame, entry.compileId);
    j["text"] = entry.guardTexts[i];
    j["kind"] = i < floats ? "float" : "global";
    j["at"] = nullptr;
    j["code"] = nullptr;
    emit("guard", j);
  }
  const graph::Graph& g = entry.executable->graph();
  // `tensor_ops` leaves out the ops that only turn sizes into tensors (a dynamic graph's
  // arange(s0) for `x * x.shape[0]`, which its static twin folds into a constant), so graphs
  // that differ only in sizes have equal tensor_ops: seed 004's "similar graphs".
  json ops = json::array(), tensorOps = json::array();
  std::vector<bool> fromInput(g.size(), false);
  for (graph::ValueId id = 0; id < g.size(); ++id) {
    const graph::Value& v = g.value(id);
    if (v.kind == graph::ValueKind::Input) fromInput[id] = true;
    if (!v.isNode()) continue;
    for (graph::ValueId a : v.args) fromInput[id] = fromInput[id] || fromInput[a];
    std::string name = v.kind == graph::ValueKind::Op ? std::string(shapes::opName(v.op)) : "fused";
    ops.push_back(v.kind == graph::ValueKind::Op ? name
                                                 : name + "[" + std::to_string(v.fused->numOps()) + "]");
    if (fromInput[id]) tensorOps.push_back(name);
  }
  json graphEvent = compileFields(frame, entry.compileId);
  graphEvent["code"] = entry.graphText;
  graphEvent["ops"] = std::move(ops);
  graphEvent["tensor_ops"] = std::move(tensorOps);
  graphEvent["nodes"] = g.numNodes();
  graphEvent["inputs"] = g.inputs().size();
  graphEvent["outputs"] = g.outputs().size();
  graphEvent["backend"] = entry.backend;
  emit("graph", graphEvent);

  const shapes::ShapeEnvStats& st = env.stats();
  json end = compileFields(frame, entry.compileId);
  end["ok"] = true;
  end["compile_ms"] = entry.compileMs;
  end["trace_ms"] = entry.traceMs;
  end["solver_ms"] = entry.solverMs;
  end["codegen_ms"] = entry.codegenMs;
  end["solver_queries"] = st.solverQueries;
  end["solver_unknowns"] = st.solverUnknowns;
  end["solver_interrupts"] = st.solverInterrupts;
  end["guards"] = entry.guardTexts.size();
  end["symbols"] = env.numSymbols();
  emit("compile_end", end);
}

void CompileTrace::compileFailed(const FrameObj& frame, const Entry& entry, bool isBreak,
                                 const std::string& error) {
  // A failed compile's symbols and specializations explain it (mark_dynamic's
  // ConstraintViolation names one); a broken one's are of no use.
  if (!isBreak && entry.env) shapeFacts(frame, entry);
  json j = compileFields(frame, entry.compileId);
  j["ok"] = false;
  if (isBreak)
    j["break"] = true;
  else
    j["error"] = error;
  emit("compile_end", j);
}

void CompileTrace::graphBreak(Interpreter& interp, const FrameObj& frame, int compileId,
                              const TracedBreak& brk) {
  json j = compileFields(frame, compileId);
  j["frame"] = frame.name();
  j["reason"] = brk.reason();
  j["kind"] = errorKindName(brk.kind());
  const SourceRegistry& sources = interp.sources();
  j["at"] = sources.name(brk.span.file) + ":" + std::to_string(brk.span.line) + ":" +
            std::to_string(brk.span.col);
  j["code"] = std::string(sources.line(brk.span.file, brk.span.line));
  emit("graph_break", j);
}

void CompileTrace::firstRun(const FrameObj& frame, const Entry& entry, double ms) {
  json j = compileFields(frame, entry.compileId);
  j["ms"] = ms;
  emit("first_run", j);
}

void CompileTrace::run(const FrameObj& frame, const Entry& entry, int64_t calls) {
  json j = compileFields(frame, entry.compileId);
  j["calls"] = calls;
  emit("run", j);
}

void CompileTrace::fallback(const FrameObj& frame, int firstLine, int lastLine,
                            const std::string& reason) {
  json j = {{"frame_id", frame.frameId}, {"frame", frame.name()}, {"reason", reason}};
  j["region"] = regionJson(firstLine, lastLine);
  emit("fallback", j);
}

void CompileTrace::pgoLoad(const FrameObj& frame, int compileId, const std::string& path,
                           const CodeState& state) {
  json j = compileFields(frame, compileId);
  j["frame"] = frame.name();
  j["file"] = frame.file;
  j["line"] = frame.line;
  j["path"] = path;
  j["sources"] = codeStateJson(state);
  emit("pgo_load", j);
}

void CompileTrace::compilerCollective(const FrameObj& frame, int compileId, int rank,
                                      int worldSize, const json& ranks,
                                      const std::vector<std::string>& dynamic) {
  json j = compileFields(frame, compileId);
  j["frame"] = frame.name();
  j["rank"] = rank;
  j["world_size"] = worldSize;
  j["ranks"] = ranks;
  j["dynamic"] = dynamic;
  emit("compiler_collective", j);
}

void CompileTrace::pgoSave(const std::string& path, size_t frames) {
  json j = {{"path", path}, {"frames", frames}};
  emit("pgo_save", j);
}

void CompileTrace::pgoIgnored(const std::string& path, const std::string& why) {
  json j = {{"path", path}, {"why", why}};
  emit("pgo_ignored", j);
}

void CompileTrace::frameSummary(const FrameObj& frame) {
  const FrameStats& s = frame.stats;
  json j = {{"frame_id", frame.frameId}, {"frame", frame.name()},
            {"file", frame.file},        {"line", frame.line},
            {"compiles", s.compiles},    {"cache_hits", s.cacheHits},
            {"cache_misses", s.cacheMisses}, {"recompiles", s.recompiles},
            {"graph_breaks", s.graphBreaks}, {"fallbacks", s.fallbacks}};
  emit("frame_summary", j);
}

}  // namespace tessel::interp
