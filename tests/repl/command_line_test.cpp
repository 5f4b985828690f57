// The `tessel` command line: --version, --help, -c, scripts, exit statuses.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct Result {
  std::string out;
  int status;
};

Result run(const std::string& args) {
  std::string cmd = std::string(TESSEL_BINARY_DIR) + "/repl/tessel " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int status = pclose(p);
  return {out, WEXITSTATUS(status)};
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

TEST(CommandLine, ErrorExitsWithOneAndShowsCaret) {
  Result r = run("-c 'let x = 1\nprint(y)'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("<string>:2:7: NameError: name 'y' is not defined"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("^"), std::string::npos) << r.out;
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

}  // namespace
