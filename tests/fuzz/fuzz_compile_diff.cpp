// Fuzz target: @compile against eager on generated shape-heavy programs.
// The bytes do not become text: they drive a generator (program_gen.h) that writes a small
// Tessel function f(x, y, n, s) from a menu of shape-heavy statements (elementwise, broadcasting,
// reshape and views, slicing, reductions, matmul, cat, creation from sizes, branches on sizes,
// loops over sizes, helpers, graph breaks, data-dependent ops), then a few calls with input
// sizes, layouts (views: transposed, offset, stepped, expanded) and special values (nan, inf,
// -0.0 in x and y and as the float s, extreme ints as n) chosen by the bytes. Each call runs f eagerly and compile(f) (with dynamic and config
// knobs chosen by the bytes), so recompiles, automatic dynamic, duck sizing, 0/1
// specialization and guard reuse all happen. A differential oracle:
//   - both return, and the results agree: ints, bools, shapes, dtypes exactly, floats and f32
//     tensors within 1e-4 (relative), NaN with NaN;
//   - or both raise a ScriptError of the same kind;
//   - and both print the same text.
// LimitError (the step and memory limits that keep each execution short) makes a call
// inconclusive, and so does the size-oblivious broadcasting the spec asks for (an unbacked size
// of 0 or 1 is a ShapeError when compiled). Anything else prints the program and the call to stderr
// and aborts, so libFuzzer keeps the input. Run with tools/fuzz.sh fuzz_compile_diff SECONDS.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/tensors/tensor_value.h"
#include "program_gen.h"
#include "shapes/user_error.h"

