// `tessel report` (repl/report/report.h): the page of a hand-made trace that uses every event of the
// schema (docs/compile.md, "Structured trace"): sections, escaping, damaged lines, usage
// errors, similar graphs, PGO; the page in headless Chromium (skipped without it); and the
// page of real traces written by `tessel --trace-dir`.
#include "repl/report/report.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "repl/report/frames.h"
#include "repl/report/html.h"
#include "repl/report/pgo.h"
#include "repl/report/trace.h"
#include "tests/support/process.h"

namespace {

namespace fs = std::filesystem;
namespace report = tessel::repl::report;
using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Helpers: a scratch directory, files, commands.

using tessel::testing::readText;
using tessel::testing::ScratchDir;

/// Runs `cmd` under sh; what it writes to stdout (callers add 2>&1 to see stderr too).
std::string shell(const std::string& cmd, int* status = nullptr) {
  tessel::testing::ShellResult r = tessel::testing::runShell(cmd);
  if (status) *status = r.status;
  return r.out;
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

struct PageRun {
  int status;
  std::string out, err, page;
};

PageRun renderReport(const std::vector<std::string>& args, const std::string& page = "") {
  std::ostringstream out, err;
  int status = tessel::repl::runReport(args, out, err);
  return {status, out.str(), err.str(), page.empty() ? "" : readText(page)};
}

PageRun renderReport(const std::string& traceDir, const std::string& page) {
  return renderReport({traceDir, "-o", page}, page);
}

// ---------------------------------------------------------------------------------------------
// The fixture: one process, every event kind, strings with < & " in them, two damaged lines.

json event(const char* kind, int64_t tUs, json fields = json::object()) {
  fields["event"] = kind;
  fields["t_us"] = tUs;
  fields["pid"] = 4242;
  return fields;
}

json compileEvent(const char* kind, int64_t tUs, const std::string& id,
                  json fields = json::object()) {
  size_t slash = id.find('/');
  fields["id"] = id;
  fields["frame_id"] = std::stoi(id.substr(0, slash));
  fields["compile"] = std::stoi(id.substr(slash + 1));
  return event(kind, tUs, std::move(fields));
}

json compileStart(int64_t tUs, const std::string& id, const char* frame, int line,
                  const char* reason = nullptr, json region = nullptr) {
  return compileEvent("compile_start", tUs, id,
                      {{"frame", frame},
                       {"file", "train.dsl"},
                       {"line", line},
                       {"region", region},
                       {"recompile", reason != nullptr},
                       {"reason", reason ? json(reason) : json()}});
}

json graph(int64_t tUs, const std::string& id, const std::string& code, json ops) {
  return compileEvent("graph", tUs, id,
                      {{"code", code},
                       {"ops", ops},
                       {"nodes", ops.size()},
                       {"inputs", 1},
                       {"outputs", 1},
                       {"backend", "cpu"}});
}

json compileEnd(int64_t tUs, const std::string& id, double ms) {
  return compileEvent("compile_end", tUs, id,
                      {{"ok", true},
                       {"compile_ms", ms},
                       {"trace_ms", ms / 2},
                       {"solver_ms", 0.5},
                       {"codegen_ms", 0.25},
                       {"solver_queries", 3},
                       {"guards", 2},
                       {"symbols", 0}});
}

json guard(int64_t tUs, const std::string& id, const char* text, const char* kind) {
  return compileEvent(
      "guard", tUs, id,
      {{"text", text}, {"kind", kind}, {"at", "train.dsl:3"}, {"code", "fn f(x, n) {"}});
}

/// f (0/*) compiles for x of 10 and 20 rows statically, then with the rows dynamic: three
/// similar graphs. step (1/*) breaks at a print, then compiles a region that specializes n.
/// bad (2/0) fails. f falls back; a profile is loaded, one is ignored, one saved.
std::vector<json> fixtureEvents() {
  const char* code =
      "%0: f32[10, 8] = input x\n%1: i32[] = constant 2\n%2 = mul(%0, %1) <cmp> & \"q\"\n"
      "%3: f32[] = sum(%2)\nreturn %3\n";
  json ops = {"mul", "sum"};
  // Dynamic, the size becomes a tensor with ops of its own: still similar (similarityOps).
  const char* dynamicCode =
      "%0: f32[s0, 8] = input x\n%1: i32[1] = arange(start=s0, stop=s0 + 1, step=1)\n"
      "%2: i32[] = reshape(%1, shape=[])\n%3 = mul(%0, %2) <cmp> & \"q\"\n%4: f32[] = sum(%3)\n"
      "return %4\n";
  return {
      event("start", 10,
            {{"schema", 1},
             {"rank", 0},
             {"argv", {"tessel", "--trace-dir", "t", "train.dsl"}},
             {"cwd", "/home/u"},
             {"wall_time", "2026-01-02T03:04:05Z"}}),
      event("pgo_ignored", 500, {{"path", "/c/pgo/b.json"}, {"why", "truncated <json>"}}),
      compileEvent("pgo_load", 900, "0/0",
                   {{"frame", "f"},
                    {"file", "train.dsl"},
                    {"line", 3},
                    {"path", "/c/pgo/a.json"},
                    {"sources", {{"x.shape[0]", "?"}, {"x.shape[1]", 8}, {"n", "?"}, {"m", 5}}}}),
      compileStart(1000, "0/0", "f", 3),
      guard(1100, "0/0", "x.shape[0] == 10", "static"),
      compileEvent("guard", 1110, "0/0",
                   {{"text", "G == 1"}, {"kind", "global"}, {"at", nullptr}, {"code", nullptr}}),
      graph(1200, "0/0", code, ops),
      compileEnd(3000, "0/0", 2.0),
      compileEvent("first_run", 3100, "0/0", {{"ms", 0.125}}),
      compileStart(5000, "0/1", "f", 3, "x.shape[0]: expected 10, got 20"),
      guard(5100, "0/1", "x.shape[0] == 20", "static"),
      graph(5200, "0/1", code, ops),
      compileEnd(6000, "0/1", 1.5),
      compileEvent("first_run", 6100, "0/1", {{"ms", 0.1}}),
      compileStart(7000, "0/2", "f", 3, "x.shape[0]: expected 20, got 30"),
      compileEvent("symbol", 7100, "0/2",
                   {{"symbol", "s0"},
                    {"source", "x.shape[0]"},
                    {"hint", 30},
                    {"range", {2, nullptr}},
                    {"unbacked", false},
                    {"at", "train.dsl:3"},
                    {"code", "fn f(x, n) {"}}),
      guard(7150, "0/2", "x.shape[0] >= 2", "range"),
      graph(7200, "0/2", dynamicCode, {"arange", "reshape", "mul", "sum"}),
      compileEnd(8000, "0/2", 3.0),
      compileEvent("run", 9000, "0/2", {{"calls", 2}}),
      compileEvent("run", 12000, "0/2", {{"calls", 4}}),
      compileStart(13000, "1/0", "step", 10),
      compileEvent("graph_break", 13500, "1/0",
                   {{"frame", "step"},
                    {"reason", "print() is a side effect"},
                    {"kind", "ValueError"},
                    {"at", "train.dsl:12:3"},
                    {"code", "  print(loss < 1 && ok)"}}),
      compileEvent("compile_end", 13600, "1/0", {{"ok", false}, {"break", true}}),
      compileStart(14000, "1/1", "step", 10, nullptr, {{"first_line", 11}, {"last_line", 11}}),
      compileEvent("specialization", 14100, "1/1",
                   {{"symbol", "s1"},
                    {"source", "n"},
                    {"value", 5},
                    {"reason", "n == 5"},
                    {"at", "train.dsl:11:7"},
                    {"code", "  for i in range(n) {"}}),
      graph(14200, "1/1", "%0 = input w\nreturn matmul(%0, %0)\n", {"matmul"}),
      compileEnd(15000, "1/1", 1.0),
      compileStart(16000, "2/0", "bad", 20),
      compileEvent("compile_end", 16500, "2/0",
                   {{"ok", false}, {"error", "TypeError: <tensor> & \"str\" cannot be added"}}),
      event("fallback", 17000, {{"frame_id", 0}, {"frame", "f"}, {"reason", "x.shape[1] == 8"}}),
      event("pgo_save", 18000, {{"path", "/c/pgo/a.json"}, {"frames", 2}}),
      event("frame_summary", 18500,
            {{"frame_id", 0},
             {"frame", "f"},
             {"file", "train.dsl"},
             {"line", 3},
             {"compiles", 3},
             {"cache_hits", 7},
             {"cache_misses", 3},
             {"recompiles", 2},
             {"graph_breaks", 0},
             {"fallbacks", 1}}),
      event("end", 19000),
  };
}

const char* kDamagedLines = "{\"event\":\"compile_start\",\"id\":\"9/9\",\"t_us\":19\nnot json\n";

/// Writes the fixture as DIR/tessel_trace_4242.jsonl, two damaged lines in the middle.
std::string writeFixture(const ScratchDir& dir, bool damaged = false) {
  std::string text;
  std::vector<json> events = fixtureEvents();
  for (size_t i = 0; i < events.size(); ++i) {
    text += events[i].dump() + "\n";
    if (damaged && i == 5) text += kDamagedLines;
  }
  dir.write("trace/tessel_trace_4242.jsonl", text);
  return dir.path() + "/trace";
}

report::Trace fixtureTrace() {
  std::stringstream in;
  for (const json& e : fixtureEvents()) in << e.dump() << "\n";
  report::Trace trace;
  trace.processes.push_back(report::readProcess("tessel_trace_4242.jsonl", in));
  return trace;
}

// ---------------------------------------------------------------------------------------------
// The page, without a browser.

TEST(ReportPage, HasEverySection) {
  ScratchDir dir;
  PageRun r = renderReport(writeFixture(dir), dir.path() + "/report.html");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + dir.path() + "/report.html"), std::string::npos) << r.out;
  const std::string& page = r.page;
  // Header: processes, frames (f, step, bad) and regions (step's), compiles, breaks, compile ms.
  EXPECT_NE(page.find("id=\"stat-processes\"><b>1</b>"), std::string::npos);
  EXPECT_NE(page.find("id=\"stat-frames\"><b>3</b>"), std::string::npos);
  EXPECT_NE(page.find("id=\"stat-regions\"><b>1</b>"), std::string::npos);
  EXPECT_NE(page.find("id=\"stat-compiles\"><b>6</b>"), std::string::npos);
  EXPECT_NE(page.find("id=\"stat-breaks\"><b>1</b>"), std::string::npos);
  EXPECT_NE(page.find("id=\"stat-compile-ms\"><b>7.5</b>"), std::string::npos);
  EXPECT_EQ(page.find("could not be read"), std::string::npos);
  // A row per compile id, in time order, each with its state.
  std::vector<std::string> rows = {"0/0", "0/1", "0/2", "1/0", "1/1", "2/0"};
  size_t last = 0;
  for (const std::string& id : rows) {
    size_t at = page.find("data-id=\"" + id + "\"");
    ASSERT_NE(at, std::string::npos) << id;
    EXPECT_GT(at, last) << id << " out of time order";
    last = at;
  }
  EXPECT_NE(page.find("class=\"compile break\" data-id=\"1/0\""), std::string::npos);
  EXPECT_NE(page.find("class=\"compile error\" data-id=\"2/0\""), std::string::npos);
  // Frame labels, reasons, guards with their lines, graphs, breaks, specializations, metrics.
  EXPECT_NE(page.find("step (train.dsl:10) region lines 11-11"), std::string::npos);
  EXPECT_NE(page.find("x.shape[0]: expected 10, got 20"), std::string::npos);
  EXPECT_NE(page.find("<code>x.shape[0] == 20</code>"), std::string::npos);
  EXPECT_NE(
      page.find("at <span title=\"train.dsl:3\">train.dsl:3</span>: <code>fn f(x, n) {</code>"),
      std::string::npos);
  EXPECT_NE(page.find("(no user line)"), std::string::npos);  // the global's guard
  EXPECT_NE(page.find("<details><summary>2 nodes, 1 in, 1 out, cpu</summary><pre>"),
            std::string::npos);
  EXPECT_NE(page.find("<details><summary>4 nodes, 1 in, 1 out, cpu</summary><pre>"),
            std::string::npos);
  EXPECT_NE(page.find("print() is a side effect"), std::string::npos);
  EXPECT_NE(page.find(">train.dsl:12:3</span>"), std::string::npos);
  EXPECT_NE(page.find("<b>5</b> by <code>n == 5</code>"), std::string::npos);
  EXPECT_NE(page.find("train.dsl:11:7</span>: <code>  for i in range(n) {</code>"),
            std::string::npos);
  EXPECT_NE(page.find("<div>compile 2.0 ms</div>"), std::string::npos);
  EXPECT_NE(page.find("<div>solver queries 3</div>"), std::string::npos);
  EXPECT_NE(page.find("<div>first run 0.125 ms</div>"), std::string::npos);
  // The timeline: a span per compile coloured by how it ended, runs, a break, a fallback.
  EXPECT_NE(page.find("<svg id=\"timeline\""), std::string::npos);
  EXPECT_EQ(count(page, "<rect class=\"span "), rows.size());
  EXPECT_EQ(count(page, "<rect class=\"span ok\""), 4u);
  EXPECT_NE(page.find("0/2 call 4 at 12.0 ms"), std::string::npos);
  EXPECT_NE(page.find("1/0 graph break at 13.5 ms"), std::string::npos);
  EXPECT_NE(page.find("fallback at 17.0 ms"), std::string::npos);
  EXPECT_NE(page.find("ms since the process opened its trace"), std::string::npos);
  // Frames, PGO, the script that marks the page rendered.
  EXPECT_NE(page.find("at exit: 3 compiles, 7 cache hits"), std::string::npos);
  EXPECT_NE(page.find("x: tensor size=[?, 8] stride=[8, 1]"), std::string::npos);
  EXPECT_NE(page.find("saved <code>/c/pgo/a.json</code> (2 frames)"), std::string::npos);
  EXPECT_NE(page.find("document.body.dataset.rendered = '1'"), std::string::npos);
  // Self-contained: nothing is fetched.
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
}

