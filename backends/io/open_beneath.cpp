// openat2 with RESOLVE_BENEATH, and the openat walk where it is missing (open_beneath.h).
#include "backends/io/open_beneath.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace tessel::backends::io {

namespace {

int openat2Call(int dirfd, const char* path, open_how& how) {
  return static_cast<int>(::syscall(SYS_openat2, dirfd, path, &how, sizeof how));
}

/// Whether this kernel (and any seccomp filter around the process) lets openat2 through;
/// asked once, by opening "/" without restrictions.
bool haveOpenat2() {
  static const bool have = [] {
    open_how how{};
    how.flags = O_PATH | O_CLOEXEC;
    int fd = openat2Call(AT_FDCWD, "/", how);
    if (fd < 0) return false;
    ::close(fd);
    return true;
  }();
  return have;
}

int openatRetrying(int dirfd, const char* name, int flags, mode_t mode) {
  int fd;
  do fd = ::openat(dirfd, name, flags, mode);
  while (fd < 0 && errno == EINTR);
  return fd;
}

/// After an open with O_NOFOLLOW failed with `err`: ELOOP when `name` is a link (O_DIRECTORY
/// reports a link as ENOTDIR), `err` otherwise.
int linkAsLoop(int dirfd, const char* name, int err) {
  struct stat st {};
  if (err == ENOTDIR && ::fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISLNK(st.st_mode))
    return ELOOP;
  return err;
}

/// The components of `rel` that name something: empty ones (`a//b`) and `.` dropped.
std::vector<std::string> components(const std::string& rel) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= rel.size()) {
    size_t slash = rel.find('/', start);
    if (slash == std::string::npos) slash = rel.size();
    std::string part = rel.substr(start, slash - start);
    if (!part.empty() && part != ".") out.push_back(std::move(part));
    start = slash + 1;
  }
  return out;
}

/// Descriptors opened along the walk, closed when it ends; `..` closes the last one.
class WalkStack {
 public:
  explicit WalkStack(int root) : root_(root) {}
  ~WalkStack() {
    for (int fd : fds_) ::close(fd);
  }
  int top() const { return fds_.empty() ? root_ : fds_.back(); }
  void push(int fd) { fds_.push_back(fd); }
  /// False at the folder itself (a `..` there would leave it).
  bool pop() {
    if (fds_.empty()) return false;
    ::close(fds_.back());
    fds_.pop_back();
    return true;
  }

 private:
  int root_;
  std::vector<int> fds_;
};

int fail(int err) {
  errno = err;
  return -1;
}

}  // namespace

int openBeneathByWalk(int dirfd, const std::string& rel, int flags, mode_t mode) {
  if (!rel.empty() && rel[0] == '/') return fail(EXDEV);
  std::vector<std::string> parts = components(rel);
  // A trailing slash asks for a folder, as it does of open(2): "b/" is "b/.".
  if (!parts.empty() && rel.back() == '/') parts.push_back(".");
  WalkStack walk(dirfd);
  // Every component but the last is a folder to step into.
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i] == "..") {
      if (!walk.pop()) return fail(EXDEV);
      continue;
    }
    int fd = openatRetrying(walk.top(), parts[i].c_str(),
                            O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (fd < 0) return fail(linkAsLoop(walk.top(), parts[i].c_str(), errno));
    walk.push(fd);
  }
  const char* last = parts.empty() ? "." : parts.back().c_str();
  if (!parts.empty() && parts.back() == "..") {
    if (!walk.pop()) return fail(EXDEV);
    last = ".";
  }
  int fd = openatRetrying(walk.top(), last, flags | O_NOFOLLOW, mode);
  if (fd < 0) return fail(linkAsLoop(walk.top(), last, errno));
  struct stat st {};
  if ((flags & O_PATH) && ::fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
    ::close(fd);  // O_PATH | O_NOFOLLOW opens a link itself rather than refusing it
    return fail(ELOOP);
  }
  return fd;
}

int openBeneath(int dirfd, const std::string& rel, int flags, mode_t mode) {
  if (!haveOpenat2()) return openBeneathByWalk(dirfd, rel, flags, mode);
  open_how how{};
  how.flags = static_cast<uint64_t>(flags);
  // openat2 refuses a mode without a file to create (EINVAL).
  bool creates = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
  how.mode = creates ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  const char* path = rel.empty() ? "." : rel.c_str();
  // EAGAIN: a rename raced a `..` step; bounded, so that a busy folder cannot hold us here.
  for (int tries = 0;; ++tries) {
    int fd = openat2Call(dirfd, path, how);
    if (fd >= 0) return fd;
    if (errno == EINTR || (errno == EAGAIN && tries < 100)) continue;
    if (errno == ENOSYS) return openBeneathByWalk(dirfd, rel, flags, mode);
    return -1;
  }
}

}  // namespace tessel::backends::io
