// The sweep over the op definitions' examples: every "Example: `...`" of help() (one for each
// tensor function, from ops/tensor_functions.txt and ops/*.ops) runs eagerly on the cpu, and
// again compiled and on every other device, and must print the same (the device tag aside).
// The elementwise ops have their own sweep over random samples (tests/backends/
// defined_ops_test.cpp); this one reaches the hand-written ops through the same door a user
// does, so a new op's example is a new row here without further code.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>

#include "backends/vulkan/vulkan.h"
#include "interp/interpreter.h"
#include "interp/natives/help.h"
#include "interp/syntax/diagnostics.h"
#include "interp/values/printer.h"

using namespace tessel;
using namespace tessel::interp;

namespace {

struct Example {
  std::string key, code;
};

std::vector<Example> allExamples() {
  std::vector<Example> out;
  const std::string marker = "Example: `";
  for (const DocEntry& e : builtinDocs())
    for (size_t at = e.text.find(marker); at != std::string::npos;
         at = e.text.find(marker, at + 1)) {
      const size_t begin = at + marker.size(), end = e.text.find('`', begin);
      if (end != std::string::npos) out.push_back({e.key, e.text.substr(begin, end - begin)});
    }
  return out;
}

// Examples whose result is about the machine or the device itself, not an op's value.
bool describesTheDevice(const std::string& key) {
  return key == "device" || key == "devices" || key == "tensor.device";
}

// Examples that cannot be the body of a compiled function: their result is a plain value read
// out of a tensor (a number, a list), which a graph cannot return, or they seed the generator.
bool leavesTheGraph(const std::string& key) {
  static const char* const kKeys[] = {"item", "tolist", "allclose", "numel", "seed"};
  for (const char* k : kKeys)
    if (key == k) return true;
  return false;
}

std::string withoutDevice(std::string s) {
  static const std::regex tag(R"(, device="[a-z]+")");
  return std::regex_replace(s, tag, "");
}

// The example's value as printed, after seeding the generator (the same seed gives the same
// numbers on every device), or the error it raised.
std::string evaluate(Interpreter& interp, const Example& ex, bool compiled) {
  try {
    interp.evalExpression("<seed>", "seed(0)");
    const std::string code =
        compiled ? "compile(fn() { return " + ex.code + " })()" : ex.code;
    return withoutDevice(repr(interp.evalExpression("<example of " + ex.key + ">", code)));
  } catch (const ScriptError& e) {
    return "error: " + formatDiagnostic(e, interp.sources());
  }
}

struct Variant {
  const char* name;
  backends::Device device;
  bool compiled;
};

void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

class ExampleSweep : public ::testing::TestWithParam<Variant> {};

TEST_P(ExampleSweep, MatchesEagerCpu) {
  const Variant v = GetParam();
  if (v.device == backends::Device::Vulkan) {
    // A shader per op takes lavapipe a minute and a half: the ctest example_sweep_on_vulkan
    // (label vulkan) runs these, so the sanitizer build, which skips that label, does not.
    if (!std::getenv("TESSEL_EXAMPLE_SWEEP_VULKAN"))
      GTEST_SKIP() << "run by the ctest example_sweep_on_vulkan (TESSEL_EXAMPLE_SWEEP_VULKAN=1)";
    if (backends::vulkan::availableVulkanDevices().empty())
      GTEST_SKIP() << "no Vulkan device here (install mesa-vulkan-drivers for lavapipe)";
  }
  Interpreter cpu;
  InterpreterOptions options;
  options.device = v.device;
  Interpreter other(options);
  std::ostringstream sink;
  cpu.setOutput(&sink);
  other.setOutput(&sink);
  ASSERT_EQ(str(other.evalExpression("<device>", "zeros([1]).device")),
            std::string(backends::deviceName(v.device)));
  int compared = 0;
  for (const Example& ex : allExamples()) {
    if (describesTheDevice(ex.key) || (v.compiled && leavesTheGraph(ex.key))) continue;
    const std::string want = evaluate(cpu, ex, false);
    ASSERT_EQ(want.rfind("error:", 0), std::string::npos) << ex.key << ": " << want;
    const std::string got = evaluate(other, ex, v.compiled);
    // The tpu compiles static memory: an output size that only the data decides (bincount,
    // repeat_interleave) needs a bound the example does not give (docs/tpu.md), and saying so
    // is the right answer.
    if (v.device == backends::Device::Tpu && v.compiled &&
        got.find("needs an upper bound") != std::string::npos)
      continue;
    EXPECT_EQ(got, want) << ex.key << ": " << ex.code;
    ++compared;
  }
  EXPECT_GT(compared, 150);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, ExampleSweep,
    ::testing::Values(Variant{"cpu_compiled", backends::Device::Cpu, true},
                      Variant{"vulkan", backends::Device::Vulkan, false},
                      Variant{"vulkan_compiled", backends::Device::Vulkan, true},
                      Variant{"tpu", backends::Device::Tpu, false},
                      Variant{"tpu_compiled", backends::Device::Tpu, true}),
    [](const ::testing::TestParamInfo<Variant>& p) { return std::string(p.param.name); });

}  // namespace