TEST(ReportPage, EscapesEveryTraceString) {
  ScratchDir dir;
  PageRun r = renderReport(writeFixture(dir), dir.path() + "/report.html");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* raw : {"<cmp>", "<tensor>", "<json>", "loss < 1 &&", "\"str\"", "\"q\""})
    EXPECT_EQ(r.page.find(raw), std::string::npos) << raw << " reached the page unescaped";
  EXPECT_NE(r.page.find("%2 = mul(%0, %1) &lt;cmp&gt; &amp; &quot;q&quot;"), std::string::npos);
  EXPECT_NE(r.page.find("TypeError: &lt;tensor&gt; &amp; &quot;str&quot; cannot be added"),
            std::string::npos);
  EXPECT_NE(r.page.find("print(loss &lt; 1 &amp;&amp; ok)"), std::string::npos);
  EXPECT_NE(r.page.find("truncated &lt;json&gt;"), std::string::npos);
  EXPECT_EQ(report::escapeHtml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
}

TEST(ReportPage, CountsDamagedLinesAndKeepsTheRest) {
  ScratchDir dir;
  std::string trace = writeFixture(dir, /*damaged=*/true);
  dir.write("trace/notes.txt", "not a trace, not read\n");
  PageRun r = renderReport(trace, dir.path() + "/report.html");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 lines could not be read"), std::string::npos) << r.out;
  EXPECT_NE(r.page.find("id=\"bad-lines\">2 lines could not be read"), std::string::npos);
  EXPECT_EQ(r.page.find("data-id=\"9/9\""), std::string::npos);
  EXPECT_NE(r.page.find("id=\"stat-compiles\"><b>6</b>"), std::string::npos);
}

