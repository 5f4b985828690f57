// The REPL with piped stdin (not a terminal): no prompts, values echoed, errors on stderr
// without ending the session, commands, and no history file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/repl/pty_session.h"
#include "tests/support/process.h"

namespace {

using Result = tessel::testing::ShellResult;

// Runs the REPL with `input` on stdin; stdout and stderr in `out` (stderr after stdout when
// `mergeErr` is false it is dropped).
Result runPiped(const std::string& input, const std::string& cache, bool mergeErr = true) {
  std::string inputFile = cache + "/input.txt";
  std::ofstream(inputFile) << input;
  return tessel::testing::runShell("TESSEL_CACHE_DIR='" + cache + "' " + TESSEL_BINARY_DIR +
                                   "/repl/tessel < '" + inputFile + "'" +
                                   (mergeErr ? " 2>&1" : " 2>/dev/null"));
}

TEST(ReplPiped, EchoesWithoutPrompts) {
  tessel::testing::TempDir dir;
  Result r = runPiped("1 + 2\n\"s\"\nprint(\"p\")\nlet x = 4\nx * x\n", dir.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "3\n\"s\"\np\n16\n");
}

TEST(ReplPiped, MultiLineAndErrorsContinue) {
  tessel::testing::TempDir dir;
  Result r = runPiped("fn f(a) {\n  return a + 1\n}\nnope\nf(1)\n", dir.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("NameError: name 'nope' is not defined"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n2\n"), std::string::npos) << r.out;
}

TEST(ReplPiped, Commands) {
  tessel::testing::TempDir dir;
  std::ofstream(dir.path() + "/m.dsl") << "let from_file = 10\n";
  Result r = runPiped(":type 1\n:load " + dir.path() +
                          "/m.dsl\nfrom_file\n:reset\n:type [\n1]\n"
                          ":quit\nprint(\"not reached\")\n",
                      dir.path(), false);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "int\n10\nsession reset: all definitions forgotten\nlist\n");
}

TEST(ReplPiped, UnfinishedInputAtEndIsReported) {
  tessel::testing::TempDir dir;
  Result r = runPiped("[1,\n", dir.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("SyntaxError"), std::string::npos) << r.out;
}

TEST(ReplPiped, ExitStatusAndNoHistory) {
  tessel::testing::TempDir dir;
  EXPECT_EQ(runPiped("exit(5)\n", dir.path()).status, 5);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/history"));
}

}  // namespace

namespace {

// :guards, :graphs and :stats show a compiled function's entries.
TEST(ReplPiped, CompilerCommands) {
  tessel::testing::TempDir dir;
  Result r = runPiped(
      "@compile\nfn f(x) { return x * 2 }\nlet a = f(ones([3]))\nlet b = f(ones([4]))\n"
      ":guards f\n:graphs f\n:stats f\n:stats\n:guards len\n",
      dir.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("entry 0/0:\n  x.shape[0] == 3\nentry 0/1:\n  x.shape[0] >= 2\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("%2: f32[s0] = mul(%0, %1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compiles: 2\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reasons: [\"x.shape[0]: expected 3, got 4\"]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("len is not a compiled function"), std::string::npos) << r.out;
}

}  // namespace
