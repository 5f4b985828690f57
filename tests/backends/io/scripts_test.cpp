// Golden scripts of tests/backends/io/scripts: each runs in a fresh Interpreter whose file policy lets
// it read and write a scratch folder, given to it as args[0]; it must print what its inline
// `# expect: ...` lines say and fail where `# expect error: ...` says (the format of
// tests/interp/script_test.cpp). Messages that name a scratch path show it as <tmp>.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "io_test_util.h"

namespace fs = std::filesystem;
using namespace tessel;

namespace {

struct Expectations {
  std::vector<std::string> output;
  std::string error;
  uint32_t errorLine = 0;
};

Expectations readExpectations(const fs::path& path) {
  Expectations e;
  std::ifstream in(path);
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); ++n) {
    const std::string out = "# expect: ", err = "# expect error: ";
    size_t p;
    if ((p = line.find(out)) != std::string::npos) {
      e.output.push_back(line.substr(p + out.size()));
    } else if ((p = line.find(err)) != std::string::npos) {
      e.error = line.substr(p + err.size());
      e.errorLine = n;
    }
  }
  return e;
}

fs::path scriptsDir() {
  return fs::path(TESSEL_SOURCE_DIR) / "tests" / "backends" / "io" / "scripts";
}

std::vector<std::string> scriptNames() {
  std::vector<std::string> out;
  for (auto& entry : fs::directory_iterator(scriptsDir()))
    if (entry.path().extension() == ".dsl") out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size())
    s.replace(p, from.size(), to);
  return s;
}

class IoScriptTest : public ::testing::TestWithParam<std::string> {};

TEST_P(IoScriptTest, MatchesExpectations) {
  fs::path path = scriptsDir() / GetParam();
  Expectations expect = readExpectations(path);
  ASSERT_TRUE(!expect.output.empty() || !expect.error.empty()) << GetParam() << " expects nothing";
  io_testing::ScratchDir tmp;
  interp::InterpreterOptions options;
  options.args = {tmp.path().string()};
  options.files = {backends::io::FilePolicy::Access::ReadWrite, {tmp.path().string()}};
  interp::Interpreter vm(options);
  std::ostringstream out;
  vm.setOutput(&out);
  std::string diagnostic;
  uint32_t errorLine = 0;
  try {
    vm.runFile(path.string());
  } catch (const interp::ScriptError& e) {
    diagnostic = interp::formatDiagnostic(e, vm.sources());
    errorLine = e.span.line;
  }
  std::vector<std::string> lines;
  std::stringstream in(replaceAll(out.str(), tmp.path().string(), "<tmp>"));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  EXPECT_EQ(lines, expect.output) << "stdout of " << GetParam();
  diagnostic = replaceAll(diagnostic, tmp.path().string(), "<tmp>");
  if (expect.error.empty()) {
    EXPECT_EQ(diagnostic, "") << GetParam() << " failed unexpectedly";
  } else {
    std::string first = diagnostic.substr(0, diagnostic.find('\n'));
    EXPECT_NE(first.find(expect.error), std::string::npos)
        << GetParam() << ": expected an error containing\n  " << expect.error << "\ngot\n"
        << diagnostic;
    EXPECT_EQ(errorLine, expect.errorLine) << GetParam() << ": error on the wrong line\n"
                                           << diagnostic;
  }
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(IoScripts, IoScriptTest, ::testing::ValuesIn(scriptNames()), testName);

}  // namespace