TEST(ReportCommand, UsageAndInputErrors) {
  ScratchDir dir;
  fs::create_directories(dir.path() + "/empty");
  PageRun empty = renderReport(dir.path() + "/empty", dir.path() + "/r.html");
  EXPECT_EQ(empty.status, 1);
  EXPECT_NE(empty.err.find("no trace files (*.jsonl)"), std::string::npos) << empty.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/r.html"));
  EXPECT_EQ(renderReport({dir.path() + "/missing"}).status, 1);
  EXPECT_EQ(renderReport(std::vector<std::string>{}).status, 2);
  EXPECT_EQ(renderReport({"a", "b"}).status, 2);
  EXPECT_EQ(renderReport({dir.path(), "-o"}).status, 2);
  EXPECT_EQ(renderReport({dir.path(), "--bogus"}).status, 2);
  PageRun help = renderReport({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("usage: tessel report DIR [-o FILE]"), std::string::npos);
  PageRun unwritable = renderReport(writeFixture(dir), dir.path() + "/no/such/dir/r.html");
  EXPECT_EQ(unwritable.status, 1);
  EXPECT_NE(unwritable.err.find("cannot write"), std::string::npos) << unwritable.err;
}

TEST(ReportTrace, OddFieldsReadAsAbsent) {
  // Valid JSON with fields of the wrong type or size: read without throwing, and the page is
  // still written (bad input never reaches an assert).
  std::stringstream in(
      "{\"event\":\"compile_start\",\"id\":7,\"line\":\"x\",\"region\":[1,2],\"t_us\":-5}\n"
      "{\"event\":\"graph\",\"id\":\"0/0\",\"ops\":\"mul\",\"code\":5,\"inputs\":1e300}\n"
      "{\"event\":\"compile_end\",\"id\":\"0/0\",\"ok\":\"yes\",\"compile_ms\":\"fast\"}\n"
      "{\"event\":\"pgo_load\",\"sources\":{\"x.shape[99]\":\"?\",\"y.shape[3]\":1e19}}\n"
      "{\"event\":\"symbol\",\"range\":[null],\"hint\":{\"a\":1}}\n"
      "{\"event\":5}\n[1,2]\n{\"event\":\"run\",\"id\":\"0/0\",\"t_us\":1e300}\n");
  report::Process p = report::readProcess("odd.jsonl", in);
  EXPECT_EQ(p.badLines, 2);
  // "0/0", and "" for the events whose id is missing or not a string.
  ASSERT_EQ(p.compiles.size(), 2u);
  std::ostringstream page;
  report::Trace trace;
  trace.processes.push_back(std::move(p));
  report::writePage(trace, page);
  EXPECT_NE(page.str().find("</html>"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Frames and PGO.

TEST(ReportFrames, GroupsSimilarGraphsAndNamesTheSizesThatVary) {
  report::Trace trace = fixtureTrace();
  std::vector<report::FrameView> frames = report::framesOf(trace);
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[0].label, "f (train.dsl:3)");
  ASSERT_NE(frames[0].summary, nullptr);
  std::vector<report::SimilarGroup> groups = report::similarGroups(frames[0]);
  ASSERT_EQ(groups.size(), 1u);
  const report::SimilarGroup& g = groups[0];
  ASSERT_EQ(g.members.size(), 3u);
  // Static 10, static 20, then dynamic: x.shape[0] varies; the global G (seen once) does not.
  ASSERT_EQ(g.varying.size(), 1u);
  EXPECT_EQ(g.varying[0].source, "x.shape[0]");
  ASSERT_EQ(g.varying[0].seen.size(), 3u);
  EXPECT_EQ(g.varying[0].seen[0].value, "10");
  EXPECT_FALSE(g.varying[0].seen[1].dynamic);
  EXPECT_TRUE(g.varying[0].seen[2].dynamic);
  EXPECT_EQ(g.varying[0].seen[2].symbol, "s0");
  EXPECT_EQ(g.dynamicSourcesLine(), "TESSEL_DYNAMIC_SOURCES=x.shape[0]");
  EXPECT_EQ(g.summary(),
            "3 graphs (0/0, 0/1, 0/2) with the same 2 tensor ops and 1 input: sizes vary "
            "(x.shape[0]), "
            "so one dynamic graph could serve them all. Consider "
            "TESSEL_DYNAMIC_SOURCES=x.shape[0] or mark_dynamic(x, 0) before the call.");
  // step's whole-call compile broke (no graph) and its region is a frame of its own.
  EXPECT_EQ(frames[1].label, "step (train.dsl:10)");
  EXPECT_EQ(frames[2].label, "step (train.dsl:10) region lines 11-11");
  EXPECT_TRUE(report::similarGroups(frames[1]).empty());
  EXPECT_TRUE(report::similarGroups(frames[2]).empty());
}

TEST(ReportFrames, SameOpsWithNoSizeDifferenceSaySo) {
  // Two graphs alike whose guards agree on every size (a bool made the second): dynamic
  // shapes would not merge them, and the reason says why.
  std::stringstream in;
  for (const char* id : {"0/0", "0/1"}) {
    in << compileStart(1, id, "g", 3, id[2] == '1' ? "b: expected true, got false" : nullptr).dump()
       << "\n"
       << guard(2, id, "y.shape[0] == 4", "static").dump() << "\n"
       << graph(3, id, "%0: f32[4] = input y\n%1: f32[4] = add(%0, %0)\n", {"add"}).dump() << "\n";
  }
  report::Trace trace;
  trace.processes.push_back(report::readProcess("t.jsonl", in));
  std::vector<report::SimilarGroup> groups = report::similarGroups(report::framesOf(trace)[0]);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_TRUE(groups[0].varying.empty());
  EXPECT_EQ(groups[0].summary(),
            "2 graphs (0/0, 0/1) with the same 1 tensor op and 1 input: no size differs in their "
            "symbols or guards, so dynamic shapes will not merge them; compare their recompile "
            "reasons and guards (a global, a constant or a type may differ). 0/1 recompiled "
            "because of b (b: expected true, got false), which dynamic shapes do not cover.");
  EXPECT_EQ(groups[0].dynamicSourcesLine(), "");
}

TEST(ReportFrames, SimilarityIgnoresOpsThatOnlyComputeSizes) {
  report::GraphRecord staticGraph{
      "%0: f32[10] = input x\n%1: i32[] = constant 10\n"
      "%2: f32[10] = mul(%0, %1)\nreturn %2\n",
      {"mul"}};
  report::GraphRecord dynamicGraph{
      "%0: f32[s0] = input x\n%1: i32[1] = arange(start=s0, stop=s0 + 1, step=1, dtype=i32)\n"
      "%2: i32[] = reshape(%1, shape=[])\n%3: f32[s0] = mul(%0, %2)\nreturn %3\n",
      {"arange", "reshape", "mul"}};
  EXPECT_EQ(report::similarityOps(staticGraph), std::vector<std::string>{"mul"});
  EXPECT_EQ(report::similarityOps(dynamicGraph), std::vector<std::string>{"mul"});
  // Fused kernels by name; their bodies are not ops of the graph.
  report::GraphRecord fused{
      "%0: f32[4] = input x\n%1: f32[4] = fused(%0) {\n"
      "    $0: f32 = load %0\n    $1: f32 = mul($0, $0)\n  }\nreturn %1\n",
      {"fused[1]"}};
  EXPECT_EQ(report::similarityOps(fused), std::vector<std::string>{"fused"});
  // No op lines in the text: the event's ops.
  report::GraphRecord opaque{"(graph text elided)", {"add", "mul"}};
  EXPECT_EQ(report::similarityOps(opaque), (std::vector<std::string>{"add", "mul"}));

  EXPECT_EQ(report::reasonSource("x.shape[0]: expected 10, got 20"), "x.shape[0]");
  EXPECT_EQ(report::reasonSource("s0 <= 30 failed (s0 = 40 from x.shape[0])"), "x.shape[0]");
  EXPECT_EQ(report::reasonSource("globals changed"), "");
}

TEST(ReportPgo, RendersSourcesLikeTlparse) {
  std::vector<std::pair<std::string, std::string>> sources = {
      {"x.shape[0]", "?"}, {"x.shape[1]", "8"}, {"n", "?"},          {"m", "5"},
      {"y.shape[0]", "2"}, {"y.shape[1]", "?"}, {"y.shape[2]", "3"}, {"w.shape[0]", "6"}};
  std::vector<std::string> lines = report::renderPgoSources(sources);
  std::vector<std::string> expected = {
      "x: tensor size=[?, 8] stride=[8, 1]", "n: fully dynamic scalar", "m: scalar 5",
      "y: tensor size=[2, ?, 3] stride=[?, 3, 1]", "w: tensor size=[6] stride=[1]"};
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(report::dynamicSourcesAssignment(report::dynamicSourceNames(sources)),
            "TESSEL_DYNAMIC_SOURCES=x.shape[0],n,y.shape[1]");
  // Names a shell would mangle are quoted.
  EXPECT_EQ(report::dynamicSourcesAssignment({"p[0][\"w\"].shape[1]"}),
            "TESSEL_DYNAMIC_SOURCES='p[0][\"w\"].shape[1]'");
}

// ---------------------------------------------------------------------------------------------
// The page in a browser: headless Chromium renders it, runs its script and lays it out.

std::string findChromium() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
      if (access((dir + "/" + name).c_str(), X_OK) == 0) return dir + "/" + name;
  return "";
}

class Chromium {
 public:
  Chromium(std::string binary, const ScratchDir& dir)
      : binary_(std::move(binary)), profile_(dir.path() + "/chromium-profile") {}

  /// The DOM after load (scripts run), as Chromium serializes it.
  std::string dumpDom(const std::string& file) {
    return shell(command() + " --dump-dom 'file://" + file + "' 2>/dev/null");
  }

  /// A PNG of the page in a window of the given size; the command's output on failure.
  std::string screenshot(const std::string& file, const std::string& png, int w, int h) {
    int status;
    std::string out =
        shell(command() + " --hide-scrollbars --window-size=" + std::to_string(w) + "," +
                  std::to_string(h) + " --screenshot='" + png + "' 'file://" + file + "' 2>&1",
              &status);
    return status == 0 && fs::exists(png) ? "" : out;
  }

 private:
  std::string binary_, profile_;
  std::string command() const {
    // A private profile: tests running at once do not share Chromium's singleton lock.
    return "timeout 120 " + binary_ + " --headless --no-sandbox --disable-gpu --user-data-dir='" +
           profile_ + "'";
  }
};

/// Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian); {0, 0} if not a PNG.
std::pair<uint32_t, uint32_t> pngSize(const std::string& path) {
  std::string b = readText(path);
  if (b.size() < 24 || b.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || b.compare(12, 4, "IHDR") != 0)
    return {0, 0};
  auto be32 = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(b[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

int timelineWidth(const std::string& dom) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex("data-timeline-width=\"([0-9]+)\""))) return -1;
  return std::stoi(m[1]);
}

TEST(ReportBrowser, RendersLaysOutAndDraws) {
  std::string chromium = findChromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium not found: install it to run the page tests";
  ScratchDir dir;
  std::string page = dir.path() + "/report.html";
  ASSERT_EQ(renderReport(writeFixture(dir, true), page).status, 0);
  Chromium browser(chromium, dir);

  std::string dom = browser.dumpDom(page);
  EXPECT_NE(dom.find("data-rendered=\"1\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_GT(timelineWidth(dom), 500) << "the timeline was not laid out";
  for (const char* id : {"0/0", "0/1", "0/2", "1/0", "1/1", "2/0"})
    EXPECT_NE(dom.find(std::string("data-id=\"") + id + "\""), std::string::npos) << id;
  EXPECT_NE(dom.find("2 lines could not be read"), std::string::npos);

  // The screenshot has the window's size and holds more than a blank page's does.
  std::string blank = dir.write("blank.html", "<!DOCTYPE html><html><body></body></html>");
  std::string shot = dir.path() + "/report.png", blankShot = dir.path() + "/blank.png";
  ASSERT_EQ(browser.screenshot(page, shot, 1280, 2400), "");
  ASSERT_EQ(browser.screenshot(blank, blankShot, 1280, 2400), "");
  EXPECT_EQ(pngSize(shot), (std::pair<uint32_t, uint32_t>{1280, 2400}));
  EXPECT_GT(fs::file_size(shot), 3 * fs::file_size(blankShot))
      << "the page's screenshot is about as empty as a blank page's";
}

// ---------------------------------------------------------------------------------------------
// Real traces: `tessel --trace-dir` on the seeds' examples and on a training step with a graph
// break, then the page in Chromium with a row for every compile id of every process.

std::string tessel() {
  return std::string(TESSEL_BINARY_DIR) + "/repl/tessel";
}

/// Compile ids of a trace file, from its compile_start events.
std::vector<std::string> compileIds(const std::string& file) {
  std::vector<std::string> ids;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    json e = json::parse(line, nullptr, false);
    if (e.is_object() && e.value("event", "") == "compile_start") ids.push_back(e["id"]);
  }
  return ids;
}

TEST(ReportRealTrace, RowForEveryCompileOfEveryProcess) {
  if (shell(tessel() + " --help").find("--trace-dir") == std::string::npos)
    GTEST_SKIP() << "tessel has no --trace-dir yet";
  ScratchDir dir;
  std::string trace = dir.path() + "/trace";
  // PGO on (test binaries turn it off) in a cache of the test's own.
  std::string env = "TESSEL_PGO=1 TESSEL_CACHE_DIR='" + dir.path() + "/cache' ";
  std::string source = TESSEL_SOURCE_DIR;
  // The seeds' examples twice (the second run loads the first's PGO profile), then a training
  // step that logs its loss with .item(): a graph break and regions.
  for (const std::string& script :
       {source + "/examples/dynamic_shapes.dsl", source + "/examples/dynamic_shapes.dsl",
        source + "/tests/scripts/compile/break_training_log.dsl"}) {
    int status;
    std::string out =
        shell(env + tessel() + " --trace-dir '" + trace + "' '" + script + "' 2>&1", &status);
    EXPECT_EQ(status, 0) << script << ":\n"
                         << out.substr(out.size() > 3000 ? out.size() - 3000 : 0);
  }
  std::map<std::string, size_t> expectedRows;  // id -> how many processes compiled it
  size_t files = 0;
  for (const auto& f : fs::directory_iterator(trace)) {
    ++files;
    for (const std::string& id : compileIds(f.path())) ++expectedRows[id];
  }
  ASSERT_EQ(files, 3u);
  ASSERT_FALSE(expectedRows.empty());

  std::string page = dir.path() + "/report.html";
  PageRun r = renderReport(trace, page);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.page.find("id=\"stat-processes\"><b>3</b>"), std::string::npos);
  // The break, its regions, the PGO profile the second run loaded, similar static graphs.
  EXPECT_NE(r.page.find("class=\"compile break\""), std::string::npos);
  EXPECT_NE(r.page.find(" region lines "), std::string::npos);
  EXPECT_NE(r.page.find("x: tensor size=[?] stride=[1]"), std::string::npos);
  EXPECT_NE(r.page.find("4 graphs"), std::string::npos);
  EXPECT_NE(r.page.find("TESSEL_DYNAMIC_SOURCES=x.shape[0]"), std::string::npos);

  std::string chromium = findChromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium not found: the page was not opened";
  Chromium browser(chromium, dir);
  std::string dom = browser.dumpDom(page);
  EXPECT_NE(dom.find("data-rendered=\"1\""), std::string::npos);
  EXPECT_GT(timelineWidth(dom), 500);
  for (const auto& [id, n] : expectedRows) EXPECT_EQ(count(dom, "data-id=\"" + id + "\""), n) << id;
}

// Two compiled variants of one function: one lane each, told apart by their frame;
// the compile table sits in a box that scrolls sideways instead of widening the page.
TEST(ReportRealTrace, VariantsOfOneFunctionGetDistinctLanes) {
  if (shell(tessel() + " --help").find("--trace-dir") == std::string::npos)
    GTEST_SKIP() << "tessel has no --trace-dir yet";
  ScratchDir dir;
  std::string trace = dir.path() + "/trace";
  dir.write("v.dsl",
            "fn f(x) { return x * 2 }\n"
            "let a = compile(f)\n"
            "let b = compile(f, dynamic = true)\n"
            "for n in [2, 3] { a(ones([n])) }\n"
            "for n in [2, 3] { b(ones([n])) }\n");
  int status;
  std::string out = shell("TESSEL_PGO=0 " + tessel() + " --trace-dir '" + trace + "' '" +
                              dir.path() + "/v.dsl' 2>&1",
                          &status);
  ASSERT_EQ(status, 0) << out;
  PageRun r = renderReport(trace, dir.path() + "/report.html");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.page.find("f (v.dsl:1) [frame 0]"), std::string::npos);
  EXPECT_NE(r.page.find("f (v.dsl:1) [frame 1]"), std::string::npos);
  EXPECT_NE(r.page.find("<div class=\"table-box\">\n<table class=\"compiles\">"), std::string::npos);
}

// The similar-graphs advice is replayed before it is given, and followed here: a
// size that was static at each compile gets TESSEL_DYNAMIC_SOURCES, and following it compiles
// once; a size the program specializes (range(n) of a symbol) gets the line that does it, no
// source to mark.
TEST(ReportRealTrace, AdviceIsOnlyGivenWhereFollowingItHelps) {
  if (shell(tessel() + " --help").find("--trace-dir") == std::string::npos)
    GTEST_SKIP() << "tessel has no --trace-dir yet";
  ScratchDir dir;
  dir.write("static.dsl",
            "config.automatic_dynamic = false\n"
            "@compile\nfn f(x) { return x * 2 }\n"
            "for n in [2, 3, 4] { f(ones([n])) }\n"
            "print(\"compiles\", stats(f)[\"compiles\"])\n");
  dir.write("loop.dsl",
            "@compile(dynamic = true)\n"
            "fn g(x) {\n"
            "  let s = 0.0\n"
            "  for i in range(x.shape[0]) { s = s + 1.0 }\n"
            "  return x * s\n"
            "}\n"
            "for n in [2, 3, 4] { g(ones([n])) }\n");
  auto pageOf = [&](const std::string& script) {
    std::string trace = dir.path() + "/trace-" + script;
    int status;
    std::string out = shell("TESSEL_PGO=0 " + tessel() + " --trace-dir '" + trace + "' '" +
                                dir.path() + "/" + script + "' 2>&1",
                            &status);
    EXPECT_EQ(status, 0) << out;
    return renderReport(trace, dir.path() + "/" + script + ".html").page;
  };
  std::string advised = pageOf("static.dsl");
  ASSERT_NE(advised.find("TESSEL_DYNAMIC_SOURCES=x.shape[0]"), std::string::npos) << advised;
  int status;
  std::string followed = shell("TESSEL_PGO=0 TESSEL_DYNAMIC_SOURCES=x.shape[0] " + tessel() +
                                   " '" + dir.path() + "/static.dsl' 2>&1",
                               &status);
  EXPECT_EQ(followed, "compiles 1\n");
  std::string pinned = pageOf("loop.dsl");
  EXPECT_EQ(pinned.find("TESSEL_DYNAMIC_SOURCES"), std::string::npos);
  EXPECT_NE(pinned.find("x.shape[0] is specialized by the program at "), std::string::npos)
      << pinned;
  EXPECT_NE(pinned.find("loop.dsl:4"), std::string::npos);
}

}  // namespace
