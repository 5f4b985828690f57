// Opening plain and confined file references (file_ref.h).
#include "backends/io/file_ref.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "backends/io/io_error.h"
#include "backends/io/open_beneath.h"

namespace tessel::backends::io {

/// The open folder a confined reference stays beneath.
class FileRef::Folder {
 public:
  explicit Folder(int fd) : fd(fd) {}
  ~Folder() { ::close(fd); }
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  const int fd;
};

namespace {

/// `path` split at its last slash: what comes before ("" when there is no slash, "/" for a
/// file at the root) and the last component.
std::pair<std::string, std::string> splitLast(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {"", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

int openPlain(const std::string& path, int flags, mode_t mode) {
  int fd;
  do fd = ::open(path.c_str(), flags, mode);
  while (fd < 0 && errno == EINTR);
  return fd;
}

}  // namespace

FileRef::FileRef(std::string path) : rel_(path), shown_(std::move(path)) {}

FileRef FileRef::beneath(int folderFd, std::string rel, std::string shown, std::string asked,
                         std::string refusal) {
  FileRef ref(std::move(shown));
  ref.folder_ = std::make_shared<const Folder>(folderFd);
  ref.rel_ = std::move(rel);
  ref.asked_ = std::move(asked);
  ref.refusal_ = std::move(refusal);
  return ref;
}

int FileRef::open(int flags, mode_t mode) const {
  if (!folder_) return openPlain(rel_, flags, mode);
  return openBeneath(folder_->fd, rel_, flags, mode);
}

int FileRef::openFolder(int flags) const {
  std::string dir = splitLast(rel_).first;
  if (!folder_) return openPlain(dir.empty() ? "." : dir, flags, 0);
  return openBeneath(folder_->fd, dir, flags);  // "": the folder itself
}

std::string FileRef::leaf() const {
  std::string leaf = splitLast(rel_).second;
  return leaf.empty() ? "." : leaf;
}

void FileRef::fail(const std::string& action, int err) const {
  // EXDEV and ELOOP are how an open beneath the folder says a step would leave it (Note
  // [Opening beneath a folder]); a plain path has no folder to leave.
  if (folder_ && (err == EXDEV || err == ELOOP)) ioError(asked_, refusal_);
  systemError(shown_, action, err);
}

}  // namespace tessel::backends::io
