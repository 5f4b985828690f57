// What tools ask of the API (tessel.h, "For tools"; docs/embedding.md, "Tools: REPLs,
// notebooks, editors"): whole-program runs, reset, completion and help, rich display, compiled
// function reports, PGO profiles and the errors a REPL renders. The `tessel` command and the
// Jupyter kernel are built on these alone; their own tests (tests/repl, tests/kernel) cover them
// end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tessel/tessel.h"
#include "tests/support/process.h"

namespace {

using tessel::Error;
using tessel::Interpreter;
using tessel::Options;
using tessel::Value;

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(Tools, ExecRunsAProgramAndDropsTheFinalValue) {
  std::string printed;
  Options o;
  o.output = [&](std::string_view s) { printed += s; };
  Interpreter vm(o);
  vm.exec("let a = 2\nprint(a + 1)\na * 10");
  EXPECT_EQ(printed, "3\n");
  EXPECT_EQ(vm.get("a").asInt(), 2);
  EXPECT_EQ(vm.run("a * 10").asInt(), 20);
  try {
    vm.exec("let b = 1\nb + \"x\"", "prog");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_EQ(e.file(), "prog");
    EXPECT_EQ(e.line(), 2);
  }
}

TEST(Tools, ResetForgetsTheGlobals) {
  Interpreter vm;
  vm.run("let kept = 1");
  EXPECT_TRUE(contains(vm.globalNames(), "kept"));
  vm.reset();
  EXPECT_FALSE(contains(vm.globalNames(), "kept"));
  EXPECT_TRUE(contains(vm.globalNames(), "print"));
  EXPECT_TRUE(vm.get("args").isList());
}

TEST(Tools, LookupReadsBoundNamesOnly) {
  Interpreter vm;
  vm.run("let t = ones([2, 3])\nfn f() { return 1 }");
  std::optional<Value> shape = vm.lookup("t.shape");
  ASSERT_TRUE(shape.has_value());
  EXPECT_EQ(shape->repr(), "shape([2, 3])");
  EXPECT_DOUBLE_EQ(vm.lookup("math.pi")->asFloat(), 3.141592653589793);
  EXPECT_FALSE(vm.lookup("no_such_name").has_value());
  EXPECT_FALSE(vm.lookup("t.no_such_property").has_value());
  EXPECT_FALSE(vm.lookup("f.x").has_value());  // a function has no members to read
}

TEST(Tools, AttributesHelpAndSummaries) {
  Interpreter vm;
  Value xs = vm.run("[1, 2]");
  EXPECT_TRUE(contains(xs.attributeNames(), "append"));
  EXPECT_NE(vm.help(*vm.lookup("len")).find("len("), std::string::npos);
  EXPECT_EQ(vm.docSummary("softmax").rfind("softmax(x, dim = -1): ", 0), 0u);
  EXPECT_EQ(vm.docSummary(Value("s"), "zfill").rfind("str.zfill(width): ", 0), 0u);
  EXPECT_EQ(vm.docSummary("no_such_name"), "");
  EXPECT_NE(vm.referenceMarkdown().find("softmax"), std::string::npos);
}

TEST(Tools, IncompleteInput) {
  EXPECT_TRUE(tessel::isIncomplete("print(1,"));
  EXPECT_TRUE(tessel::isIncomplete("let x = [1,\n2"));
  EXPECT_FALSE(tessel::isIncomplete("print(1)"));
}

TEST(Tools, CompiledFunctionReports) {
  Interpreter vm;
  vm.run("@compile\nfn f(t) { return (t * 2).sum() }\nf(ones([3]))");
  using View = Interpreter::CompiledView;
  std::optional<std::string> guards = vm.describeCompiled(vm.get("f"), View::Guards);
  std::optional<std::string> graphs = vm.describeCompiled(vm.get("f"), View::Graphs);
  ASSERT_TRUE(guards && graphs);
  EXPECT_FALSE(guards->empty());
  EXPECT_FALSE(graphs->empty());
  EXPECT_FALSE(vm.describeCompiled(Value(1), View::Guards).has_value());
}

TEST(Tools, MimeBundleOfATensor) {
  Interpreter vm;
  auto bundle = vm.mimeBundle(vm.run("ones([2, 3])"));
  ASSERT_GE(bundle.size(), 2u);
  EXPECT_EQ(bundle[0].first, "text/plain");
  EXPECT_EQ(bundle[1].first, "text/html");
  EXPECT_NE(bundle[1].second.find("shape [2, 3] &middot; f32 &middot; cpu"), std::string::npos);
  EXPECT_EQ(vm.mimeBundle(Value(5)),
            (std::vector<std::pair<std::string, std::string>>{{"text/plain", "5"}}));
}

TEST(Tools, DisplayCallbacksComeAfterTheTextBeforeThem) {
  std::vector<std::string> events;
  Options o;
  o.output = [&](std::string_view s) { events.push_back("text " + std::string(s)); };
  o.display = [&](const Value& v) { events.push_back("value " + v.repr()); };
  o.updatableDisplay = [&](std::string_view, std::string_view, bool first) {
    if (first) events.push_back("bar");
  };
  Interpreter vm(o);
  vm.run("print(\"a\", end = \"\")\ndisplay(5)\nfor i in progress(range(3)) { }");
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events[0], "text a");
  EXPECT_EQ(events[1], "value 5");
  EXPECT_EQ(events[2], "bar");
}

TEST(Tools, ExitAndColoredDiagnostics) {
  Interpreter vm;
  try {
    vm.run("exit(3)");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "SystemExit");
    EXPECT_EQ(e.exitStatus(), 3);
  }
  try {
    vm.run("1 + \"a\"");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exitStatus(), 0);
    EXPECT_NE(e.coloredDiagnostic().find("\033["), std::string::npos);
    EXPECT_EQ(std::string(e.what()).find("\033["), std::string::npos);
  }
}

TEST(Tools, PgoProfiles) {
  tessel::testing::ScratchDir dir;
  EXPECT_EQ(tessel::pgo::profilePath("<stdin>"), "");
  std::string script = dir.write("s.dsl", "print(1)\n");
  EXPECT_EQ(tessel::pgo::profilePath(script).rfind(tessel::pgo::profileDir(), 0), 0u);
  std::string bad = dir.write("bad.json", "not json");
  try {
    tessel::pgo::readProfile(bad);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_FALSE(e.message().empty());
  }
}

}  // namespace