namespace {

using namespace tessel::interp;
using tessel::ErrorKind;

constexpr int64_t kMaxSteps = 50000;
constexpr int64_t kMaxMemoryBytes = int64_t{32} << 20;
constexpr int kMaxCallDepth = 100;

// ---- comparing results --------------------------------------------------------------------

bool closeEnough(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= 1e-4 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

std::string shapeText(const Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.ndim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}

// Empty when equal, else where and how they differ.
std::string difference(const Value& e, const Value& c, const std::string& at) {
  if (e.type() != c.type())
    return at + ": " + std::string(typeName(e.type())) + " vs " + std::string(typeName(c.type()));
  switch (e.type()) {
    case Type::None:
      return "";
    case Type::Bool:
      return e.asBool() == c.asBool() ? "" : at + ": bools differ";
    case Type::Int:
      return e.asInt() == c.asInt()
                 ? ""
                 : at + ": " + std::to_string(e.asInt()) + " vs " + std::to_string(c.asInt());
    case Type::Float:
      return closeEnough(e.asFloat(), c.asFloat())
                 ? ""
                 : at + ": " + std::to_string(e.asFloat()) + " vs " + std::to_string(c.asFloat());
    case Type::Str:
      return e.as<StrObj>()->str == c.as<StrObj>()->str ? "" : at + ": strings differ";
    case Type::List:
    case Type::Tuple: {
      const auto& a = e.is(Type::List) ? e.as<ListObj>()->items : e.as<TupleObj>()->items;
      const auto& b = c.is(Type::List) ? c.as<ListObj>()->items : c.as<TupleObj>()->items;
      if (a.size() != b.size()) return at + ": lengths differ";
      for (size_t i = 0; i < a.size(); ++i)
        if (auto d = difference(a[i], b[i], at + "[" + std::to_string(i) + "]"); !d.empty())
          return d;
      return "";
    }
    case Type::Shape: {
      const auto& a = e.as<ShapeObj>()->dims;
      const auto& b = c.as<ShapeObj>()->dims;
      bool same = a.size() == b.size();
      for (size_t i = 0; same && i < a.size(); ++i)
        same = a[i].maybeConstant() && a[i].maybeConstant() == b[i].maybeConstant();
      return same ? "" : at + ": shapes differ";
    }
    case Type::Tensor: {
      const Tensor& a = asTensor(e);
      const Tensor& b = asTensor(c);
      if (a.dtype() != b.dtype()) return at + ": dtypes differ";
      if (a.shape() != b.shape()) return at + ": shape " + shapeText(a) + " vs " + shapeText(b);
      std::vector<double> va = a.toDoubles(), vb = b.toDoubles();
      for (size_t i = 0; i < va.size(); ++i) {
        bool same =
            a.dtype() == tessel::shapes::DType::F32 ? closeEnough(va[i], vb[i]) : va[i] == vb[i];
        if (!same)
          return at + ": element " + std::to_string(i) + " is " + std::to_string(va[i]) + " vs " +
                 std::to_string(vb[i]);
      }
      return "";
    }
    default:
      return at + ": unexpected " + std::string(typeName(e.type()));
  }
}

// ---- running ---------------------------------------------------------------------------------

struct Outcome {
  bool raised = false;
  ErrorKind kind = ErrorKind::Interrupted;
  std::string message;
  std::string printed;
  Value result;
};

// Both runs of a call start from seed(call): random ops (rand, dropout, randperm, multinomial,
// bernoulli) draw the same words eagerly and compiled, so their results must be equal too.
Outcome runCall(Interpreter& interp, std::ostringstream& out, const std::string& fn,
                const std::string& name, size_t call) {
  Outcome o;
  out.str("");
  try {
    interp.runSource("<seed>", "seed(" + std::to_string(call) + ")");
    interp.runSource("<" + name + ">", "__r = " + fn + "(__x, __y, __n, __s)");
    o.result = *interp.mainModule().lookup("__r");
  } catch (const ScriptError& e) {
    o.raised = true;
    o.kind = e.kind();
    o.message = formatDiagnostic(e, interp.sources());
  }
  o.printed = out.str();
  return o;
}

[[noreturn]] void mismatch(const ProgramGen& gen, size_t call, const std::string& what) {
  std::string s = "fuzz_compile_diff: compiled and eager disagree at call " + std::to_string(call) +
                  ": " + what + "\n-- program\n" + gen.program() + "-- calls\n" + gen.callsText() +
                  "\n";
  fputs(s.c_str(), stderr);
  abort();
}

std::string describe(const Outcome& o) {
  if (o.raised) return std::string(tessel::errorKindName(o.kind)) + "\n" + o.message;
  return "a result";
}

// The step and memory limits, and the stack guard, stop eager and compiled code at different
// points: such a call says nothing.
bool inconclusive(const Outcome& o) {
  return o.raised && o.kind == ErrorKind::LimitError;
}

// The one divergence the spec asks for (compiler.md, "Unbacked sizes"): shape rules treat an
// unbacked size as neither 0 nor 1 when broadcasting, so where it is 0 or 1 at run time the
// graph's runtime assert raises a ShapeError that eager code, which broadcasts, does not.
bool sizeOblivious(const Outcome& eager, const Outcome& compiled) {
  static const std::regex zeroOrOne(R"(\bu\d+ = [01]\b.* at run time)");
  return !eager.raised && compiled.raised && compiled.kind == ErrorKind::ShapeError &&
         std::regex_search(compiled.message, zeroOrOne);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // No PGO profiles or traces from fuzzed programs, no device but the cpu.
  setenv("TESSEL_PGO", "0", 1);
  unsetenv("TESSEL_TRACE");
  unsetenv("TESSEL_DEVICE");
  unsetenv("TESSEL_DYNAMIC_SOURCES");
  unsetenv("TESSEL_LOGS");
  setenv("TESSEL_CACHE_DIR", "/tmp/tessel-fuzz-cache", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  ProgramGen gen(in);
  gen.generate();

  InterpreterOptions options;
  options.maxSteps = kMaxSteps;
  options.maxMemoryBytes = kMaxMemoryBytes;
  options.maxCallDepth = kMaxCallDepth;
  Interpreter interp(options);
  std::ostringstream out;
  interp.setOutput(&out);
  interp.setErrorOutput(&out);  // print(..., file = stderr) too
  // FUZZ_VERBOSE=1: each program, its calls and outcomes, and the compile stats (to see what
  // the generator makes of a corpus: tools/fuzz.sh ... with -runs=0).
  static const bool verbose = getenv("FUZZ_VERBOSE") != nullptr;
  if (verbose)
    fprintf(stderr, "-- program\n%s-- calls\n%s", gen.program().c_str(), gen.callsText().c_str());
  try {
    interp.runSource("<fuzz>", gen.program());
  } catch (const ScriptError& e) {
    // The generator writes valid definitions; one that does not run is a generator bug.
    fprintf(stderr, "fuzz_compile_diff: the program does not load:\n%s\n%s",
            formatDiagnostic(e, interp.sources()).c_str(), gen.program().c_str());
    abort();
  }
  for (size_t k = 0; k < gen.calls().size(); ++k) {
    try {
      interp.runSource("<inputs>", gen.calls()[k]);
    } catch (const ScriptError& e) {
      fprintf(stderr, "fuzz_compile_diff: inputs of call %zu fail:\n%s\n%s", k,
              formatDiagnostic(e, interp.sources()).c_str(), gen.calls()[k].c_str());
      abort();
    }
    Outcome eager = runCall(interp, out, "f", "eager", k);
    Outcome compiled = runCall(interp, out, "cf", "compiled", k);
    if (verbose)
      fprintf(
          stderr, "call %zu: eager %s, compiled %s\n", k,
          eager.raised ? std::string(tessel::errorKindName(eager.kind)).c_str() : "returns",
          compiled.raised ? std::string(tessel::errorKindName(compiled.kind)).c_str() : "returns");
    if (inconclusive(eager) || inconclusive(compiled) || sizeOblivious(eager, compiled)) continue;
    if (eager.raised != compiled.raised || (eager.raised && eager.kind != compiled.kind))
      mismatch(gen, k, "eager gives " + describe(eager) + "\ncompiled gives " + describe(compiled));
    if (eager.printed != compiled.printed)
      mismatch(gen, k, "eager printed\n" + eager.printed + "compiled printed\n" + compiled.printed);
    if (!eager.raised) {
      std::string d;
      try {
        d = difference(eager.result, compiled.result, "result");
      } catch (const tessel::UserError& e) {  // asTensor of a fake tensor that escaped
        d = std::string("reading the result raised ") + e.what();
      }
      if (!d.empty()) mismatch(gen, k, d);
    }
  }
  if (verbose) {
    out.str("");
    interp.runSource("<stats>", "print(stats(cf))");
    fprintf(stderr, "stats %s", out.str().c_str());
  }
  // A module's globals and its functions refer to each other and are never freed
  // (docs/reliability.md, "Sanitizers"): about 100 KB an input, gigabytes in an hour of
  // fuzzing. Dropping the globals breaks the cycles.
  for (Value& g : interp.mainModule().globals) g = Value();
  return 0;
}
