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

namespace {

// Compiled graphs run on vulkan (issue 6) with the same compile counts as cpu, training steps
// included, and give the cpu results.
TEST(Devices, CompiledGraphsOnVulkanMatchCpu) {
  if (backends::vulkan::availableVulkanDevices().empty())
    GTEST_SKIP() << "no Vulkan device here (install mesa-vulkan-drivers for lavapipe)";
  std::string out = run(
      "import nn\n"
      "seed(1)\n"
      "let params = nn.mlp_init([4, 8, 2])\n"
      "fn loss_fn(p, x, y) { return cross_entropy(nn.mlp_apply(p, x), y) }\n"
      "fn train(p, x, y) {\n"
      "  let (loss, g) = value_and_grad(loss_fn)(p, x, y)\n"
      "  return (loss, nn.sgd_step(p, g, lr = 0.1))\n"
      "}\n"
      "let on_vulkan = compile(train, backend = \"vulkan\")\n"
      "let on_cpu = compile(train, backend = \"cpu\")\n"
      "let same = true\n"
      "for b in [8, 16, 24, 16] {\n"
      "  let x = randn([b, 4])\n"
      "  let y = randint(0, 2, [b])\n"
      "  let (lv, pv) = on_vulkan(params, x, y)\n"
      "  let (lc, pc) = on_cpu(params, x, y)\n"
      "  same = same and abs(lv.item() - lc.item()) < 1e-4 and lv.device == \"vulkan\"\n"
      "  same = same and (pv[0][\"w\"].to(\"cpu\") - pc[0][\"w\"]).abs().max().item() < 1e-4\n"
      "}\n"
      "print(same, stats(on_vulkan)[\"compiles\"], stats(on_cpu)[\"compiles\"])\n"
      "@compile\n"
      "fn auto(x) { return (x * x).sum() }\n"
      "let xv = tensor([1.0, 2.0, 3.0]).to(\"vulkan\")\n"
      "print(auto(xv), auto(xv.to(\"cpu\")), stats(auto)[\"compiles\"])\n");
  EXPECT_EQ(out, "true 2 2\ntensor(14., device=\"vulkan\") tensor(14.) 2\n");
}

}  // namespace
