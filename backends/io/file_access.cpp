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
#include <fstream>

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

InputFile::InputFile(const std::string& path) : path_(path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
  do fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) systemError(path, "open", errno);
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

std::string readWholeFile(const std::string& path) {
  InputFile in(path);
  std::string out;
  out.resize(static_cast<size_t>(in.size()));
  size_t got = in.read(out.data(), out.size());
  out.resize(got);
  // A file that grew since fstat: read what is there now.
  char buf[65536];
  while (size_t k = in.read(buf, sizeof buf)) out.append(buf, k);
  return out;
}

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path) {
  InputFile in(path);
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

/// The process's umask, read without changing it (umask(2) would race with other threads).
mode_t currentUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  return 022;
}

std::string parentOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    ioError(path, "is a directory, not a file");
  // A symbolic link to a file: replace the file it names (as open() would write through it),
  // not the link.
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    if (char* target = ::realpath(path.c_str(), nullptr)) {
      path_ = target;
      std::free(target);
    }
  }
  std::string dir = parentOf(path_);
  std::string base = path_.substr(path_.find_last_of('/') + 1);
  temp_ = (dir == "/" ? "" : dir) + "/." + base + ".tmp-XXXXXX";
  fd_ = ::mkostemp(temp_.data(), O_CLOEXEC);
  if (fd_ < 0) {
    int err = errno;
    temp_.clear();
    systemError(path, "write", err);
  }
  ::fchmod(fd_, 0666 & ~currentUmask());
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
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
  if (::rename(temp_.c_str(), path_.c_str()) != 0) systemError(path_, "replace", errno);
  committed_ = true;
  int dir = ::open(parentOf(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);  // best effort: some file systems cannot sync a folder
    ::close(dir);
  }
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
  AtomicFile f(path);
  f.write(bytes);
  f.commit();
}

}  // namespace tessel::backends::io
