// The file policy's check (Note [File policy] in file_policy.h).
#include "backends/io/file_policy.h"

#include <fcntl.h>

#include <cerrno>
#include <filesystem>
#include <optional>
#include <system_error>

#include "backends/io/io_error.h"

namespace tessel::backends::io {

namespace fs = std::filesystem;

namespace {

/// Absolute, with every existing link and `..` resolved; the rest normalized lexically.
fs::path resolve(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(fs::path(path), ec), ec);
  if (ec) systemError(path, "resolve", ec.value());
  return p.lexically_normal();
}

/// What is left of `p` past `folder` ("." for the folder itself) when `p` is `folder` or lies
/// under it, whole components compared; nothing otherwise.
std::optional<std::string> pathBeneath(const fs::path& p, const fs::path& folder) {
  auto f = folder.begin(), q = p.begin();
  for (; f != folder.end(); ++f) {
    if (f->empty()) continue;  // the empty last component of "/data/"
    if (q == p.end() || *q != *f) return std::nullopt;
    ++q;
  }
  fs::path rest;
  for (; q != p.end(); ++q) rest /= *q;
  return rest.empty() ? "." : rest.string();
}

}  // namespace

std::string FilePolicy::describe() const {
  switch (access) {
    case Access::None:
      return "no file access";
    case Access::All:
      return "any file";
    case Access::ReadOnly:
    case Access::ReadWrite:
      break;
  }
  std::string s = access == Access::ReadOnly ? "read-only under " : "read-write under ";
  if (folders.empty()) return s + "no folder";
  for (size_t i = 0; i < folders.size(); ++i) s += (i ? ", " : "") + folders[i];
  return s;
}

FileRef checkAccess(const FilePolicy& policy, const std::string& path, bool write) {
  if (path.empty()) ioError(path, "an empty path");
  if (path.find('\0') != std::string::npos) ioError(path, "a path with a NUL character");
  if (policy.access == FilePolicy::Access::All) return FileRef(path);
  fs::path resolved = resolve(path);
  const std::string refusal = std::string("cannot ") + (write ? "write" : "read") + " " +
                              resolved.string() + ": outside the file policy (" +
                              policy.describe() + ")";
  if (policy.access == FilePolicy::Access::ReadWrite ||
      (policy.access == FilePolicy::Access::ReadOnly && !write)) {
    for (const std::string& folder : policy.folders) {
      fs::path root = resolve(folder);
      std::optional<std::string> rel = pathBeneath(resolved, root);
      if (!rel) continue;
      // The folder as a descriptor: the open beneath it is what enforces the check (Note
      // [Opening beneath a folder]); O_PATH, as only lookups go through it.
      int fd;
      do fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
      while (fd < 0 && errno == EINTR);
      if (fd < 0) systemError(resolved.string(), write ? "write" : "open", errno);
      return FileRef::beneath(fd, *rel, resolved.string(), path, refusal);
    }
  }
  ioError(path, refusal);
}

}  // namespace tessel::backends::io
