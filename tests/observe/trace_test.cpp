// The structured compile trace (--trace-dir, TESSEL_TRACE; schema in docs/compile.md,
// "Structured trace"): every event kind, with the fields the schema promises, and a size that
// grows with compiles, not calls.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/observe/tessel_process.h"

namespace tessel::observe {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// One script that makes every kind of compile event but PGO's.
const char* kEventsScript = R"(@compile(dynamic = true)
fn spec(x) {
  if x.shape[0] == 4 { return x * 2 }
  return x + 1
}
spec(ones([4]))

@compile
fn grow(x) {
  return x * x.shape[0]
}
for n in [10, 20, 30] { grow(ones([n, 8])) }
for i in range(1000) { grow(ones([7, 8])) }

@compile
fn brk(x) {
  let y = x + 1
  print(y.shape[0])
  return y
}
brk(ones([3]))

config.recompile_limit = 1
@compile
fn lim(x, n) { return x + n }
lim(ones([2]), 1)
lim(ones([2]), 2)

let t = ones([5])
mark_dynamic(t, 0)
@compile
fn cv(x) {
  if x.shape[0] == 5 { return x }
  return x + 1
}
cv(t)
)";

// The events of every trace file in `dir`, in order per file.
std::vector<json> readTrace(const std::string& dir) {
  std::vector<json> events;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::istringstream lines(readText(e.path().string()));
    std::string line;
    while (std::getline(lines, line)) events.push_back(json::parse(line));
  }
  return events;
}

std::vector<json> ofKind(const std::vector<json>& events, const std::string& kind) {
  std::vector<json> out;
  for (const json& e : events)
    if (e["event"] == kind) out.push_back(e);
  return out;
}

// Every event of a compile has its id, frame id and compile number, consistently.
void expectCompileFields(const json& e) {
  ASSERT_TRUE(e.contains("id")) << e;
  EXPECT_EQ(e["id"], std::to_string(e["frame_id"].get<int>()) + "/" +
                         std::to_string(e["compile"].get<int>()))
      << e;
}

class Trace : public ::testing::Test {
 protected:
  ScratchDir dir;
};

