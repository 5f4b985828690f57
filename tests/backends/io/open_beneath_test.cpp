// Opening beneath a folder (Note [Opening beneath a folder]): `..`, absolute paths, absolute
// links and links out are refused by openat2 and by the walk that stands in for it; and
// through the file policy, a link swapped in a loop while another thread reads or writes
// never lets a read return, or a write reach, a file outside the allowed folder.
#include "backends/io/open_beneath.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>  // renameat2
#include <filesystem>
#include <thread>

#include "backends/io/file_policy.h"
#include "backends/io/text.h"
#include "io_test_util.h"
#include "shapes/user_error.h"

namespace fs = std::filesystem;
using namespace tessel;
using backends::io::checkAccess;
using backends::io::FilePolicy;
using tessel::io_testing::readBytes;
using tessel::io_testing::ScratchDir;
using tessel::io_testing::writeBytes;

namespace {

using OpenFn = int (*)(int, const std::string&, int, mode_t);

/// A folder `allowed` (ok.txt, sub/inner.txt) beside a folder `outside` (secret.txt), and
/// links in `allowed` of every kind.
struct Folders {
  ScratchDir root;
  std::string inside = root.file("allowed"), outside = root.file("outside");
  int dirfd = -1;
  Folders() {
    fs::create_directories(inside + "/sub");
    fs::create_directories(outside);
    writeBytes(inside + "/ok.txt", "ok");
    writeBytes(inside + "/sub/inner.txt", "inner");
    writeBytes(outside + "/secret.txt", "secret");
    fs::create_symlink(outside + "/secret.txt", inside + "/abs-out");
    fs::create_symlink(inside + "/ok.txt", inside + "/abs-in");
    fs::create_directory_symlink(outside, inside + "/abs-dir");
    fs::create_symlink("../outside/secret.txt", inside + "/rel-out");
    fs::create_directory_symlink("..", inside + "/up");
    fs::create_symlink("ok.txt", inside + "/rel-in");
    dirfd = ::open(inside.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  }
  ~Folders() { ::close(dirfd); }
};

/// What opening `rel` beneath the folder gives: the file's bytes, or the name of the errno
/// ("EXDEV", "ELOOP", "ENOENT"; "other" for the rest).
std::string openAndRead(OpenFn open, int dirfd, const std::string& rel) {
  int fd = open(dirfd, rel, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0) {
    int err = errno;
    return err == EXDEV ? "EXDEV" : err == ELOOP ? "ELOOP" : err == ENOENT ? "ENOENT" : "other";
  }
  char buf[64];
  ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  return n < 0 ? "read failed" : std::string(buf, static_cast<size_t>(n));
}

class OpenBeneath : public ::testing::TestWithParam<bool> {
 protected:
  bool walk() const { return GetParam(); }
  OpenFn fn() const {
    return walk() ? &backends::io::openBeneathByWalk : &backends::io::openBeneath;
  }
};

TEST_P(OpenBeneath, OpensWhatIsInside) {
  Folders f;
  EXPECT_EQ(openAndRead(fn(), f.dirfd, "ok.txt"), "ok");
  EXPECT_EQ(openAndRead(fn(), f.dirfd, "./sub//inner.txt"), "inner");
  EXPECT_EQ(openAndRead(fn(), f.dirfd, "sub/../ok.txt"), "ok");
  EXPECT_EQ(openAndRead(fn(), f.dirfd, "none.txt"), "ENOENT");
  for (const char* self : {"", ".", "sub/.."}) {
    int fd = fn()(f.dirfd, self, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    EXPECT_GE(fd, 0) << "'" << self << "'";
    if (fd >= 0) ::close(fd);
  }
  // Creating a file works as openat's O_CREAT does.
  int fd = fn()(f.dirfd, "sub/new.txt", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  EXPECT_GE(fd, 0);
  if (fd >= 0) ::close(fd);
  EXPECT_TRUE(fs::exists(f.inside + "/sub/new.txt"));
}

TEST_P(OpenBeneath, DotDotAndAbsolutePathsAreRefused) {
  Folders f;
  for (const char* rel : {"..", "../outside/secret.txt", "sub/../../outside/secret.txt",
                          "sub/../sub/../../allowed/ok.txt"})
    EXPECT_EQ(openAndRead(fn(), f.dirfd, rel), "EXDEV") << rel;
  const std::string absolute = f.outside + "/secret.txt";
  EXPECT_EQ(openAndRead(fn(), f.dirfd, absolute), "EXDEV");
  EXPECT_EQ(openAndRead(fn(), f.dirfd, f.inside + "/ok.txt"), "EXDEV");  // even inside
}

TEST_P(OpenBeneath, LinksOutAndAbsoluteLinksAreRefused) {
  Folders f;
  // Refused as EXDEV by openat2 and as ELOOP by the walk (which follows no link): either way
  // the open fails and never reads the outside file.
  auto refused = [](const std::string& got) { return got == "EXDEV" || got == "ELOOP"; };
  for (const char* rel : {"abs-out", "abs-in", "abs-dir/secret.txt", "rel-out",
                          "up/outside/secret.txt", "sub/../abs-dir/secret.txt"})
    EXPECT_PRED1(refused, openAndRead(fn(), f.dirfd, rel)) << rel;
  // No file is created through a link out either.
  int fd = fn()(f.dirfd, "abs-dir/new.txt", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  EXPECT_LT(fd, 0);
  EXPECT_FALSE(fs::exists(f.outside + "/new.txt"));
  // A relative link that stays inside: openat2 follows it, the walk refuses it.
  EXPECT_EQ(openAndRead(fn(), f.dirfd, "rel-in"), walk() ? "ELOOP" : "ok");
}

TEST_P(OpenBeneath, MagicLinksAreRefused) {
  // /proc/self/root is a "magic" link (it names a file by a process's state, not by a path).
  int proc = ::open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0) GTEST_SKIP() << "no /proc";
  EXPECT_EQ(openAndRead(fn(), proc, "root/etc/hostname"), "ELOOP");
  ::close(proc);
}

INSTANTIATE_TEST_SUITE_P(Both, OpenBeneath, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? std::string("Walk") : std::string("Openat2");
                         });

/// Swaps two names (a folder or file inside and a link out) in a loop on its own thread,
/// each exchange atomic (renameat2's RENAME_EXCHANGE), until it is destroyed.
class Swapper {
 public:
  Swapper(std::string a, std::string b) : a_(std::move(a)), b_(std::move(b)) {
    supported_ = exchange();
    if (supported_)
      thread_ = std::thread([this] {
        while (!stop_.load(std::memory_order_relaxed)) exchange(), ++swaps_;
      });
  }
  ~Swapper() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  bool supported() const { return supported_; }
  long swaps() const { return swaps_; }

 private:
  bool exchange() {
    return ::renameat2(AT_FDCWD, a_.c_str(), AT_FDCWD, b_.c_str(), RENAME_EXCHANGE) == 0;
  }
  std::string a_, b_;
  bool supported_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<long> swaps_{0};
  std::thread thread_;
};

/// The descriptors this process has open.
size_t openDescriptors() {
  size_t n = 0;
  for (auto& e : fs::directory_iterator("/proc/self/fd")) (void)e, ++n;
  return n;
}

/// Runs `body` many times (or for about a second, whichever ends first); every descriptor
/// opened along the way, by reads and writes that succeed or are refused, is closed again.
template <class F>
void repeatedly(F&& body) {
  const size_t before = openDescriptors();
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  for (int i = 0; i < 20000 && std::chrono::steady_clock::now() < end; ++i) {
    body();
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(openDescriptors(), before) << "a descriptor leaked";
}

/// The race of Note [File policy]: `allowed/d` is a folder holding x.txt ("inside") one
/// moment and a link to the outside folder (whose x.txt says "secret") the next, so a check
/// can pass while the path is a folder and the open come while it is the link.
struct Race : ::testing::Test {
  ScratchDir root;
  std::string inside = root.file("allowed"), outside = root.file("outside");
  FilePolicy policy{FilePolicy::Access::ReadWrite, {inside}};
  Race() {
    fs::create_directories(inside + "/d");
    fs::create_directories(outside);
    writeBytes(inside + "/d/x.txt", "inside");
    writeBytes(inside + "/f.txt", "inside");
    writeBytes(outside + "/x.txt", "secret");
    fs::create_directory_symlink(outside, inside + "/d-out");
    fs::create_symlink(outside + "/x.txt", inside + "/f-out");
  }
  /// The names in the outside folder.
  std::vector<std::string> outsideNames() const {
    std::vector<std::string> out;
    for (auto& e : fs::directory_iterator(outside)) out.push_back(e.path().filename().string());
    return out;
  }
};

TEST_F(Race, ASwappedFolderNeverLetsAReadOut) {
  Swapper swap(inside + "/d", inside + "/d-out");
  if (!swap.supported()) GTEST_SKIP() << "the file system cannot exchange names atomically";
  long read = 0, refused = 0;
  repeatedly([&] {
    try {
      std::string text = backends::io::readText(checkAccess(policy, inside + "/d/x.txt", false));
      ASSERT_EQ(text, "inside") << "a read left the allowed folder";
      ++read;
    } catch (const UserError& e) {
      ASSERT_EQ(e.kind(), ErrorKind::IOError) << e.what();
      ++refused;
    }
  });
  RecordProperty("reads", std::to_string(read));
  RecordProperty("refused", std::to_string(refused));
  RecordProperty("swaps", std::to_string(swap.swaps()));
}

TEST_F(Race, ASwappedFileNeverLetsAReadOut) {
  Swapper swap(inside + "/f.txt", inside + "/f-out");
  if (!swap.supported()) GTEST_SKIP() << "the file system cannot exchange names atomically";
  repeatedly([&] {
    try {
      std::string text = backends::io::readText(checkAccess(policy, inside + "/f.txt", false));
      ASSERT_EQ(text, "inside") << "a read left the allowed folder";
    } catch (const UserError& e) {
      ASSERT_EQ(e.kind(), ErrorKind::IOError) << e.what();
    }
  });
}

TEST_F(Race, ASwappedFolderNeverLetsAWriteOut) {
  {
    Swapper swap(inside + "/d", inside + "/d-out");
    if (!swap.supported()) GTEST_SKIP() << "the file system cannot exchange names atomically";
    repeatedly([&] {
      try {
        backends::io::writeText(checkAccess(policy, inside + "/d/out.txt", true), "written");
      } catch (const UserError& e) {
        ASSERT_EQ(e.kind(), ErrorKind::IOError) << e.what();
      }
    });
  }
  // Neither the file nor a temporary file ever appeared outside.
  EXPECT_EQ(outsideNames(), std::vector<std::string>{"x.txt"});
  EXPECT_EQ(readBytes(outside + "/x.txt"), "secret");
}

TEST_F(Race, ASwappedFileNeverLetsAWriteOut) {
  {
    Swapper swap(inside + "/f.txt", inside + "/f-out");
    if (!swap.supported()) GTEST_SKIP() << "the file system cannot exchange names atomically";
    repeatedly([&] {
      try {
        backends::io::writeText(checkAccess(policy, inside + "/f.txt", true), "written");
      } catch (const UserError& e) {
        ASSERT_EQ(e.kind(), ErrorKind::IOError) << e.what();
      }
    });
  }
  // A link that turned up at the last component was replaced, not written through.
  EXPECT_EQ(outsideNames(), std::vector<std::string>{"x.txt"});
  EXPECT_EQ(readBytes(outside + "/x.txt"), "secret");
}

TEST_F(Race, TheWalkRefusesASwappedFolderToo) {
  // The same race below the policy, for the walk used where openat2 is missing.
  Swapper swap(inside + "/d", inside + "/d-out");
  if (!swap.supported()) GTEST_SKIP() << "the file system cannot exchange names atomically";
  int dirfd = ::open(inside.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dirfd, 0);
  repeatedly([&] {
    std::string got = openAndRead(&backends::io::openBeneathByWalk, dirfd, "d/x.txt");
    ASSERT_NE(got, "secret");
  });
  ::close(dirfd);
}

TEST(FilePolicyErrors, ARefusedOpenSaysWhatTheCheckSays) {
  // A link that appears after the check is refused with the check's own message.
  ScratchDir root;
  const std::string inside = root.file("allowed"), outside = root.file("outside");
  fs::create_directories(inside + "/d");
  fs::create_directories(outside);
  writeBytes(outside + "/x.txt", "secret");
  FilePolicy ro{FilePolicy::Access::ReadOnly, {inside}};
  backends::io::FileRef ref = checkAccess(ro, inside + "/d/x.txt", false);
  fs::remove(inside + "/d");
  fs::create_directory_symlink(outside, inside + "/d");
  try {
    backends::io::readText(ref);
    FAIL() << "read the outside file";
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::IOError);
    EXPECT_EQ(std::string(e.what()), "'" + inside + "/d/x.txt': cannot read " + inside +
                                         "/d/x.txt: outside the file policy (read-only under " +
                                         inside + ")");
  }
}

}  // namespace
