// The `tessel` command line: --version, --help, -c, scripts, exit statuses.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/process.h"

namespace {

using Result = tessel::testing::ShellResult;

Result run(const std::string& args) {
  return tessel::testing::runShell(std::string(TESSEL_BINARY_DIR) + "/repl/tessel " + args +
                                   " 2>&1");
}

TEST(CommandLine, Version) {
  Result r = run("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("tessel ", 0), 0u) << r.out;
}

TEST(CommandLine, HelpShowsUsage) {
  Result r = run("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: tessel"), std::string::npos);
}

TEST(CommandLine, RunsCode) {
  Result r = run("-c 'print(1 + 2)'");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "3\n");
}

// print(..., file = stderr) and stderr.write reach the process's stderr, stdout stays clean.
TEST(CommandLine, PrintToStderr) {
  tessel::testing::ShellResult r = tessel::testing::runShell(
      std::string(TESSEL_BINARY_DIR) +
      "/repl/tessel -c 'print(\"warn\", 1, file = stderr, flush = true)\n"
      "stderr.write(\"raw\\n\")\nprint(\"out\", file = stdout)' 2>/dev/null");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "out\n");
  r = tessel::testing::runShell(
      std::string(TESSEL_BINARY_DIR) +
      "/repl/tessel -c 'print(\"warn\", 1, file = stderr, flush = true)\n"
      "stderr.write(\"raw\\n\")\nprint(\"out\", file = stdout)' 2>&1 >/dev/null");
  EXPECT_EQ(r.out, "warn 1\nraw\n");
}

// `tessel reference` prints the generated reference (docs/reference.md's text).
TEST(CommandLine, Reference) {
  Result r = run("reference");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("# Reference\n", 0), 0u) << r.out.substr(0, 200);
  EXPECT_NE(r.out.find("### `print`"), std::string::npos);
  EXPECT_EQ(r.out.find("## Undocumented"), std::string::npos);
}

TEST(CommandLine, ErrorExitsWithOneAndShowsCaret) {
  Result r = run("-c 'let x = 1\nprint(y)'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("<string>:2:7: NameError: name 'y' is not defined"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("^"), std::string::npos) << r.out;
}

TEST(CommandLine, MaxMemoryCapsTensorBytes) {
  Result r = run("--max-memory 8M -c 'let a = zeros([1024, 1024])\nprint(1)\n"
                 "let b = zeros([1024, 1024])\nlet c = ones([16])\nprint(2)'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("1\n<string>:4:9: LimitError: memory limit exceeded: a tensor of 64 bytes"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("2\n"), std::string::npos) << r.out;
  EXPECT_EQ(run("--max-memory=8M -c 'print(zeros([1024, 1024]).sum().item())'").out, "0.0\n");
  Result bad = run("--max-memory 8X -c 1");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("--max-memory needs a positive size, not '8X'"), std::string::npos);
}

TEST(CommandLine, MaxStepsEndsARunawayLoop) {
  Result r = run("--max-steps 1000 -c 'let n = 0\nwhile true { }'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("<string>:2:1: LimitError: step limit exceeded: more than 1000 steps"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(run("--max-steps=1000 -c 'for i in range(900) { }\nprint(\"ok\")'").out, "ok\n");
  EXPECT_EQ(run("--max-steps 0 -c 1").status, 2);
}

TEST(CommandLine, ExitStatusFromExit) {
  EXPECT_EQ(run("-c 'exit(3)'").status, 3);
}

TEST(CommandLine, ScriptArgumentsAreVisible) {
  Result r = run("-c 'print(args)' a b");
  EXPECT_EQ(r.out, "[\"a\", \"b\"]\n");
}

TEST(CommandLine, MissingScriptIsAnError) {
  Result r = run("/nonexistent/x.dsl");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("cannot open script"), std::string::npos) << r.out;
}

TEST(CommandLine, UnknownOptionIsAUsageError) {
  EXPECT_EQ(run("--bogus").status, 2);
}

TEST(CommandLine, SubcommandsReportAndPgo) {
  // The report and pgo subcommands are dispatched (their behaviour: report_tests, observe_tests).
  Result report = run("report --help");
  EXPECT_EQ(report.status, 0);
  EXPECT_NE(report.out.find("usage: tessel report"), std::string::npos) << report.out;
  EXPECT_EQ(run("report /nonexistent/trace-dir").status, 1);
  Result pgo = run("pgo");
  EXPECT_EQ(pgo.status, 2);
  EXPECT_NE(pgo.out.find("usage: tessel pgo show"), std::string::npos) << pgo.out;
}

}  // namespace

