// Tensors move between devices freely from a script (backends.md); skipped without Vulkan.
#include <gtest/gtest.h>

#include <sstream>

#include "backends/vulkan/vulkan.h"
#include "interp/diagnostics.h"
#include "interp/interpreter.h"

using namespace tessel;

namespace {

std::string run(const std::string& code) {
  interp::Interpreter interp;
  std::ostringstream out;
  interp.setOutput(&out);
  try {
    interp.runSource("<device test>", code);
  } catch (const interp::ScriptError& e) {
    return "error: " + interp::formatDiagnostic(e, interp.sources());
  }
  return out.str();
}

TEST(Devices, CpuIsAlwaysListed) {
  EXPECT_EQ(run("print(devices()[0][\"device\"], device())"), "cpu cpu\n");
}

TEST(Devices, MoveBetweenCpuAndVulkan) {
  if (backends::vulkan::availableVulkanDevices().empty())
    GTEST_SKIP() << "no Vulkan device here (install mesa-vulkan-drivers for lavapipe)";
  EXPECT_EQ(
      run("let x = tensor([[1.0, 2.0], [3.0, 4.0]]).to(\"vulkan\")\n"
          "print(x.device, (x @ x + 1).sum(dim = 1).tolist())\n"
          "let y = (x * 2).to(\"cpu\")\n"
          "print(y.device, y.tolist())\n"
          "print(x[0, 1].item(), (x > 2).to(\"cpu\").tolist())\n"
          "print(tensor([1.5]).to(\"vulkan\"))\n"),
      "vulkan [19.0, 39.0]\ncpu [[2.0, 4.0], [6.0, 8.0]]\n2.0 [[false, false], [true, true]]\n"
      "tensor([1.5000], device=\"vulkan\")\n");
}

TEST(Devices, MixingDevicesIsADeviceError) {
  if (backends::vulkan::availableVulkanDevices().empty())
    GTEST_SKIP() << "no Vulkan device here (install mesa-vulkan-drivers for lavapipe)";
  std::string out = run("let x = ones([2]).to(\"vulkan\")\nprint(x + ones([2]))\n");
  EXPECT_NE(out.find("DeviceError"), std::string::npos) << out;
}

TEST(Devices, UnknownDeviceIsAValueError) {
  std::string out = run("ones([2]).to(\"gpu9\")\n");
  EXPECT_NE(out.find("ValueError: to(): unknown device or dtype 'gpu9'"), std::string::npos) << out;
}

}  // namespace
