// The interactive REPL through a real pseudo-terminal: echo, multi-line input, errors,
// commands, completion, Ctrl-C and Ctrl-D, and the history file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/repl/pty_session.h"

namespace {

using tessel::testing::PtySession;
using tessel::testing::TempDir;

// Prompts are matched at the start of a line: libedit redraws the line being edited (with the
// prompt) after a history recall or completion.
constexpr const char* kPrompt = "\n>>> ";
constexpr const char* kMore = "\n... ";

// A started REPL at its first prompt.
class ReplPty : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(home_.path().empty());
    repl_ = std::make_unique<PtySession>(home_.path());
    ASSERT_TRUE(repl_->started());
    ASSERT_TRUE(repl_->expect(kPrompt)) << repl_->output();
  }
  // Types a line and waits for the next prompt; returns what was printed in between.
  std::string run(const std::string& line) {
    repl_->sendLine(line);
    std::string before = repl_->rest();
    size_t mark = repl_->output().size() - before.size();
    EXPECT_TRUE(repl_->expect(kPrompt)) << "no prompt after '" << line << "':\n" << repl_->output();
    std::string all = repl_->output();
    size_t end = all.rfind(kPrompt) + 1;  // keep the newline before the prompt
    return all.substr(mark, end > mark ? end - mark : 0);
  }
  std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  TempDir home_;
  std::unique_ptr<PtySession> repl_;
};

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_F(ReplPty, EchoesExpressionValues) {
  EXPECT_TRUE(contains(run("6 * 7"), "42\r\n"));
  EXPECT_TRUE(contains(run("\"a\" + \"b\""), "\"ab\"\r\n"));
  std::string none = run("let x = 5");
  EXPECT_FALSE(contains(none, "none")) << none;
}

TEST_F(ReplPty, MultiLineFunctionThenCall) {
  repl_->sendLine("fn twice(a) {");
  ASSERT_TRUE(repl_->expect(kMore)) << repl_->output();
  repl_->sendLine("  return a * 2");
  ASSERT_TRUE(repl_->expect(kMore)) << repl_->output();
  repl_->sendLine("}");
  ASSERT_TRUE(repl_->expect(kPrompt)) << repl_->output();
  EXPECT_TRUE(contains(run("twice(21)"), "42\r\n"));
}

TEST_F(ReplPty, ErrorKeepsSessionAlive) {
  std::string err = run("undefined_name + 1");
  EXPECT_TRUE(contains(err, "NameError")) << err;
  EXPECT_TRUE(contains(err, "^")) << err;
  EXPECT_TRUE(contains(run("1 + 1"), "2\r\n"));
}

TEST_F(ReplPty, TypeCommand) {
  EXPECT_TRUE(contains(run(":type 1.5"), "float\r\n"));
  EXPECT_TRUE(contains(run(":type [1, 2]"), "list\r\n"));
}

TEST_F(ReplPty, TimeCommand) {
  std::string out = run(":time 20 + 22");
  EXPECT_TRUE(contains(out, "42\r\n")) << out;
  EXPECT_TRUE(contains(out, "time: ")) << out;
}

TEST_F(ReplPty, LoadKeepsDefinitions) {
  std::string file = home_.path() + "/lib.dsl";
  std::ofstream(file) << "let loaded_value = 7\nfn triple(x) { return 3 * x }\nprint(\"loaded\")\n";
  EXPECT_TRUE(contains(run(":load " + file), "loaded\r\n"));
  EXPECT_TRUE(contains(run("triple(loaded_value)"), "21\r\n"));
  EXPECT_TRUE(contains(run(":load /nonexistent/nope.dsl"), "cannot open"));
}

TEST_F(ReplPty, ResetForgetsGlobals) {
  run("let kept = 1");
  EXPECT_TRUE(contains(run("kept"), "1\r\n"));
  run(":reset");
  EXPECT_TRUE(contains(run("kept"), "NameError"));
}

