// tessel::Error and its making from internal errors.
#include <utility>

#include "api/api_internal.h"
#include "interp/syntax/diagnostics.h"

namespace tessel {

Error::Error(std::string kind, std::string message, std::string file, int line, int column,
             std::string diagnostic)
    : std::runtime_error(std::move(diagnostic)),
      kind_(std::move(kind)),
      message_(std::move(message)),
      file_(std::move(file)),
      line_(line),
      column_(column) {}

namespace api {

Error toError(const interp::ScriptError& e, const interp::SourceRegistry& sources) {
  return Error(std::string(errorKindName(e.kind())), e.what(), sources.name(e.span.file),
               static_cast<int>(e.span.line), static_cast<int>(e.span.col),
               interp::formatDiagnostic(e, sources));
}

Error errorWithoutLocation(std::string_view kind, const std::string& message) {
  return Error(std::string(kind), message, "", 0, 0,
               std::string(kind) + ": " + message + "\n");
}

}  // namespace api
}  // namespace tessel
