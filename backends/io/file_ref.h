// What the readers and writers open: a plain path, or a path beneath a folder that the file
// policy opened, which no open through it may leave (Note [Opening beneath a folder]).
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

namespace tessel::backends::io {

/// A file to open and the name errors give it. Copies share the folder's descriptor, which is
/// closed with the last of them.
class FileRef {
 public:
  /// A plain path, opened as the system opens it (links and `..` followed wherever they
  /// lead) and named by it in errors. Implicit: where no policy applies (C++ callers, the
  /// embedding API's tessel::load), a path is all a reader or writer needs.
  FileRef(std::string path);                                 // NOLINT(google-explicit-constructor)
  FileRef(const char* path) : FileRef(std::string(path)) {}  // NOLINT
  /// `rel` beneath the folder open as `folderFd` (taken over), named `shown` in errors. An
  /// open that would leave the folder fails with the IOError `'asked': refusal`, what the
  /// file policy says of a path outside it.
  static FileRef beneath(int folderFd, std::string rel, std::string shown, std::string asked,
                         std::string refusal);

  /// What errors name: the path as the script wrote it, or as the policy resolved it.
  const std::string& name() const { return shown_; }
  /// True when opens are confined to a folder.
  bool confined() const { return folder_ != nullptr; }

  /// open(2) of the file with `flags` and `mode`: a descriptor, or -1 with errno set.
  int open(int flags, mode_t mode = 0) const;
  /// open(2) of the folder that holds the file (confined as the file is): -1 with errno.
  int openFolder(int flags) const;
  /// The file's last component, its name in that folder ("." for a folder itself).
  std::string leaf() const;
  /// The IOError for an open that failed with `err`: the policy's refusal when the open
  /// would have left the folder, `cannot ACTION 'name': reason` otherwise.
  [[noreturn]] void fail(const std::string& action, int err) const;

 private:
  class Folder;
  std::shared_ptr<const Folder> folder_;  ///< null for a plain path
  std::string rel_;                       ///< the path, relative to the folder when there is one
  std::string shown_, asked_, refusal_;
};

}  // namespace tessel::backends::io
