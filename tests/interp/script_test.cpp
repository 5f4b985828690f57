// Golden script tests: every tests/scripts/**/*.dsl runs in a fresh Interpreter and must print
// what its inline `# expect: ...` lines say, and fail where `# expect error: ...` says.
//
//   print(1 + 1)          # expect: 2
//   let y = x             # expect error: NameError: name 'x' is not defined
//
// An expected error must be raised on the line of its comment, with a diagnostic whose
// first line contains the text. Output printed before the error is still checked.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <sstream>

#include "backends/backend.h"
#include "interp/natives/builtins.h"
#include "interp/tensors/device_support.h"
#include "shapes/user_error.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"

namespace fs = std::filesystem;
using namespace tessel;

namespace {

struct Expectations {
  std::vector<std::string> output;
  std::string error;  // empty: the script must succeed
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

// The scripts of the folders of tests/scripts named in TESSEL_SCRIPT_DIRS (comma-separated):
// each test binary runs those of its own label.
std::vector<std::string> scriptPaths() {
  std::vector<std::string> out;
  fs::path root = fs::path(TESSEL_SOURCE_DIR) / "tests" / "scripts";
  std::stringstream dirs(TESSEL_SCRIPT_DIRS);
  for (std::string dir; std::getline(dirs, dir, ',');)
    for (auto& entry : fs::recursive_directory_iterator(root / dir))
      if (entry.path().extension() == ".dsl" &&
          entry.path().string().find("/modules/") == std::string::npos)
        out.push_back(fs::relative(entry.path(), root).string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> lines;
  std::stringstream in(s);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

class ScriptTest : public testing::TestWithParam<std::string> {};

TEST_P(ScriptTest, MatchesExpectations) {
  fs::path path = fs::path(TESSEL_SOURCE_DIR) / "tests" / "scripts" / GetParam();
  // Under TESSEL_DEVICE (the device sweep in tests/interp/CMakeLists.txt) tensors are made on
  // that device; the sweep skips where it does not exist.
  std::optional<backends::Device> onDefaultDevice;
  if (const char* env = std::getenv("TESSEL_DEVICE"); env && *env && std::string(env) != "cpu") {
    onDefaultDevice = backends::deviceFromName(env);
    ASSERT_TRUE(onDefaultDevice) << "TESSEL_DEVICE=" << env;
    try {
      interp::ensureDevice(*onDefaultDevice);
    } catch (const UserError& e) {
      GTEST_SKIP() << "no " << env << " device on this machine: " << e.what();
    }
  }
  Expectations expect = readExpectations(path);
  ASSERT_TRUE(!expect.output.empty() || !expect.error.empty())
      << GetParam() << " has no # expect lines";
  std::ostringstream out;
  interp::Interpreter interp;
  interp.setOutput(&out);
  std::string diagnostic;
  uint32_t errorLine = 0;
  try {
    interp.runFile(path.string());
  } catch (const interp::ScriptError& e) {
    diagnostic = interp::formatDiagnostic(e, interp.sources());
    errorLine = e.span.line;
  } catch (const interp::ExitRequest&) {
  }
  std::vector<std::string> lines = splitLines(out.str());
  if (onDefaultDevice) {
    // The same expectations hold on another default device, apart from where tensors live.
    const std::string tag = ", device=\"" + std::string(backends::deviceName(*onDefaultDevice)) + "\"";
    for (std::string& l : lines)
      for (size_t p; (p = l.find(tag)) != std::string::npos;) l.erase(p, tag.size());
  }
  EXPECT_EQ(lines, expect.output) << "stdout of " << GetParam();
  if (expect.error.empty()) {
    EXPECT_EQ(diagnostic, "") << GetParam() << " failed unexpectedly";
  } else {
    std::string first = diagnostic.substr(0, diagnostic.find('\n'));
    EXPECT_NE(first.find(expect.error), std::string::npos)
        << GetParam() << ": expected error containing\n  " << expect.error << "\ngot\n"
        << diagnostic;
    EXPECT_EQ(errorLine, expect.errorLine) << GetParam() << ": error on the wrong line\n"
                                           << diagnostic;
  }
}

std::string testName(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Scripts, ScriptTest, testing::ValuesIn(scriptPaths()), testName);

}  // namespace
