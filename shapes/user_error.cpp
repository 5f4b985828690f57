// Names of error kinds and the internal-assert failure path.
#include "shapes/user_error.h"

#include <cstdio>
#include <cstdlib>

namespace tessel {

std::string_view errorKindName(ErrorKind kind) {
  switch (kind) {
#define TESSEL_X(k) \
  case ErrorKind::k: \
    return #k;
    TESSEL_ERROR_KINDS(TESSEL_X)
#undef TESSEL_X
  }
  return "Error";
}

std::optional<ErrorKind> errorKindFromName(std::string_view name) {
#define TESSEL_X(k) \
  if (name == #k) return ErrorKind::k;
  TESSEL_ERROR_KINDS(TESSEL_X)
#undef TESSEL_X
  return std::nullopt;
}

std::string errorKindNames() {
  std::string out;
#define TESSEL_X(k) out += std::string(out.empty() ? "" : ", ") + #k;
  TESSEL_ERROR_KINDS(TESSEL_X)
#undef TESSEL_X
  return out;
}

void throwUserError(ErrorKind kind, std::string message) {
  throw UserError(kind, std::move(message));
}

void internalAssertFail(const char* cond, const char* file, int line,
                        const std::string& message) {
  throw InternalError("internal error (a bug in Tessel): " + std::string(file) + ":" +
                      std::to_string(line) + ": " + cond + ": " + message);
}

}  // namespace tessel