TEST_F(ReplPty, UnknownCommandIsReported) {
  EXPECT_TRUE(contains(run(":frobnicate"), "unknown command ':frobnicate'"));
  EXPECT_TRUE(contains(run(":help"), ":load FILE"));
}

TEST_F(ReplPty, TabCompletesGlobal) {
  run("let unusual_global_name = 314");
  repl_->send("unusual_gl\t");
  repl_->sendLine("");
  EXPECT_TRUE(repl_->expect("314\r")) << repl_->output();
  EXPECT_TRUE(repl_->expect(kPrompt));
}

TEST_F(ReplPty, TabCompletesMethodAfterDot) {
  run("let word = \"shout\"");
  repl_->send("word.upp\t");
  repl_->sendLine("()");
  EXPECT_TRUE(repl_->expect("\"SHOUT\"\r")) << repl_->output();
  EXPECT_TRUE(repl_->expect(kPrompt));
}

TEST_F(ReplPty, CtrlCInterruptsComputation) {
  run("let alive = 99");
  repl_->sendLine("while true {}");
  repl_->drain(0.3);
  bool interrupted = false;
  for (int i = 0; i < 10 && !interrupted; ++i) {  // retry: the first ^C may beat the loop's start
    repl_->send("\x03");
    interrupted = repl_->expect("Interrupted", 1.0);
  }
  ASSERT_TRUE(interrupted) << repl_->output();
  ASSERT_TRUE(repl_->expect(kPrompt)) << repl_->output();
  EXPECT_TRUE(contains(run("alive"), "99\r\n"));
}

TEST_F(ReplPty, CtrlCAtPromptDoesNotQuit) {
  repl_->send("half typed");
  repl_->drain(0.2);
  repl_->send("\x03");
  ASSERT_TRUE(repl_->expect(kPrompt)) << repl_->output();
  repl_->send("\x03");
  ASSERT_TRUE(repl_->expect(kPrompt)) << repl_->output();
  EXPECT_TRUE(contains(run("3 + 4"), "7\r\n"));  // the discarded text is not run
}

TEST_F(ReplPty, CtrlCDiscardsContinuation) {
  repl_->sendLine("[1,");
  ASSERT_TRUE(repl_->expect(kMore)) << repl_->output();
  repl_->send("\x03");
  ASSERT_TRUE(repl_->expect(kPrompt)) << repl_->output();
  EXPECT_TRUE(contains(run("5"), "5\r\n"));
}

TEST_F(ReplPty, CtrlDQuitsWithStatusZero) {
  repl_->send("\x04");
  EXPECT_EQ(repl_->waitExit(), 0) << repl_->output();
}

TEST_F(ReplPty, QuitCommandAndExitStatus) {
  repl_->sendLine(":quit");
  EXPECT_EQ(repl_->waitExit(), 0) << repl_->output();
}

TEST_F(ReplPty, ExitBuiltinSetsStatus) {
  repl_->sendLine("exit(4)");
  EXPECT_EQ(repl_->waitExit(), 4) << repl_->output();
}

TEST_F(ReplPty, HistoryFileWrittenAndReloaded) {
  run("let remembered = 12345");
  repl_->sendLine(":quit");
  ASSERT_EQ(repl_->waitExit(), 0);
  std::string history = readFile(home_.path() + "/history");
  EXPECT_TRUE(contains(history, "let remembered = 12345\n")) << history;

  // A new session recalls it with the Up arrow.
  repl_ = std::make_unique<PtySession>(home_.path());
  ASSERT_TRUE(repl_->expect(kPrompt));
  repl_->send("\x1b[A");  // Up: ":quit"
  repl_->send("\x1b[A");  // Up: the let
  repl_->sendLine("");
  ASSERT_TRUE(repl_->expect(kPrompt));
  EXPECT_TRUE(contains(run("remembered"), "12345\r\n")) << repl_->output();
}

}  // namespace
