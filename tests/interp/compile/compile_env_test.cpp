// TESSEL_DYNAMIC_SOURCES (compiler.md, policy 1): listed sources are dynamic from the first
// compile, whatever the other knobs say, and specializing them is not an error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"

using namespace tessel;

namespace {

std::string runWithSources(const char* sources, const std::string& code) {
  setenv("TESSEL_DYNAMIC_SOURCES", sources, 1);
  interp::Interpreter interp;  // reads the variable when it starts
  unsetenv("TESSEL_DYNAMIC_SOURCES");
  std::ostringstream out;
  interp.setOutput(&out);
  try {
    interp.runSource("<env test>", code);
  } catch (const interp::ScriptError& e) {
    return "error: " + interp::formatDiagnostic(e, interp.sources());
  }
  return out.str();
}

TEST(DynamicSources, TensorAndIntAreDynamicFromTheFirstCompile) {
  std::string out = runWithSources("x,n",
                                   "@compile(dynamic = false)\nfn f(x, n) { return x * n }\n"
                                   "f(ones([3]), 2)\nf(ones([5]), 4)\nf(ones([7]), 9)\n"
                                   "print(stats(f)[\"compiles\"], stats(f)[\"guards\"])\n");
  EXPECT_EQ(out, "1 [\"x.shape[0] >= 2\"]\n");
}

TEST(DynamicSources, OneDimensionOnly) {
  std::string out = runWithSources("y.shape[1]",
                                   "@compile\nfn f(y) { return y.sum() }\n"
                                   "f(ones([2, 3]))\nf(ones([2, 8]))\nf(ones([4, 8]))\n"
                                   "print(stats(f)[\"compiles\"])\n");
  EXPECT_EQ(out, "2\n");  // the second size of y never recompiles; the first does once
}

TEST(DynamicSources, SpecializingAListedSourceIsNotAnError) {
  std::string out =
      runWithSources("x",
                     "@compile\nfn f(x) {\n  if x.shape[0] == 3 { return x + 1 }\n  return x\n}\n"
                     "print(f(ones([3])).tolist())\n");
  EXPECT_EQ(out, "[2.0, 2.0, 2.0]\n");
}

}  // namespace
