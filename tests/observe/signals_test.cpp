// SIGINT and SIGTERM to a running script (docs/reliability.md): it ends the ordinary way, with
// status 130 / 143, its output flushed, its PGO profile and compile trace written whole.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/observe/tessel_process.h"

namespace tessel::observe {
namespace {

namespace fs = std::filesystem;

const char* kEndless = R"(@compile
fn f(x) { return x * x.shape[0] }
for n in [10, 20, 30] { f(ones([n])) }
print("ready")
while true { f(ones([7])) }
)";

// Starts the script, waits until it has compiled twice (its trace is written per event; its
// stdout, going to a file, is buffered until the end), sends `signal`, returns the exit status.
int stopWith(const ScratchDir& dir, const std::string& signal) {
  dir.write("stop.sh", std::string("TESSEL_PGO=1 TESSEL_CACHE_DIR=cache TESSEL_TRACE=tr ") +
                           TESSEL_BINARY_DIR + "/repl/tessel s.dsl > out.txt 2>&1 &\n"
                           "pid=$!\n"
                           "for i in $(seq 400); do\n"
                           "  grep -qs 'compile_end.*\"0/1\"' tr/* && break\n"
                           "  sleep 0.05\n"
                           "done\n"
                           "kill -" + signal + " $pid\n"
                           "wait $pid\n"
                           "echo $? > status.txt\n");
  EXPECT_EQ(std::system(("cd '" + dir.path() + "' && sh stop.sh").c_str()), 0);
  return std::stoi(readText(dir.path() + "/status.txt"));
}

void expectSavedWhole(const ScratchDir& dir) {
  // Output was flushed, and the run's profile says x.shape[0] varies.
  EXPECT_EQ(readText(dir.path() + "/out.txt").rfind("ready\n", 0), 0u);
  bool sawProfile = false;
  for (const auto& e : fs::directory_iterator(dir.path() + "/cache/pgo"))
    if (e.path().extension() == ".json") {
      sawProfile = true;
      auto doc = nlohmann::json::parse(readText(e.path().string()));
      EXPECT_EQ(doc["frames"][0]["sources"]["x.shape[0]"], "?");
    }
  EXPECT_TRUE(sawProfile);
  // The trace was closed: its last line is `end`.
  for (const auto& e : fs::directory_iterator(dir.path() + "/tr")) {
    std::string text = readText(e.path().string());
    std::string lastLine = text.substr(text.rfind('\n', text.size() - 2) + 1);
    EXPECT_EQ(nlohmann::json::parse(lastLine)["event"], "end");
  }
}

TEST(Signals, SigtermEndsAScriptWith143AndSavesWhatItLearned) {
  ScratchDir dir;
  dir.write("s.dsl", kEndless);
  EXPECT_EQ(stopWith(dir, "TERM"), 143);
  expectSavedWhole(dir);
}

TEST(Signals, SigintEndsAScriptWith130AndSaysWhere) {
  ScratchDir dir;
  dir.write("s.dsl", kEndless);
  EXPECT_EQ(stopWith(dir, "INT"), 130);
  expectSavedWhole(dir);
  EXPECT_NE(readText(dir.path() + "/out.txt").find("s.dsl:5:"), std::string::npos);
}

}  // namespace
}  // namespace tessel::observe