namespace {

// Each TESSEL_LOGS / --logs category (compiler.md, "Observing the compiler").
const char* kLogScript =
    "'@compile\nfn f(x) {\n  if x.shape[0] <= 30 { return x * 2 }\n  return x\n}\n"
    "f(ones([10]))\nf(ones([20]))\nf(ones([25]))'";

TEST(CommandLine, LogsRecompiles) {
  Result r = run(std::string("--logs recompiles -c ") + kLogScript);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("[0/1] recompile f (<string>:2): x.shape[0]: expected 10, got 20"),
            std::string::npos)
      << r.out;
}

TEST(CommandLine, LogsGuards) {
  Result r = run(std::string("--logs=guards -c ") + kLogScript);
  EXPECT_NE(r.out.find("[0/0] guard x.shape[0] == 10"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[0/1] guard x.shape[0] <= 30 at <string>:3:6"), std::string::npos) << r.out;
}

TEST(CommandLine, LogsDynamic) {
  Result r = run(std::string("--logs dynamic -c ") + kLogScript);
  EXPECT_NE(r.out.find("[0/1] create_symbol s0 = 20 for x.shape[0] [2, inf] at <string>:2"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[0/1] eval s0 <= 30 [guard added] at <string>:3:6:   if x.shape[0] <= 30"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[0/1] update_range s0 = [2, 30]"), std::string::npos) << r.out;
}

TEST(CommandLine, LogsGraphCodeAndPerf) {
  Result r = run(std::string("--logs graph_code,perf -c ") + kLogScript);
  EXPECT_NE(r.out.find("[0/1] %0: f32[s0] = input x"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[0/1] compile f: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("solver"), std::string::npos) << r.out;
}

TEST(CommandLine, LogsGraphBreaks) {
  // One line per break site, with the compile id of the trace that met it, where and why;
  // the second call replays the breaks without logging them again.
  const char* script =
      "'let seen = []\n@compile\nfn f(x) {\n  let y = x * 2\n  seen.append(y.sum().item())\n"
      "  print(seen)\n  return y\n}\nf(ones([2]))\nf(ones([2]))'";
  Result r = run(std::string("--logs graph_breaks -c ") + script);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("[0/0] graph break in f at <string>:5: x.item() needs the tensor's data"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[0/2] graph break in f at <string>:6: print() is a side effect"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[4.0, 4.0]"), std::string::npos) << r.out;
  size_t lines = 0;
  for (size_t at = r.out.find("graph break in"); at != std::string::npos;
       at = r.out.find("graph break in", at + 1))
    ++lines;
  EXPECT_EQ(lines, 2u) << r.out;
}

TEST(CommandLine, LogsFromEnvironmentAndUnknownCategory) {
  Result r = run(std::string("-c ") + kLogScript);
  EXPECT_EQ(r.out.find("[0/"), std::string::npos) << "no logs unless asked: " << r.out;
  std::string cmd = std::string("TESSEL_LOGS=recompiles,bogus ") + TESSEL_BINARY_DIR +
                    "/repl/tessel -c " + kLogScript + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  pclose(p);
  EXPECT_NE(out.find("unknown log category 'bogus'"), std::string::npos) << out;
  EXPECT_NE(out.find("[0/1] recompile f"), std::string::npos) << out;
}

}  // namespace

namespace {

// The example scripts stay runnable (README, docs).
TEST(CommandLine, ExamplesRun) {
  for (const char* name : {"demo.dsl", "mlp.dsl", "dynamic_shapes.dsl"}) {
    Result r = run(std::string(TESSEL_SOURCE_DIR) + "/examples/" + name);
    EXPECT_EQ(r.status, 0) << name << ":\n" << r.out;
  }
  Result r = run(std::string(TESSEL_SOURCE_DIR) + "/examples/dynamic_shapes.dsl");
  EXPECT_NE(r.out.find("graphs: static 4 dynamic 1 automatic 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("foo graphs: dynamic = false 98 mark_dynamic 1"), std::string::npos) << r.out;
}

}  // namespace
