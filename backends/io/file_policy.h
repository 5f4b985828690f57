// Who may touch files (docs/tensors.md, "Files"; Note [File policy]): the interpreter checks
// every path a script reads or writes against its FilePolicy, and opens it only beneath the
// allowed folder the check found.
#pragma once

#include <string>
#include <vector>

#include "backends/io/file_ref.h"

namespace tessel::backends::io {

// Note [File policy]
// An app that embeds Tessel to run scripts it did not write decides what they may touch:
// nothing (the embedding API's default), reading or reading and writing under a list of
// folders, or everything (the `tessel` command's default, narrowed by --allow-files DIR). The
// check resolves the path first, as the system will when it opens it: relative to the
// working directory, every symbolic link and `..` followed (the part that does not exist yet,
// a file about to be written, is normalized lexically), and compares whole components, so
// `/data-old` is not under `/data`. A path outside is an IOError naming the path and the
// policy.
//
// Checking and opening are one step. The check opens the allowed folder that holds the
// resolved path as a descriptor and hands back a FileRef naming the rest relative to it; the
// readers and writers open through that reference, and the kernel refuses any step that would
// leave the folder (Note [Opening beneath a folder]). So a symbolic link swapped into the
// path after the check, by another process that can write in the folder, is refused with the
// same IOError as a path outside, never followed out: a read never returns, and a write never
// creates or replaces, a file outside the allowed folders. Links inside that the check
// followed keep working, absolute or relative, as the reference names what they led to; a
// link that turns up later is followed only if it is relative and stays inside (and not at
// all where openat2 is missing). What the policy does not confine is the way to the allowed
// folders themselves: they are opened by their own paths at each access, so the folders above
// them are the app's to keep; and under "any file" paths are opened as they are. The policy
// judges names, not files: a hard link made inside a folder is a file of that folder. It
// keeps scripts in their folders; it does not stand in for the operating system's
// permissions.
struct FilePolicy {
  enum class Access { None, ReadOnly, ReadWrite, All };
  Access access = Access::None;
  /// The folders reads (and with ReadWrite, writes) may reach; unused for None and All.
  std::vector<std::string> folders;

  static FilePolicy all() { return {Access::All, {}}; }
  /// "no file access", "read-only under /a, /b", "read-write under /a", "any file".
  std::string describe() const;
};

/// The file to open, after checking that the policy lets a script read it (`write` false) or
/// write it; IOError naming the path and the policy otherwise. With folders, the reference is
/// the resolved path (absolute, links and `..` followed, as errors name it) beneath the open
/// allowed folder that holds it, so opening it cannot leave that folder; under "any file", the
/// path as given, opened plainly.
FileRef checkAccess(const FilePolicy& policy, const std::string& path, bool write);

}  // namespace tessel::backends::io
