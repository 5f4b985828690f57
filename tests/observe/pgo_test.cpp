// PGO across runs (compiler.md, "PGO"; Note [PGO profiles] in interp/compile/pgo.h): the seeds'
// example, turning it off, damaged profiles, concurrent writers, regions, `tessel pgo show`.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/observe/tessel_process.h"

namespace tessel::observe {
namespace {

namespace fs = std::filesystem;

// Seed 004: f(x) over sizes 10, 20, 30 (or the sizes given as arguments).
const char* kSeedScript = R"(@compile
fn f(x) {
  return x * x.shape[0]
}
let sizes = [10, 20, 30]
if len(args) > 0 {
  sizes = []
  for a in args { sizes.append(int(a)) }
}
let total = 0.0
for n in sizes { total = total + f(ones([n, 8])).sum().item() }
print("compiles", stats(f)["compiles"], "total", total)
)";

class Pgo : public ::testing::Test {
 protected:
  ScratchDir dir;
  std::string env() const { return "TESSEL_PGO=1 TESSEL_CACHE_DIR=" + dir.path() + "/cache"; }
  ProcessResult tessel(const std::string& args) const { return runTessel(args, env(), dir.path()); }
  std::vector<std::string> profiles() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir.path() + "/cache/pgo", ec))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string profile() const {
    for (const std::string& name : profiles())
      if (name.ends_with(".json")) return dir.path() + "/cache/pgo/" + name;
    return "";
  }
};

TEST_F(Pgo, SecondRunStartsDynamic) {
  dir.write("f.dsl", kSeedScript);
  ProcessResult first = tessel("f.dsl");
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_EQ(first.out, "compiles 2 total 11200.0\n");
  // The same answer with one graph: x.shape[0] was dynamic before, so it is from the start.
  EXPECT_EQ(tessel("f.dsl").out, "compiles 1 total 11200.0\n");
  EXPECT_EQ(tessel("f.dsl").out, "compiles 1 total 11200.0\n");
  nlohmann::json doc = nlohmann::json::parse(readText(profile()));
  EXPECT_EQ(doc["tessel_pgo"], 1);
  EXPECT_EQ(doc["script"], fs::canonical(dir.path() + "/f.dsl").string());
  ASSERT_EQ(doc["frames"].size(), 1u);
  EXPECT_EQ(doc["frames"][0]["function"], "f");
  EXPECT_EQ(doc["frames"][0]["line"], 2);
  EXPECT_EQ(doc["frames"][0]["sources"]["x.shape[0]"], "?");
  EXPECT_EQ(doc["frames"][0]["sources"]["x.shape[1]"], 8);
}

// Scalars (compiler.md, "Scalars"): an optimizer's step count and a scheduled learning rate,
// nested in a dict, vary in the first run; the second compiles once with both as inputs.
TEST_F(Pgo, ScalarsThatVariedStartAsInputs) {
  dir.write("s.dsl", R"(@compile
fn step(x, opt) { return x * (opt["lr"] / (1.0 - 0.9 ** opt["t"])) }
let total = 0.0
for t in range(1, 6) { total = total + step(ones([4]), {"t": t, "lr": 0.1 / t}).sum().item() }
print("compiles", stats(step)["compiles"], "total", round(total, 4))
)");
  ProcessResult first = tessel("s.dsl");
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_EQ(first.out, "compiles 2 total 6.0308\n");
  EXPECT_EQ(tessel("s.dsl").out, "compiles 1 total 6.0308\n");
  nlohmann::json doc = nlohmann::json::parse(readText(profile()));
  ASSERT_EQ(doc["frames"].size(), 1u);
  EXPECT_EQ(doc["frames"][0]["sources"]["opt[\"t\"]"], "?");
  EXPECT_EQ(doc["frames"][0]["sources"]["opt[\"lr\"]"], "?");
}

TEST_F(Pgo, OffByEnvironmentOrConfig) {
  dir.write("f.dsl", kSeedScript);
  std::string off = "TESSEL_PGO=0 TESSEL_CACHE_DIR=" + dir.path() + "/cache";
  EXPECT_EQ(runTessel("f.dsl", off, dir.path()).out, "compiles 2 total 11200.0\n");
  EXPECT_EQ(runTessel("f.dsl", off, dir.path()).out, "compiles 2 total 11200.0\n");
  EXPECT_TRUE(profiles().empty());
  dir.write("g.dsl", std::string("config.pgo = false\n") + kSeedScript);
  EXPECT_EQ(tessel("g.dsl").out, "compiles 2 total 11200.0\n");
  EXPECT_EQ(tessel("g.dsl").out, "compiles 2 total 11200.0\n");
  EXPECT_TRUE(profiles().empty());
}

TEST_F(Pgo, ALoadedStateKeepsLearning) {
  // ProcessResult 1 saw only 10 (static); run 2's first call sees 20: it differs from what the profile
  // holds, so it is dynamic at once, as automatic dynamic would make it at a recompile.
  dir.write("f.dsl", kSeedScript);
  EXPECT_EQ(tessel("f.dsl 10 10").out, "compiles 1 total 1600.0\n");
  EXPECT_EQ(tessel("f.dsl 20 30").out, "compiles 1 total 10400.0\n");
  EXPECT_EQ(tessel("f.dsl 40").out, "compiles 1 total 12800.0\n");
}

