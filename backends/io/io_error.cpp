// Error messages for file operations (io_error.h).
#include "backends/io/io_error.h"

#include <cstring>

#include "shapes/user_error.h"

namespace tessel::backends::io {

void ioError(const std::string& path, const std::string& what) {
  throwUserError(ErrorKind::IOError, "'" + path + "': " + what);
}

void systemError(const std::string& path, const std::string& action, int err) {
  throwUserError(ErrorKind::IOError, "cannot " + action + " '" + path + "': " + std::strerror(err));
}

void badFile(const std::string& path, const std::string& format, const std::string& what) {
  throwUserError(ErrorKind::ValueError,
                 "'" + path + "' is not a valid " + format + " file: " + what);
}

void badValue(const std::string& path, const std::string& what) {
  throwUserError(ErrorKind::ValueError, "'" + path + "': " + what);
}

void overflowingValue(const std::string& path, const std::string& what) {
  throwUserError(ErrorKind::OverflowError, "'" + path + "': " + what);
}

}  // namespace tessel::backends::io
