// Completion, commands and the history file, in process (no terminal needed).
#include "repl/repl_completion.h"

#include <gtest/gtest.h>
#include <tessel/tessel.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "repl/repl_commands.h"
#include "repl/repl_history.h"
#include "tests/repl/pty_session.h"

namespace {

using tessel::repl::completeInput;
using tessel::repl::Completion;

bool has(const Completion& c, const std::string& name) {
  return std::find(c.candidates.begin(), c.candidates.end(), name) != c.candidates.end();
}

class CompletionTest : public ::testing::Test {
 protected:
  tessel::Interpreter interp_;
  void run(const std::string& code) { interp_.run(code, "<test>"); }
};

TEST_F(CompletionTest, GlobalsPreludeAndKeywords) {
  run("let alpha_one = 1\nlet alpha_two = 2");
  Completion c = completeInput(interp_, "print(alpha_");
  EXPECT_EQ(c.start, 6u);
  EXPECT_EQ(c.candidates, (std::vector<std::string>{"alpha_one", "alpha_two"}));
  EXPECT_TRUE(has(completeInput(interp_, "pri"), "print"));
  EXPECT_TRUE(has(completeInput(interp_, "whi"), "while"));
  EXPECT_TRUE(has(completeInput(interp_, "x = le"), "len"));
}

TEST_F(CompletionTest, MethodsAfterDot) {
  run("let s = \"abc\"\nlet xs = [1]\nlet d = {\"k\": 1}");
  Completion c = completeInput(interp_, "s.st");
  EXPECT_EQ(c.start, 2u);
  EXPECT_TRUE(has(c, "startswith"));
  EXPECT_TRUE(has(c, "strip"));
  EXPECT_FALSE(has(c, "append"));
  EXPECT_TRUE(has(completeInput(interp_, "xs.app"), "append"));
  EXPECT_TRUE(has(completeInput(interp_, "d."), "keys"));
  // Only methods the interpreter really has are offered.
  for (const std::string& name : completeInput(interp_, "xs.").candidates)
    EXPECT_NO_THROW(interp_.run("xs." + name)) << name;
}

TEST_F(CompletionTest, DictKeysInsideTheBrackets) {
  run("let cfg = {\"lr\": 0.1, \"layers\": 2, \"seed\": 1}\nlet xs = [1]");
  Completion c = completeInput(interp_, "print(cfg[\"l");
  EXPECT_EQ(c.start, 11u);
  EXPECT_EQ(c.candidates, (std::vector<std::string>{"layers", "lr"}));
  EXPECT_EQ(completeInput(interp_, "cfg['s").candidates, std::vector<std::string>{"seed"});
  EXPECT_TRUE(completeInput(interp_, "xs[\"").candidates.empty());   // not a dict
  EXPECT_TRUE(completeInput(interp_, "cfg[\"lr\"] + \"l").candidates.empty());  // a plain string
}

// What the Jupyter kernel's inspect_request shows: help() of the name at the cursor.
TEST_F(CompletionTest, HelpAtCursor) {
  run("let t = ones([2])\nimport nn");
  using tessel::repl::helpAtCursor;
  EXPECT_NE(helpAtCursor(interp_, "print", 2).find("print(*values"), std::string::npos);
  EXPECT_NE(helpAtCursor(interp_, "x = len(", 8).find("len("), std::string::npos);
  EXPECT_NE(helpAtCursor(interp_, "math.sqrt", 9).find("sqrt"), std::string::npos);
  EXPECT_NE(helpAtCursor(interp_, "t.sum()", 3).find("sum("), std::string::npos);  // a method
  EXPECT_EQ(helpAtCursor(interp_, "no_such_name", 3), "");
  EXPECT_EQ(helpAtCursor(interp_, "1 + 2", 2), "");
  EXPECT_EQ(helpAtCursor(interp_, "", 0), "");
}

// Tab on a complete name shows its signature and first sentence: the docs help() prints.
TEST_F(CompletionTest, ACompleteNameShowsItsDoc) {
  run("let s = \"x\"\n# Adds one.\nfn inc(n) { return n + 1 }\n");
  EXPECT_EQ(completeInput(interp_, "softmax").doc,
            "softmax(x, dim = -1): `exp(x) / sum(exp(x), dim)`, subtracting the maximum first "
            "(any magnitude works).");
  EXPECT_EQ(completeInput(interp_, "s.zfill").doc,
            "str.zfill(width): The string padded on the left with zeros to `width` characters, "
            "after a sign if any.");
  EXPECT_EQ(completeInput(interp_, "math.pi").doc, "math.pi: float: 3.141592653589793.");
  EXPECT_EQ(completeInput(interp_, "inc").doc, "inc(n): Adds one.");
  EXPECT_EQ(completeInput(interp_, "soft").doc, "");  // not complete yet: no doc
}

TEST_F(CompletionTest, NothingForUnknownObjectsStringsAndNumbers) {
  EXPECT_TRUE(completeInput(interp_, "nosuch.x").candidates.empty());
  EXPECT_TRUE(completeInput(interp_, "f().x").candidates.empty());  // calls are never made
  EXPECT_TRUE(completeInput(interp_, "print(\"pri").candidates.empty());
  EXPECT_TRUE(completeInput(interp_, "1.5").candidates.empty());
  EXPECT_TRUE(completeInput(interp_, "").candidates.empty());
}

TEST_F(CompletionTest, CommandsAndTheirExpressions) {
  Completion c = completeInput(interp_, ":t");
  EXPECT_EQ(c.candidates, (std::vector<std::string>{":time", ":type"}));
  run("let gamma_value = 3");
  Completion e = completeInput(interp_, ":type gamma_");
  EXPECT_EQ(e.start, 6u);
  EXPECT_EQ(e.candidates, (std::vector<std::string>{"gamma_value"}));
}

TEST_F(CompletionTest, ResetForgetsCompletions) {
  run("let zeta_value = 3");
  EXPECT_TRUE(has(completeInput(interp_, "zeta_"), "zeta_value"));
  interp_.reset();
  EXPECT_FALSE(has(completeInput(interp_, "zeta_"), "zeta_value"));
}

TEST(ReplCommands, ParsingAndNames) {
  using namespace tessel::repl;
  EXPECT_TRUE(isCommand("  :help"));
  EXPECT_FALSE(isCommand("x = 1"));
  EXPECT_TRUE(commandTakesExpression(":type [1,"));
  EXPECT_TRUE(commandTakesExpression(":ti 1"));  // unique prefix
  EXPECT_FALSE(commandTakesExpression(":load f.dsl"));
  EXPECT_EQ(commandArgument(":load   a b.dsl  "), "a b.dsl");
  std::vector<std::string> names = commandNames();
  for (const char* n : {"help", "quit", "load", "reset", "type", "time"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_NE(helpText().find(":time EXPR"), std::string::npos);
}

TEST(ReplHistory, AppendsAndLoadsTheLastEntries) {
  tessel::testing::TempDir dir;
  std::string path = dir.path() + "/sub/history";
  tessel::repl::HistoryFile h(path);
  EXPECT_TRUE(h.load(10).empty());
  for (int i = 0; i < 25; ++i) h.append("line " + std::to_string(i));
  std::vector<std::string> last = h.load(10);
  ASSERT_EQ(last.size(), 10u);
  EXPECT_EQ(last.front(), "line 15");
  EXPECT_EQ(last.back(), "line 24");
  // Loading trimmed the file, which had grown past twice the limit.
  EXPECT_EQ(tessel::repl::HistoryFile(path).load(100).size(), 10u);
}

TEST(ReplHistory, PathFromEnvironment) {
  setenv("TESSEL_CACHE_DIR", "/some/cache", 1);
  EXPECT_EQ(tessel::repl::HistoryFile::defaultPath(), "/some/cache/history");
  unsetenv("TESSEL_CACHE_DIR");
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(tessel::repl::HistoryFile::defaultPath(), "/home/someone/.cache/tessel/history");
}

}  // namespace
