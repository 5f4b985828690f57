// UserError: the one channel for errors caused by the user's program or input (style.md,
// "user errors and internal bugs are two different channels"). Lower layers throw it with a
// kind and a message; interp/ attaches the source span once, where the error crosses into the
// evaluator. Internal bugs use TESSEL_ASSERT instead and never reach users as a UserError.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tessel {

#define TESSEL_ERROR_KINDS(X) \
  X(SyntaxError)              \
  X(NameError)                \
  X(TypeError)                \
  X(ShapeError)               \
  X(ValueError)               \
  X(IndexError)               \
  X(ConstraintViolation)      \
  X(DataDependentError)       \
  X(DeviceError)              \
  X(LimitError)               \
  X(AssertionError)           \
  X(ZeroDivisionError)        \
  X(OverflowError)            \
  X(KeyError)                 \
  X(ImportError)              \
  X(Interrupted)              \
  X(HostError)                \
  X(IOError)

enum class ErrorKind : uint8_t {
#define TESSEL_X(k) k,
  TESSEL_ERROR_KINDS(TESSEL_X)
#undef TESSEL_X
};

/// The name users see ("ShapeError").
std::string_view errorKindName(ErrorKind kind);
/// Every kind's name, comma-separated, in the order of TESSEL_ERROR_KINDS.
std::string errorKindNames();
/// The kind of that name, or nullopt.
std::optional<ErrorKind> errorKindFromName(std::string_view name);

class UserError : public std::runtime_error {
 public:
  UserError(ErrorKind kind, std::string message)
      : std::runtime_error(std::move(message)), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

[[noreturn]] void throwUserError(ErrorKind kind, std::string message);

/// A failed internal invariant: a bug in Tessel, not in the user's program. It is not a
/// UserError, so a script's try/except never catches it; the REPL, the notebook kernel and the
/// embedding API report it (its message says it is a bug) and the session carries on, while a
/// script run ends with status 70 (EX_SOFTWARE). Fuzz targets let it escape: a crash to them.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// Internal invariant check: throws InternalError ("internal error (a bug in Tessel): ...").
[[noreturn]] void internalAssertFail(const char* cond, const char* file, int line,
                                     const std::string& message);

}  // namespace tessel

#define TESSEL_ASSERT(cond, msg)                                                      \
  do {                                                                                \
    if (!(cond)) ::tessel::internalAssertFail(#cond, __FILE__, __LINE__, (msg));      \
  } while (0)