TEST_F(Trace, EveryCompileEventKind) {
  dir.write("events.dsl", kEventsScript);
  ProcessResult r = runTessel("--trace-dir tr events.dsl", "", dir.path());
  EXPECT_EQ(r.status, 1) << r.out;  // the last call is a ConstraintViolation
  EXPECT_NE(r.out.find("ConstraintViolation"), std::string::npos) << r.out;
  std::vector<json> events = readTrace(dir.path() + "/tr");
  ASSERT_FALSE(events.empty());
  int64_t last = -1;
  for (const json& e : events) {
    EXPECT_TRUE(e["t_us"].is_number_integer()) << e;
    EXPECT_GE(e["t_us"].get<int64_t>(), last) << e;  // monotonic
    last = e["t_us"];
    EXPECT_TRUE(e["pid"].is_number_integer()) << e;
  }
  EXPECT_EQ(events.front()["event"], "start");
  EXPECT_EQ(events.front()["schema"], 1);
  EXPECT_EQ(events.front()["rank"], 0);
  EXPECT_EQ(events.front()["world_size"], 1);
  EXPECT_EQ(events.front()["argv"].back(), "events.dsl");
  EXPECT_EQ(events.back()["event"], "end");

  // compile_start: one per compile, with the frame's name and place, and why it recompiled.
  std::map<std::string, json> starts;
  for (const json& e : ofKind(events, "compile_start")) {
    expectCompileFields(e);
    starts[e["id"]] = e;
  }
  ASSERT_TRUE(starts.count("1/1"));
  EXPECT_EQ(starts["1/1"]["frame"], "grow");
  EXPECT_EQ(starts["1/1"]["file"], "events.dsl");
  EXPECT_EQ(starts["1/1"]["line"], 9);
  EXPECT_EQ(starts["1/1"]["recompile"], true);
  EXPECT_EQ(starts["1/1"]["reason"], "x.shape[0]: expected 10, got 20");
  EXPECT_TRUE(starts["1/0"]["reason"].is_null());
  EXPECT_TRUE(starts["1/0"]["region"].is_null());

  // symbol: grow's second compile made x.shape[0] a symbol with its hint and range.
  bool sawSymbol = false;
  for (const json& e : ofKind(events, "symbol")) {
    expectCompileFields(e);
    if (e["id"] == "1/1" && e["source"] == "x.shape[0]") {
      sawSymbol = true;
      EXPECT_EQ(e["symbol"], "s0");
      EXPECT_EQ(e["hint"], 20);
      EXPECT_EQ(e["range"], json::parse("[2, null]"));
      EXPECT_EQ(e["unbacked"], false);
      EXPECT_EQ(e["at"], "events.dsl:9");
    }
  }
  EXPECT_TRUE(sawSymbol);

  // specialization: `x.shape[0] == 4` at line 3 forced spec's dynamic size to 4.
  std::vector<json> specs = ofKind(events, "specialization");
  ASSERT_EQ(specs.size(), 2u);  // spec's, and cv's (the ConstraintViolation)
  EXPECT_EQ(specs[0]["id"], "0/0");
  EXPECT_EQ(specs[0]["source"], "x.shape[0]");
  EXPECT_EQ(specs[0]["value"], 4);
  EXPECT_EQ(specs[0]["at"], "events.dsl:3:6");
  EXPECT_EQ(specs[0]["code"], "  if x.shape[0] == 4 { return x * 2 }");

  // guard: with its user line, and its kind.
  bool sawGuard = false;
  for (const json& e : ofKind(events, "guard")) {
    expectCompileFields(e);
    if (e["id"] == "0/0" && e["text"] == "x.shape[0] == 4") {
      sawGuard = true;
      EXPECT_EQ(e["at"], "events.dsl:3:6");
    }
  }
  EXPECT_TRUE(sawGuard);

  // graph: the code, the ops in order, and the backend.
  bool sawGraph = false;
  std::map<std::string, json> tensorOps;
  for (const json& e : ofKind(events, "graph")) tensorOps[e["id"]] = e["tensor_ops"];
  // grow's static and dynamic graphs are "similar": the dynamic one's arange/reshape only turn
  // x.shape[0] into a tensor.
  EXPECT_EQ(tensorOps["1/0"], json::parse(R"(["mul"])"));
  EXPECT_EQ(tensorOps["1/1"], json::parse(R"(["mul"])"));
  for (const json& e : ofKind(events, "graph"))
    if (e["id"] == "1/1") {
      sawGraph = true;
      EXPECT_EQ(e["ops"], json::parse(R"(["arange", "reshape", "mul"])"));
      EXPECT_NE(e["code"].get<std::string>().find("mul("), std::string::npos);
      EXPECT_EQ(e["backend"], "cpu");
      EXPECT_EQ(e["inputs"], 1);
      EXPECT_EQ(e["outputs"], 1);
    }
  EXPECT_TRUE(sawGraph);

  // graph_break: brk's whole-call trace broke at the print, then its regions compiled.
  std::vector<json> breaks = ofKind(events, "graph_break");
  ASSERT_EQ(breaks.size(), 1u);
  EXPECT_EQ(breaks[0]["frame"], "brk");
  EXPECT_EQ(breaks[0]["at"], "events.dsl:18:3");
  EXPECT_EQ(breaks[0]["code"], "  print(y.shape[0])");
  EXPECT_EQ(breaks[0]["kind"], "ValueError");
  std::string brkId = breaks[0]["id"];
  std::set<std::string> regionLines;
  for (auto& [id, e] : starts)
    if (e["frame"] == "brk" && !e["region"].is_null())
      regionLines.insert(std::to_string(e["region"]["first_line"].get<int>()) + "-" +
                         std::to_string(e["region"]["last_line"].get<int>()));
  EXPECT_EQ(regionLines, (std::set<std::string>{"17-17", "19-19"}));

  // compile_end: timings for each good compile; a break or an error for the others.
  int ok = 0;
  bool sawBreakEnd = false, sawError = false;
  for (const json& e : ofKind(events, "compile_end")) {
    expectCompileFields(e);
    if (e["ok"] == true) {
      ++ok;
      for (const char* k : {"compile_ms", "trace_ms", "solver_ms", "codegen_ms"})
        EXPECT_GE(e[k].get<double>(), 0.0) << k;
      EXPECT_TRUE(e["solver_queries"].is_number_integer());
    } else if (e.value("break", false)) {
      sawBreakEnd = e["id"] == brkId;
    } else {
      sawError = e["error"].get<std::string>().rfind("ConstraintViolation: ", 0) == 0;
    }
  }
  EXPECT_EQ(ok, 6);  // spec 1, grow 2, brk's regions 2, lim 1
  EXPECT_TRUE(sawBreakEnd);
  EXPECT_TRUE(sawError);

  // first_run for every good compile; runs sampled at powers of two: grow's dynamic entry ran
  // 1002 times (20, 30, then 1000 of 7), so 1, 2, 4, ..., 512.
  EXPECT_EQ(ofKind(events, "first_run").size(), 6u);
  std::vector<int64_t> calls;
  for (const json& e : ofKind(events, "run"))
    if (e["id"] == "1/1") calls.push_back(e["calls"]);
  EXPECT_EQ(calls, (std::vector<int64_t>{2, 4, 8, 16, 32, 64, 128, 256, 512}));

  // fallback: lim reached recompile_limit = 1.
  std::vector<json> fallbacks = ofKind(events, "fallback");
  ASSERT_EQ(fallbacks.size(), 1u);
  EXPECT_EQ(fallbacks[0]["frame"], "lim");
  EXPECT_EQ(fallbacks[0]["reason"], "n: expected 1, got 2");
  EXPECT_TRUE(fallbacks[0]["region"].is_null());

  // frame_summary: one per frame, with its counters.
  std::map<std::string, json> summaries;
  for (const json& e : ofKind(events, "frame_summary")) summaries[e["frame"]] = e;
  EXPECT_EQ(summaries.size(), 5u);
  EXPECT_EQ(summaries["grow"]["compiles"], 2);
  EXPECT_EQ(summaries["grow"]["cache_hits"], 1001);
  EXPECT_EQ(summaries["brk"]["graph_breaks"], 1);
  EXPECT_EQ(summaries["lim"]["fallbacks"], 1);
}

