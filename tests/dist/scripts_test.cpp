// The `tessel` command across ranks (label `dist`): each script of tests/dist/scripts runs
// alone (a world of one: the same script must work without mpirun) and under
// `mpirun -n N --tag-output`, and every rank's output is checked against the script's own
// expectations. examples/data_parallel.dsl and the compile trace are checked the same way.
//
//   # ranks: 1 2 4            world sizes to run it with (1: plain `tessel script.dsl`)
//   # expect: TEXT            a line of every rank's stdout, in order
//   # expect rank R: TEXT     a line only rank R prints (in order among that rank's lines)
//   # stderr: TEXT            every rank's stderr contains TEXT
//   # stderr rank R: TEXT     rank R's stderr contains TEXT
//   # fails                   the run ends with a nonzero status (else it must succeed)
//   # within: S               the run ends within S seconds (default 60): no hang
//   # env: NAME=VALUE         set for every rank
//
// TEXT may say {rank}, {world} and {last} (world - 1). Every run is under `timeout`, so a hang
// fails its test rather than the whole suite.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct Script {
  std::string name;
  std::vector<int> ranks{1, 2};
  struct Line {
    int rank = -1;  // -1: every rank
    std::string text;
  };
  std::vector<Line> stdoutLines, stderrFragments;
  std::vector<std::string> env;
  bool fails = false;
  double within = 60;
};

Script readScript(const fs::path& path) {
  Script s;
  s.name = path.filename().string();
  std::ifstream in(path);
  std::string line;
  std::smatch m;
  static const std::regex directive(R"(#\s*(expect|stderr)(?: rank (\d+))?: (.*)$)");
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, directive)) {
      Script::Line l{m[2].matched ? std::stoi(m[2]) : -1, m[3]};
      (m[1] == "expect" ? s.stdoutLines : s.stderrFragments).push_back(l);
    } else if (line.rfind("# ranks:", 0) == 0) {
      s.ranks.clear();
      std::istringstream words(line.substr(8));
      for (int n; words >> n;) s.ranks.push_back(n);
    } else if (line.rfind("# fails", 0) == 0) {
      s.fails = true;
    } else if (line.rfind("# within:", 0) == 0) {
      s.within = std::stod(line.substr(9));
    } else if (line.rfind("# env:", 0) == 0) {
      s.env.push_back(line.substr(line.find_first_not_of(' ', 6)));
    }
  }
  return s;
}

std::string substitute(std::string text, int rank, int world) {
  for (auto [key, value] :
       {std::pair<std::string, int>{"{rank}", rank}, {"{world}", world}, {"{last}", world - 1}})
    for (size_t p; (p = text.find(key)) != std::string::npos;)
      text.replace(p, key.size(), std::to_string(value));
  return text;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Launch {
  int status = -1;
  double seconds = 0;
  std::vector<std::vector<std::string>> out;  // stdout lines by rank
  std::vector<std::string> err;               // stderr by rank
  std::string raw;                            // everything, for failure messages
};

bool haveMpi() {
  return std::string(TESSEL_MPIRUN).size() > 0;
}

// Runs `tessel args...` on `world` ranks (1: without mpirun) under a 5-minute `timeout`.
Launch launch(int world, const std::vector<std::string>& args,
              const std::vector<std::string>& env) {
  fs::path dir = fs::temp_directory_path() / ("tessel_dist_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string cmd = "timeout -k 5 300 ";
  if (world == 1) {
    for (const std::string& e : env) cmd += "env '" + e + "' ";
  } else {
    cmd += std::string(TESSEL_MPIRUN) + " " + TESSEL_MPIRUN_FLAGS + " --tag-output -n " +
           std::to_string(world) + " ";
    for (const std::string& e : env) cmd += "-x '" + e + "' ";
  }
  cmd += std::string(TESSEL_TESSEL);
  for (const std::string& a : args) cmd += " '" + a + "'";
  cmd += " > " + (dir / "out").string() + " 2> " + (dir / "err").string() + " < /dev/null";
  auto start = std::chrono::steady_clock::now();
  int raw = std::system(cmd.c_str());
  Launch run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  run.out.resize(world);
  run.err.resize(world);
  static const std::regex tag(R"(^\[\d+,(\d+)\]<(stdout|stderr)>:(.*)$)");
  for (const char* stream : {"out", "err"}) {
    std::ifstream in(dir / stream);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
      run.raw += std::string(stream) + ": " + line + "\n";
      int rank = 0;
      std::string text = line;
      bool isOut = std::string(stream) == "out";
      if (world > 1) {
        if (!std::regex_match(line, m, tag)) continue;  // mpirun's own messages
        rank = std::stoi(m[1]);
        isOut = m[2] == "stdout";
        text = m[3];
      }
      if (rank >= world) continue;
      if (isOut)
        run.out[rank].push_back(text);
      else
        run.err[rank] += text + "\n";
    }
  }
  fs::remove_all(dir);
  return run;
}

struct Case {
  Script script;
  int world;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  fs::path root = fs::path(TESSEL_SOURCE_DIR) / "tests" / "dist" / "scripts";
  std::vector<fs::path> paths;
  for (auto& e : fs::directory_iterator(root))
    if (e.path().extension() == ".dsl") paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  for (const fs::path& p : paths) {
    Script s = readScript(p);
    for (int n : s.ranks) out.push_back({s, n});
  }
  return out;
}

// How CTest and failure messages name a case.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.script.name << " on " << c.world << (c.world == 1 ? " rank" : " ranks");
}

