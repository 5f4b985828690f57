// The file policy (Note [File policy]): escapes by `..`, absolute paths and symbolic links are
// refused with an IOError naming the path and the policy; what is inside is allowed.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <sstream>

#include "backends/io/file_policy.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "io_test_util.h"
#include "shapes/user_error.h"

namespace fs = std::filesystem;
using namespace tessel;
using backends::io::checkAccess;
using backends::io::FilePolicy;
using tessel::io_testing::ScratchDir;

namespace {

/// The IOError message of a refused access, "" when it is allowed.
std::string refusal(const FilePolicy& policy, const std::string& path, bool write) {
  try {
    checkAccess(policy, path, write);
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::IOError);
    return e.what();
  }
  return "";
}

struct PolicyTest : ::testing::Test {
  ScratchDir root;
  std::string inside, outside;
  PolicyTest() {
    inside = root.file("allowed");
    outside = root.file("allowed-not");  // shares a prefix with the allowed folder
    fs::create_directories(inside + "/sub");
    fs::create_directories(outside);
    tessel::io_testing::writeBytes(outside + "/secret.txt", "secret");
    tessel::io_testing::writeBytes(inside + "/ok.txt", "ok");
  }
};

TEST_F(PolicyTest, NoneRefusesEverything) {
  FilePolicy none;
  EXPECT_NE(
      refusal(none, inside + "/ok.txt", false).find("outside the file policy (no file access)"),
      std::string::npos);
}

TEST_F(PolicyTest, AllAllowsEverything) {
  EXPECT_EQ(refusal(FilePolicy::all(), outside + "/secret.txt", true), "");
}

TEST_F(PolicyTest, FoldersAllowWhatIsInsideOnly) {
  FilePolicy rw{FilePolicy::Access::ReadWrite, {inside}};
  EXPECT_EQ(refusal(rw, inside + "/ok.txt", false), "");
  EXPECT_EQ(refusal(rw, inside + "/sub/new.npy", true), "");
  EXPECT_EQ(refusal(rw, inside + "/sub/../ok.txt", true), "");
  EXPECT_EQ(refusal(rw, inside + "/not/yet/there.npy", true), "");
  std::string m = refusal(rw, outside + "/secret.txt", false);
  EXPECT_NE(m.find("cannot read " + outside +
                   "/secret.txt: outside the file policy "
                   "(read-write under " +
                   inside + ")"),
            std::string::npos)
      << m;
  EXPECT_NE(refusal(rw, inside + "/../allowed-not/secret.txt", false), "");
  EXPECT_NE(refusal(rw, inside + "/sub/../../allowed-not/secret.txt", false), "");
  EXPECT_NE(refusal(rw, "/etc/passwd", false), "");
  EXPECT_NE(refusal(rw, inside + "/../../../../../../etc/passwd", false), "");
  EXPECT_NE(refusal(rw, "", false), "");
}

TEST_F(PolicyTest, ReadOnlyRefusesWrites) {
  FilePolicy ro{FilePolicy::Access::ReadOnly, {inside}};
  EXPECT_EQ(refusal(ro, inside + "/ok.txt", false), "");
  EXPECT_NE(refusal(ro, inside + "/ok.txt", true).find("cannot write"), std::string::npos);
  EXPECT_NE(refusal(ro, inside + "/ok.txt", true).find("read-only under"), std::string::npos);
}

TEST_F(PolicyTest, SymlinksOutAreFollowedAndRefused) {
  FilePolicy rw{FilePolicy::Access::ReadWrite, {inside}};
  fs::create_symlink(outside + "/secret.txt", inside + "/link.txt");
  fs::create_directory_symlink(outside, inside + "/door");
  EXPECT_NE(refusal(rw, inside + "/link.txt", false), "");
  EXPECT_NE(refusal(rw, inside + "/link.txt", true), "");
  EXPECT_NE(refusal(rw, inside + "/door/secret.txt", false), "");
  EXPECT_NE(refusal(rw, inside + "/door/new.npy", true), "");
  // A link that stays inside is fine; so is an allowed folder reached through a link.
  fs::create_symlink(inside + "/ok.txt", inside + "/sub/inner.txt");
  EXPECT_EQ(refusal(rw, inside + "/sub/inner.txt", false), "");
  fs::create_directory_symlink(inside, root.file("alias"));
  EXPECT_EQ(refusal(FilePolicy{FilePolicy::Access::ReadWrite, {root.file("alias")}},
                    inside + "/ok.txt", false),
            "");
}

TEST_F(PolicyTest, RelativePathsResolveFromTheWorkingDirectory) {
  fs::path cwd = fs::current_path();
  fs::current_path(inside);
  FilePolicy rw{FilePolicy::Access::ReadWrite, {"."}};
  EXPECT_EQ(refusal(rw, "ok.txt", false), "");
  EXPECT_NE(refusal(rw, "../allowed-not/secret.txt", false), "");
  fs::current_path(cwd);
}

/// A script run under `policy`; the first line of its diagnostic, or "" when it succeeds.
std::string runUnder(const FilePolicy& policy, const std::string& code) {
  interp::InterpreterOptions o;
  o.files = policy;
  interp::Interpreter vm(o);
  std::ostringstream out;
  vm.setOutput(&out);
  try {
    vm.runSource("<test>", code);
  } catch (const interp::ScriptError& e) {
    std::string d = interp::formatDiagnostic(e, vm.sources());
    return d.substr(0, d.find('\n'));
  }
  return "";
}

TEST_F(PolicyTest, ScriptsGetAnIOErrorNamingPathAndPolicy) {
  FilePolicy ro{FilePolicy::Access::ReadOnly, {inside}};
  EXPECT_EQ(runUnder(ro, "let s = read_text(\"" + inside + "/ok.txt\")"), "");
  std::string e = runUnder(ro, "write_text(\"" + inside + "/w.txt\", \"x\")");
  EXPECT_NE(e.find("IOError: '" + inside + "/w.txt': cannot write " + inside +
                   "/w.txt: outside the file policy (read-only under " + inside + ")"),
            std::string::npos)
      << e;
  EXPECT_FALSE(fs::exists(inside + "/w.txt"));
  e = runUnder(ro, "read_lines(\"" + inside + "/../allowed-not/secret.txt\")");
  EXPECT_NE(e.find("IOError"), std::string::npos) << e;
  // The embedding default: nothing.
  e = runUnder(FilePolicy{}, "load(\"" + inside + "/x.npy\")");
  EXPECT_NE(e.find("outside the file policy (no file access)"), std::string::npos) << e;
}

TEST(CommandLine, AllowFilesNarrowsTheTesselCommand) {
  ScratchDir dir;
  const std::string inside = dir.file("a.npy");
  auto run = [&](const std::string& args) { return tessel::io_testing::runTessel(dir, args); };
  auto [rc, out] = run("--allow-files " + dir.path().string() + " -c 'save(\"" + inside +
                       "\", tensor([1.0]))\nprint(load(\"" + inside + "\"))'");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out, "tensor([1.])\n");
  std::tie(rc, out) =
      run("--allow-files " + dir.path().string() + " -c 'read_text(\"/etc/hostname\")'");
  EXPECT_EQ(rc, 1);
  EXPECT_NE(out.find("IOError"), std::string::npos) << out;
  EXPECT_NE(out.find("read-write under " + dir.path().string()), std::string::npos) << out;
  // Without the option, any file.
  std::tie(rc, out) = run("-c 'print(len(read_text(\"" + inside + "\")) > 0)'");
  EXPECT_EQ(rc, 0) << out;
}

}  // namespace
