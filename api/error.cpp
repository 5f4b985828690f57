// tessel::Error and its making from internal errors.
#include <utility>

#include "api/api_internal.h"
#include "interp/syntax/diagnostics.h"

namespace tessel {

Error::Error(std::string kind, std::string message, std::string file, int line, int column,
             std::string diagnostic, std::string coloredDiagnostic, int exitStatus)
    : std::runtime_error(diagnostic),
      kind_(std::move(kind)),
      message_(std::move(message)),
      file_(std::move(file)),
      coloredDiagnostic_(coloredDiagnostic.empty() ? std::move(diagnostic)
                                                   : std::move(coloredDiagnostic)),
      line_(line),
      column_(column),
      exitStatus_(exitStatus) {}

namespace api {

Error toError(const interp::ScriptError& e, const interp::SourceRegistry& sources) {
  return Error(std::string(errorKindName(e.kind())), e.what(), sources.name(e.span.file),
               static_cast<int>(e.span.line), static_cast<int>(e.span.col),
               interp::formatDiagnostic(e, sources), interp::formatDiagnostic(e, sources, true));
}

Error errorWithoutLocation(std::string_view kind, const std::string& message) {
  return Error(std::string(kind), message, "", 0, 0,
               std::string(kind) + ": " + message + "\n");
}

Error exitError(int status) {
  std::string message = "the script called exit(" + std::to_string(status) + ")";
  return Error("SystemExit", message, "", 0, 0, "SystemExit: " + message + "\n", "", status);
}

}  // namespace api
}  // namespace tessel