class DistScript : public testing::TestWithParam<Case> {};

TEST_P(DistScript, EveryRankAsExpected) {
  const Case& c = GetParam();
  if (c.world > 1 && !haveMpi()) GTEST_SKIP() << "this build has no MPI";
  fs::path path = fs::path(TESSEL_SOURCE_DIR) / "tests" / "dist" / "scripts" / c.script.name;
  Launch run = launch(c.world, {path.string()}, c.script.env);
  SCOPED_TRACE(c.script.name + " on " + std::to_string(c.world) + " ranks, output:\n" + run.raw);
  if (c.script.fails)
    EXPECT_NE(run.status, 0);
  else
    EXPECT_EQ(run.status, 0);
  EXPECT_LT(run.seconds, c.script.within) << "the run took too long";
  for (int r = 0; r < c.world; ++r) {
    std::vector<std::string> expected;
    for (const Script::Line& l : c.script.stdoutLines)
      if (l.rank < 0 || l.rank == r) expected.push_back(substitute(l.text, r, c.world));
    EXPECT_EQ(run.out[r], expected) << "stdout of rank " << r;
    for (const Script::Line& l : c.script.stderrFragments) {
      if (l.rank >= 0 && l.rank != r) continue;
      std::string want = substitute(l.text, r, c.world);
      EXPECT_NE(run.err[r].find(want), std::string::npos)
          << "stderr of rank " << r << " lacks: " << want;
    }
  }
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
  std::string name = info.param.script.name.substr(0, info.param.script.name.size() - 4);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name + "_" + std::to_string(info.param.world);
}

INSTANTIATE_TEST_SUITE_P(Scripts, DistScript, testing::ValuesIn(cases()), caseName);

// examples/data_parallel.dsl: the replicas are identical at the end and the model
// learns, alone and on 2 and 4 ranks; only rank 0 prints.
TEST(DistExample, DataParallelTrainingKeepsReplicasIdentical) {
  for (int world : {1, 2, 4}) {
    if (world > 1 && !haveMpi()) continue;
    Launch run =
        launch(world, {std::string(TESSEL_SOURCE_DIR) + "/examples/data_parallel.dsl"}, {});
    SCOPED_TRACE(std::to_string(world) + " ranks, output:\n" + run.raw);
    EXPECT_EQ(run.status, 0);
    ASSERT_FALSE(run.out[0].empty());
    EXPECT_EQ(run.out[0][run.out[0].size() - 2],
              "ranks " + std::to_string(world) + " replicas identical true");
    EXPECT_EQ(run.out[0].back(), "accuracy 1.0");
    for (int r = 1; r < world; ++r) EXPECT_TRUE(run.out[r].empty()) << "rank " << r;
  }
}

// The compile trace of each rank says which rank wrote it, and records the exchange.
TEST(DistTrace, StartCarriesTheRankAndCollectivesAreTraced) {
  if (!haveMpi()) GTEST_SKIP() << "this build has no MPI";
  fs::path dir = fs::temp_directory_path() / ("tessel_dist_trace_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::path script =
      fs::path(TESSEL_SOURCE_DIR) / "tests" / "dist" / "scripts" / "compiler_collectives.dsl";
  Launch run = launch(2, {"--trace-dir", dir.string(), script.string()}, {});
  ASSERT_EQ(run.status, 0) << run.raw;
  std::map<int, std::string> byRank;
  for (auto& e : fs::directory_iterator(dir)) {
    std::string text = slurp(e.path());
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, std::regex(R"("event":"start".*)")))
        << text.substr(0, 300);
    std::string start = text.substr(0, text.find('\n'));
    std::smatch r;
    ASSERT_TRUE(std::regex_search(start, r, std::regex(R"("rank":(\d+))"))) << start;
    EXPECT_NE(start.find("\"world_size\":2"), std::string::npos) << start;
    byRank[std::stoi(r[1])] = text;
  }
  ASSERT_EQ(byRank.size(), 2u);
  for (auto& [rank, text] : byRank) {
    EXPECT_NE(text.find("\"event\":\"compiler_collective\""), std::string::npos);
    EXPECT_NE(text.find("\"dynamic\":[\"x.shape[0]\"]"), std::string::npos) << text;
  }
  fs::remove_all(dir);
}

}  // namespace
