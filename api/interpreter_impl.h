// The state behind tessel::Interpreter, shared by the files of api/ that implement its calls
// (interpreter.cpp runs code, inspect.cpp and rich_display.cpp answer tools). Never installed.
#pragma once

#include <functional>
#include <memory>
#include <new>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "api/api_internal.h"
#include "api/output.h"
#include "interp/interpreter.h"
#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "shapes/user_error.h"

namespace tessel {

struct Interpreter::Impl : std::enable_shared_from_this<Interpreter::Impl> {
  std::unique_ptr<api::OutputBuffer> outputBuffer;  // Options::output
  std::unique_ptr<std::ostream> output;             // over outputBuffer, or a HostOutput
  std::unique_ptr<api::OutputBuffer> errorBuffer;   // Options::errorOutput
  std::unique_ptr<std::ostream> errorOutput;
  std::vector<std::pair<std::string, HostFunction>> hosts;
  uint32_t hostSource = 0;  // "<host>": the span of calls the app makes (Impl::hostSite)
  // Last, so that it goes first: what its end writes (warnings, a progress bar's last line)
  // still finds the streams above.
  std::unique_ptr<interp::Interpreter> vm;

  interp::Span hostSite() const { return interp::Span{hostSource, 1, 1, 1, 10}; }
  std::shared_ptr<void> owner() { return shared_from_this(); }

  /// Runs `body` as one entry into the interpreter: internal errors become tessel::Error,
  /// print output is handed over, and the interpreter stays usable whatever happens.
  template <class F>
  auto enter(F&& body) -> decltype(body()) {
    struct Flush {
      api::OutputBuffer* buffer;
      std::ostream* out;
      ~Flush() {
        out->flush();
        if (buffer) buffer->flushPending();
      }
    } flush{outputBuffer.get(), &vm->out()};
    try {
      return body();
    } catch (const interp::ScriptError& e) {
      throw api::toError(e, vm->sources());
    } catch (const interp::ExitRequest& e) {
      throw api::exitError(e.status);
    } catch (const UserError& e) {
      throw api::errorWithoutLocation(errorKindName(e.kind()), e.what());
    } catch (const std::bad_alloc&) {
      throw api::errorWithoutLocation("DeviceError", "out of memory");
    } catch (const InternalError& e) {
      throw api::errorWithoutLocation("InternalError", e.what());
    }
  }

  /// enter() for the calls that look at values without running a script (lookup, help): the
  /// values they make (a tensor's shape) belong to this interpreter's heap.
  template <class F>
  auto inspect(F&& body) -> decltype(body()) {
    return enter([&] {
      interp::Interpreter::Entry entry(*vm);
      return body();
    });
  }
};

namespace api {

/// Runs app code that a script called (a host function, a display callback): a C++ exception
/// it throws becomes a script error at the call. `what` names it in messages ("f()").
template <class F>
auto guardHost(const std::string& what, F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Error& e) {
    throwUserError(errorKindFromName(e.kind()).value_or(ErrorKind::HostError), e.message());
  } catch (const std::exception& e) {
    throwUserError(ErrorKind::HostError, what + " failed: " + e.what());
  } catch (...) {
    throwUserError(ErrorKind::HostError,
                   what + " failed with an exception that is not a std::exception");
  }
}

}  // namespace api
}  // namespace tessel
