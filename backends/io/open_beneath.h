// Opening a path inside an open folder so that no step of it leaves the folder, whatever
// links or `..` it meets (Note [Opening beneath a folder]).
#pragma once

#include <sys/types.h>

#include <string>

namespace tessel::backends::io {

// Note [Opening beneath a folder]
// The file policy (Note [File policy]) confines a script to folders. Checking a path and then
// opening it by name leaves a window: a symbolic link swapped into the path in between (by
// another process with write access to the folder) takes the open somewhere else. So the
// folder is opened first, as a descriptor, and the file is opened relative to it in one step
// that the kernel itself confines: openat2() with RESOLVE_BENEATH (no step may leave the
// folder: a `..` above it, an absolute path or an absolute link fails with EXDEV, and so does
// a relative link whose target lies outside) and RESOLVE_NO_MAGICLINKS (no /proc/self/fd/N
// style links, which RESOLVE_BENEATH cannot judge: ELOOP). Relative links that stay inside
// are followed. The kernel may answer EAGAIN when a rename elsewhere races a `..` step; the
// open is simply tried again.
//
// openat2 came with Linux 5.6; where it is missing (ENOSYS, or a seccomp filter that refuses
// it) the same confinement is done by a walk: each directory component is opened with
// openat(O_PATH | O_DIRECTORY | O_NOFOLLOW) relative to the last, `..` pops back to the
// component before it (and at the folder itself is EXDEV), and the last component is opened
// with O_NOFOLLOW. The walk follows no link at all (ELOOP), not even one that stays inside:
// judging a link's target would mean resolving it by hand, a second resolver to get right.
// The file policy hands the open a path it has already resolved, with no links left in it,
// so the difference shows only when a link appears after the check, which is exactly the case
// to refuse.

/// Opens `rel` (relative; "" or "." is the folder itself) beneath the folder open as `dirfd`,
/// with open(2)'s `flags` and `mode`. The descriptor, or -1 with errno set: EXDEV when a step
/// would leave the folder, ELOOP for a link it may not follow, or what open(2) says.
int openBeneath(int dirfd, const std::string& rel, int flags, mode_t mode = 0);

/// What openBeneath does where openat2 is missing: the walk of the note. Public so that tests
/// run it on kernels that have openat2.
int openBeneathByWalk(int dirfd, const std::string& rel, int flags, mode_t mode = 0);

}  // namespace tessel::backends::io
