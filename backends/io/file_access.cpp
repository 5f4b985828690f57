// Files read whole, mapped, or written atomically (file_access.h).
#include "backends/io/file_access.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "backends/io/io_error.h"

namespace tessel::backends::io {

void readExact(ByteSource& src, void* dst, size_t n, const std::string& format,
               const std::string& what) {
  auto* out = static_cast<std::byte*>(dst);
  size_t got = 0;
  while (got < n) {
    size_t k = src.read(out + got, n - got);
    if (k == 0)
      badFile(src.name(), format,
              "truncated: " + what + " needs " + std::to_string(n) + " bytes, " +
                  std::to_string(got) + " are left");
    got += k;
  }
}

InputFile::InputFile(const FileRef& file) : path_(file.name()) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
  fd_ = file.open(O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) file.fail("open", errno);
  const std::string& path = path_;
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    int err = errno;
    ::close(fd_);
    systemError(path, "stat", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    ioError(path, S_ISDIR(st.st_mode) ? "is a directory, not a file" : "is not a regular file");
  }
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
  size_ = static_cast<uint64_t>(st.st_size);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

int InputFile::release() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

size_t InputFile::read(void* dst, size_t n) {
  size_t got = 0;
  auto* out = static_cast<char*>(dst);
  while (got < n) {
    ssize_t k = ::read(fd_, out + got, std::min<size_t>(n - got, size_t{1} << 30));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) systemError(path_, "read", errno);
    if (k == 0) break;
    got += static_cast<size_t>(k);
  }
  return got;
}

size_t MemorySource::read(void* dst, size_t n) {
  n = std::min(n, bytes_.size() - pos_);
  if (n) std::memcpy(dst, bytes_.data() + pos_, n);
  pos_ += n;
  return n;
}

std::string readWholeFile(const FileRef& file) {
  InputFile in(file);
  std::string out;
  out.resize(static_cast<size_t>(in.size()));
  size_t got = in.read(out.data(), out.size());
  out.resize(got);
  // A file that grew since fstat: read what is there now.
  char buf[65536];
  while (size_t k = in.read(buf, sizeof buf)) out.append(buf, k);
  return out;
}

std::shared_ptr<MappedFile> MappedFile::open(const FileRef& file) {
  InputFile in(file);
  const std::string& path = in.name();
  std::shared_ptr<MappedFile> m(new MappedFile);
  m->path_ = path;
  m->size_ = static_cast<size_t>(in.size());
  if (m->size_ == 0) return m;
  void* p = ::mmap(nullptr, m->size_, PROT_READ, MAP_PRIVATE, in.fd(), 0);
  if (p == MAP_FAILED) systemError(path, "map", errno);
  m->data_ = static_cast<std::byte*>(p);
  return m;  // the mapping outlives the descriptor
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(data_, size_);
}

namespace {

/// The plain path itself, or for a symbolic link the file it names, so that a save through a
/// link replaces its target. A confined reference stays as it is (Note [Atomic writes]).
FileRef throughLink(const FileRef& file) {
  struct stat st {};
  if (file.confined() || ::lstat(file.name().c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
    return file;
  char* target = ::realpath(file.name().c_str(), nullptr);
  if (!target) return file;  // a dangling link: replaced itself
  FileRef resolved(std::string{target});
  std::free(target);
  return resolved;
}

/// `.NAME.tmp-XXXXXX` with six random letters and digits.
std::string temporaryName(const std::string& leaf) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device random;
  std::string name = "." + leaf + ".tmp-";
  for (int i = 0; i < 6; ++i) name += kChars[random() % (sizeof kChars - 1)];
  return name;
}

}  // namespace

AtomicFile::AtomicFile(const FileRef& file) : path_(file.name()) {
  try {
    create(file);
  } catch (...) {
    if (dir_ >= 0) ::close(dir_);  // no destructor runs for a constructor that throws
    throw;
  }
}

void AtomicFile::create(const FileRef& file) {
  FileRef target = throughLink(file);
  // Read access lets the folder be synced; a folder we may write but not read (mode -wx)
  // still takes the file, unsynced.
  dir_ = target.openFolder(O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_ < 0 && errno == EACCES) dir_ = target.openFolder(O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir_ < 0) target.fail("write", errno);
  leaf_ = target.leaf();
  struct stat st {};
  if (::fstatat(dir_, leaf_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
    ioError(path_, "is a directory, not a file");
  path_ = target.name();
  // O_EXCL: a fresh file, never one planted under the name (nor a link's target); mode 0666
  // so that the umask and any default ACL of the folder apply as for a plain open().
  for (int tries = 0; fd_ < 0; ++tries) {
    std::string name = temporaryName(leaf_);
    do fd_ = ::openat(dir_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    while (fd_ < 0 && errno == EINTR);
    if (fd_ >= 0)
      temp_ = std::move(name);
    else if (errno != EEXIST || tries == 100)
      systemError(file.name(), "write", errno);
  }
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlinkat(dir_, temp_.c_str(), 0);
  if (dir_ >= 0) ::close(dir_);
}

void AtomicFile::write(const void* data, size_t n) {
  // In 16 MiB pieces, each handed to the disk as soon as it is written (sync_file_range starts
  // the writeback without waiting for it): the copy into the page cache and the disk's writes
  // overlap, and commit()'s fsync waits for the last pieces only. One big write() and an fsync
  // took about twice as long for 1 GiB (docs/perf.md, "Files").
  constexpr size_t kPiece = size_t{16} << 20;
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t k = ::write(fd_, p, std::min(n, kPiece));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) systemError(path_, "write", errno);
    if (static_cast<size_t>(k) == kPiece)
      ::sync_file_range(fd_, static_cast<off64_t>(written_), k, SYNC_FILE_RANGE_WRITE);
    written_ += static_cast<uint64_t>(k);
    p += k;
    n -= static_cast<size_t>(k);
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) systemError(path_, "write", errno);
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) systemError(path_, "write", errno);
  if (::renameat(dir_, temp_.c_str(), dir_, leaf_.c_str()) != 0)
    systemError(path_, "replace", errno);
  committed_ = true;
  ::fsync(dir_);  // best effort: some file systems cannot sync a folder (nor can an O_PATH one)
}

void writeFileAtomically(const FileRef& file, std::string_view bytes) {
  AtomicFile f(file);
  f.write(bytes);
  f.commit();
}

}  // namespace tessel::backends::io
