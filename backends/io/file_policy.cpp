// The file policy's check (Note [File policy] in file_policy.h).
#include "backends/io/file_policy.h"

#include <filesystem>
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

/// True when `p` is `folder` or lies under it (whole components compared).
bool within(const fs::path& p, const fs::path& folder) {
  auto f = folder.begin(), q = p.begin();
  for (; f != folder.end(); ++f, ++q) {
    if (f->empty()) continue;  // the empty last component of "/data/"
    if (q == p.end() || *q != *f) return false;
  }
  return true;
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

std::string checkAccess(const FilePolicy& policy, const std::string& path, bool write) {
  if (path.empty()) ioError(path, "an empty path");
  if (path.find('\0') != std::string::npos) ioError(path, "a path with a NUL character");
  fs::path resolved = resolve(path);
  bool allowed = policy.access == FilePolicy::Access::All;
  if (policy.access == FilePolicy::Access::ReadWrite ||
      (policy.access == FilePolicy::Access::ReadOnly && !write)) {
    for (const std::string& folder : policy.folders)
      if (within(resolved, resolve(folder))) allowed = true;
  }
  if (!allowed)
    ioError(path, std::string("cannot ") + (write ? "write" : "read") + " " + resolved.string() +
                      ": outside the file policy (" + policy.describe() + ")");
  return resolved.string();
}

}  // namespace tessel::backends::io
