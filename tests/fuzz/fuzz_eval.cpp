// Fuzz target: the evaluator on arbitrary scripts. Each input runs as a
// program in a fresh interpreter with step, memory and call-depth limits, so the fuzzer looks
// for crashes, sanitizer reports and hangs rather than for programs that merely run long. Any
// outcome but a normal end, a script error (ScriptError/UserError) or exit() is a bug: an
// uncaught exception aborts, which libFuzzer reports. Run with tools/fuzz.sh fuzz_eval SECONDS;
// the golden scripts seed its corpus.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "shapes/user_error.h"

namespace {

// Small enough that every execution is quick (a 1000 x 1000 f32 matmul is the largest that
// fits), large enough that the golden scripts run to the end.
constexpr int64_t kMaxSteps = 20000;
constexpr int64_t kMaxMemoryBytes = int64_t{16} << 20;
constexpr int kMaxCallDepth = 200;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // No PGO profiles or traces written from fuzzed programs, no device but the cpu.
  setenv("TESSEL_PGO", "0", 1);
  unsetenv("TESSEL_TRACE");
  unsetenv("TESSEL_DEVICE");
  setenv("TESSEL_CACHE_DIR", "/tmp/tessel-fuzz-cache", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel::interp;
  InterpreterOptions options;
  options.maxSteps = kMaxSteps;
  options.maxMemoryBytes = kMaxMemoryBytes;
  options.maxCallDepth = kMaxCallDepth;
  Interpreter interp(options);
  std::ostringstream out;  // print() output, discarded
  interp.setOutput(&out);
  interp.setErrorOutput(&out);  // print(..., file = stderr) too
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    interp.runSource("<fuzz>", text);
  } catch (const ScriptError& e) {
    formatDiagnostic(e, interp.sources());  // rendering the error must not crash either
  } catch (const tessel::UserError&) {
  } catch (const ExitRequest&) {
  }
  return 0;
}
