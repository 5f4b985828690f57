// The ways a file operation fails (docs/language.md, "Errors"): IOError when the file cannot
// be reached (missing, a directory, no permission, outside the file policy, a full disk),
// ValueError when its bytes are wrong (truncated, a header that lies, a dtype Tessel cannot
// hold), OverflowError when a value is out of the range of the dtype it loads into. Every
// message names the file.
#pragma once

#include <string>

namespace tessel::backends::io {

/// IOError: `'path': what`.
[[noreturn]] void ioError(const std::string& path, const std::string& what);
/// IOError for a failed system call: `cannot ACTION 'path': strerror(err)`.
[[noreturn]] void systemError(const std::string& path, const std::string& action, int err);
/// ValueError: `'path' is not a valid FORMAT file: what`.
[[noreturn]] void badFile(const std::string& path, const std::string& format,
                          const std::string& what);
/// ValueError for contents Tessel cannot represent (an unsupported dtype, a value out of
/// range): `'path': what`.
[[noreturn]] void badValue(const std::string& path, const std::string& what);
/// OverflowError for an element its dtype cannot represent: `'path': what`.
[[noreturn]] void overflowingValue(const std::string& path, const std::string& what);

}  // namespace tessel::backends::io
