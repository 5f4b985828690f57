// What the files of api/ share: the Impl structs behind the public handles and the
// conversions between public and internal values. Never installed.
#pragma once

#include <memory>
#include <string>

#include "backends/tensor.h"
#include "interp/values/value.h"
#include "tessel/tessel.h"

namespace tessel::interp {
class Interpreter;
class ScriptError;
class SourceRegistry;
}  // namespace tessel::interp

namespace tessel {

/// A Value holds an internal value and, for values an interpreter made, that interpreter's
/// state: functions and modules point into its code and globals, so they keep it alive.
/// `owner` is declared first so that it is released last: when this Value is the last holder of
/// its interpreter, the value goes before the interpreter, whose end collects the cycles it was
/// part of (a function and its module). The other way round the interpreter would be gone when
/// the value is released, and a cycle no collector tracks any more would leak.
struct Value::Impl {
  std::shared_ptr<void> owner;  ///< the interpreter state; null for values an app made
  interp::Value value;
};

struct Tensor::Impl {
  backends::Tensor tensor;
};

namespace api {

Value wrap(interp::Value v, std::shared_ptr<void> owner = nullptr);
const interp::Value& unwrap(const Value& v);

/// The public error for a script error (what() is the full diagnostic with the caret).
Error toError(const interp::ScriptError& e, const interp::SourceRegistry& sources);
/// A public error with no source location (misuse of the API, a file that cannot be opened).
Error errorWithoutLocation(std::string_view kind, const std::string& message);
/// The "SystemExit" error of a script that called exit(status).
Error exitError(int status);

/// The tensor inside a tensor value, synced and on its device (TypeError otherwise).
backends::Tensor tensorOf(const interp::Value& v);

}  // namespace api
}  // namespace tessel
