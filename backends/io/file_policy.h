// Who may touch files (docs/tensors.md, "Files"; Note [File policy]): the interpreter checks
// every path a script reads or writes against its FilePolicy before opening it.
#pragma once

#include <string>
#include <vector>

namespace tessel::backends::io {

// Note [File policy]
// An app that embeds Tessel to run scripts it did not write decides what they may touch:
// nothing (the embedding API's default), reading or reading and writing under a list of
// folders, or everything (the `tessel` command's default, narrowed by --allow-files DIR). The
// check resolves the path first, as the system will when it opens it: relative to the
// working directory, every symbolic link and `..` followed (the part that does not exist yet,
// a file about to be written, is normalized lexically), and compares whole components, so
// `/data-old` is not under `/data`. A path outside is an IOError naming the path and the
// policy. The check and the open are two steps: a script cannot swap a link in between, but
// another process with write access to an allowed folder could; the policy is meant to keep
// scripts in their folders, not to stand in for the operating system's permissions.
struct FilePolicy {
  enum class Access { None, ReadOnly, ReadWrite, All };
  Access access = Access::None;
  /// The folders reads (and with ReadWrite, writes) may reach; unused for None and All.
  std::vector<std::string> folders;

  static FilePolicy all() { return {Access::All, {}}; }
  /// "no file access", "read-only under /a, /b", "read-write under /a", "any file".
  std::string describe() const;
};

/// The path resolved (absolute, links and `..` followed) after checking that the policy lets
/// a script read it (`write` false) or write it; IOError naming the path and the policy
/// otherwise.
std::string checkAccess(const FilePolicy& policy, const std::string& path, bool write);

}  // namespace tessel::backends::io