TEST_F(Trace, PgoLoadsSavesAndIgnoredProfiles) {
  dir.write("f.dsl", "@compile\nfn f(x) { return x * x.shape[0] }\n"
                     "for n in [10, 20] { f(ones([n])) }\n");
  std::string env = "TESSEL_PGO=1 TESSEL_CACHE_DIR=" + dir.path() + "/cache TESSEL_TRACE=";
  ASSERT_EQ(runTessel("f.dsl", env + "tr1", dir.path()).status, 0);
  ASSERT_EQ(runTessel("f.dsl", env + "tr2", dir.path()).status, 0);
  std::vector<json> first = readTrace(dir.path() + "/tr1");
  std::vector<json> second = readTrace(dir.path() + "/tr2");
  EXPECT_TRUE(ofKind(first, "pgo_load").empty());
  std::vector<json> saves = ofKind(first, "pgo_save");
  ASSERT_EQ(saves.size(), 1u);
  EXPECT_EQ(saves[0]["frames"], 1);
  std::string profile = saves[0]["path"];
  std::vector<json> loads = ofKind(second, "pgo_load");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0]["id"], "0/0");
  EXPECT_EQ(loads[0]["frame"], "f");
  EXPECT_EQ(loads[0]["path"], profile);
  EXPECT_EQ(loads[0]["sources"], json::parse(R"({"x.shape[0]": "?"})"));

  std::ofstream(profile) << "{ damaged";
  ASSERT_EQ(runTessel("f.dsl", env + "tr3", dir.path()).status, 0);
  std::vector<json> ignored = ofKind(readTrace(dir.path() + "/tr3"), "pgo_ignored");
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_EQ(ignored[0]["path"], profile);
  EXPECT_NE(ignored[0]["why"].get<std::string>().find("not valid JSON"), std::string::npos);
}

TEST_F(Trace, GrowsWithCompilesNotCalls) {
  dir.write("loop.dsl", "@compile\nfn f(x) { return x + 1 }\n"
                        "for i in range(10000) { f(ones([4])) }\n");
  ASSERT_EQ(runTessel("--trace-dir=tr loop.dsl", "", dir.path()).status, 0);
  std::vector<json> events = readTrace(dir.path() + "/tr");
  // start, one compile (start, symbols, guards, graph, end, first run), 13 sampled runs
  // (2 .. 8192), the frame's summary, end.
  EXPECT_LT(events.size(), 30u);
  EXPECT_EQ(ofKind(events, "run").size(), 13u);
}

TEST_F(Trace, OffWritesNothing) {
  dir.write("f.dsl", "@compile\nfn f(x) { return x + 1 }\nf(ones([4]))\n");
  ASSERT_EQ(runTessel("f.dsl", "", dir.path()).status, 0);
  EXPECT_FALSE(fs::exists(dir.path() + "/tr"));
  ProcessResult bad = runTessel("--trace-dir", "", dir.path());
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("--trace-dir needs a value"), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace tessel::observe