TEST_F(Pgo, DamagedProfilesAreIgnoredWithOneWarning) {
  dir.write("f.dsl", kSeedScript);
  ASSERT_EQ(tessel("f.dsl").status, 0);
  std::string path = profile();
  std::string good = readText(path);
  nlohmann::json wrongValue = nlohmann::json::parse(good);
  wrongValue["frames"][0]["sources"]["x.shape[0]"] = "big";
  nlohmann::json nonObjectFrame = nlohmann::json::parse(good);
  nonObjectFrame["frames"][0] = 7;
  const std::pair<const char*, std::string> damages[] = {
      {"not valid JSON", "\x01\x02garbage"},
      {"not valid JSON", good.substr(0, good.size() / 2)},  // truncated
      {"version 99", "{\"tessel_pgo\": 99, \"script\": \"x\", \"frames\": []}"},
      {"neither a number", wrongValue.dump()},
      {"no script or frames list", "{\"tessel_pgo\": 1, \"script\": 5, \"frames\": []}"},
      {"malformed", nonObjectFrame.dump()},
  };
  for (const auto& [why, text] : damages) {
    SCOPED_TRACE(why);
    dir.write(fs::relative(path, dir.path()).string(), text);
    ProcessResult r = tessel("f.dsl");
    EXPECT_EQ(r.status, 0);
    // The answer does not change; the profile is as good as absent, and named once.
    std::string warning = "tessel: warning: ignoring the PGO profile " + path + ": ";
    EXPECT_EQ(r.out.substr(0, warning.size()), warning) << r.out;
    EXPECT_NE(r.out.find(why), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(warning, 1), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("compiles 2 total 11200.0\n"), std::string::npos) << r.out;
    // It was replaced by a good one at exit.
    EXPECT_EQ(tessel("f.dsl").out, "compiles 1 total 11200.0\n");
  }
}

TEST_F(Pgo, ConcurrentWritersNeverTearTheProfile) {
  dir.write("f.dsl", kSeedScript);
  for (int round = 0; round < 3; ++round) {
    // Eight processes of one script at once, each seeing one size of its own: each saves
    // x.shape[0] = its size, and the merged profile must say "?".
    std::string cmd = "for i in 1 2 3 4 5 6 7 8; do " + std::string(TESSEL_BINARY_DIR) +
                      "/repl/tessel f.dsl $((i + 4 * " + std::to_string(round) +
                      " + 2)) > out$i.txt 2>&1 & done; wait";
    ASSERT_EQ(std::system(("cd '" + dir.path() + "' && env " + env() + " sh -c '" + cmd + "'")
                              .c_str()),
              0);
    for (int i = 1; i <= 8; ++i)
      EXPECT_EQ(readText(dir.path() + "/out" + std::to_string(i) + ".txt").rfind("compiles 1 ", 0),
                0u);
    nlohmann::json doc = nlohmann::json::parse(readText(profile()));  // whole: it parses
    EXPECT_EQ(doc["frames"][0]["sources"]["x.shape[0]"], "?");
  }
  // No temporary file is left behind; the lock file stays (it is reused).
  for (const std::string& name : profiles()) EXPECT_EQ(name.find(".tmp."), std::string::npos);
}

TEST_F(Pgo, RegionsOfFunctionsWithBreaksRememberToo) {
  dir.write("h.dsl", R"(@compile
fn h(x) {
  let y = x * 2
  print(y.shape[0])
  return y + x.shape[0]
}
for n in [10, 20, 30] { h(ones([n])) }
print("compiles", stats(h)["compiles"])
)");
  EXPECT_EQ(tessel("h.dsl").out, "10\n20\n30\ncompiles 4\n");
  EXPECT_EQ(tessel("h.dsl").out, "10\n20\n30\ncompiles 2\n");
  nlohmann::json doc = nlohmann::json::parse(readText(profile()));
  std::vector<std::string> regions;
  for (const auto& f : doc["frames"]) regions.push_back(f["region"]);
  EXPECT_EQ(regions, (std::vector<std::string>{"", "3:3-3", "5:3-5"}));
}

TEST_F(Pgo, CodeOutsideFilesHasNoProfile) {
  ProcessResult r = tessel("-c '@compile\nfn f(x) { return x + 1 }\nf(ones([3]))\nf(ones([4]))'");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(profiles().empty());
}

TEST_F(Pgo, ShowRendersLikeSeed004AndReproduces) {
  ProcessResult none = tessel("pgo show");
  EXPECT_EQ(none.out, "no PGO profiles in " + dir.path() + "/cache/pgo\n");
  dir.write("g.dsl", R"(@compile
fn g(x, n, k) {
  return x * n + k
}
for i in [1, 2, 3] { g(ones([i * 10, 8]), i + 4, 3) }
print("compiles", stats(g)["compiles"])
)");
  EXPECT_EQ(tessel("g.dsl").out, "compiles 2\n");
  std::string script = fs::canonical(dir.path() + "/g.dsl").string();
  std::string expected = script + ":2:g:\n" +
                         "k: scalar 3\n"
                         "n: fully dynamic scalar\n"
                         "x: tensor size=[?, 8] stride=[8, 1]\n"
                         "TESSEL_DYNAMIC_SOURCES=n,x.shape[0]\n";
  ProcessResult show = tessel("pgo show g.dsl");
  EXPECT_EQ(show.status, 0);
  EXPECT_EQ(show.out, expected);
  EXPECT_EQ(tessel("pgo show").out, expected);
  // The printed line reproduces the profile without PGO: one compile.
  std::string sources = "n,x.shape[0]";
  EXPECT_EQ(runTessel("g.dsl", "TESSEL_PGO=0 TESSEL_DYNAMIC_SOURCES=" + sources, dir.path()).out,
            "compiles 1\n");
  ProcessResult missing = tessel("pgo show f.dsl");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.out.find("f.dsl is not a script file"), std::string::npos) << missing.out;
  EXPECT_EQ(tessel("pgo list").status, 2);
}

}  // namespace
}  // namespace tessel::observe
