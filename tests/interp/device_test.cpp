// Tensors move between devices freely from a script (backends.md); skipped without Vulkan.
#include <gtest/gtest.h>

#include <sstream>

#include "backends/vulkan/vulkan.h"
#include "interp/syntax/diagnostics.h"
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

// Compiled graphs run on vulkan with the same compile counts as cpu, training steps
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

namespace {

// Eager gradients of vulkan tensors stay on vulkan and equal cpu's: the gradient rules' own
// constants and creation ops (0.5, arange for a one-hot, zeros) are made on the device of the
// values they meet (EagerEmitter::constant/create); before, the backward pass of a model on
// vulkan stopped at the first of them with a DeviceError.
TEST(Devices, EagerGradientsOnVulkanMatchCpu) {
  if (backends::vulkan::availableVulkanDevices().empty())
    GTEST_SKIP() << "no Vulkan device here (install mesa-vulkan-drivers for lavapipe)";
  EXPECT_EQ(run(
      "fn loss_fn(p) {\n"
      "  let a = p[\"a\"]\n"
      "  let w = p[\"w\"]\n"
      "  let h = gelu(linear(a, w, p[\"b\"])) + tanh(a @ w.transpose(0, 1)).sum(dim = 1, keepdim = true) * 0.1\n"
      "  let s = softmax(h, 1) * log_softmax(h * 0.5, 1) + sigmoid(h) - exp(-h.abs()) + sqrt(h * h + 1.0)\n"
      "  let n = layer_norm(s, [3], p[\"g\"], p[\"b\"])\n"
      "  let m = maximum(n, n.transpose(0, 1).transpose(0, 1) * 0.5) + where(n > 0, n, n * 0.1) + clamp(n, -0.5, 0.5)\n"
      "  let c = cat([m, m * 2.0], 1).reshape([8, 3]).max(dim = 0)[0] + stack([m.mean(), m.min()]).sum()\n"
      "  let ce = cross_entropy(m, tensor([0, 2, 1, 1]).to(m.device))\n"
      "  let g = index_select(m, 0, tensor([3, 0]).to(m.device)).sum() + gather(m, 1, tensor([[0], [2], [1], [0]]).to(m.device)).sum()\n"
      "  return c.sum() + ce + g + mse_loss(m, pow(n.abs() + 1.0, 1.5)) + (m / (log(n.abs() + 1.0) + 1.0)).sum()\n"
      "}\n"
      "seed(3)\n"
      "let p = {\"a\": randn([4, 5]), \"w\": randn([3, 5]), \"b\": randn([3]), \"g\": randn([3])}\n"
      "let pv = {\"a\": p[\"a\"].to(\"vulkan\"), \"w\": p[\"w\"].to(\"vulkan\"), \"b\": p[\"b\"].to(\"vulkan\"), \"g\": p[\"g\"].to(\"vulkan\")}\n"
      "let (lc, gc) = value_and_grad(loss_fn)(p)\n"
      "let (lv, gv) = value_and_grad(loss_fn)(pv)\n"
      "let worst = abs(lc.item() - lv.item())\n"
      "for k in [\"a\", \"w\", \"b\", \"g\"] {\n"
      "  worst = max(worst, (gc[k] - gv[k].to(\"cpu\")).abs().max().item())\n"
      "  if gv[k].device != \"vulkan\" { print(\"grad of\", k, \"left the device\") }\n"
      "}\n"
      "print(worst < 1e-4, lv.device)\n"),
            "true vulkan\n");
  // dropout's rule replays its random mask on the device of the gradient.
  EXPECT_EQ(run("seed(4)\n"
                "let x = randn([1000])\n"
                "fn f(x) { return (dropout(x, 0.3) * x).sum() }\n"
                "seed(9)\n"
                "let (l1, g1) = value_and_grad(f)(x)\n"
                "seed(9)\n"
                "let (l2, g2) = value_and_grad(f)(x.to(\"vulkan\"))\n"
                "print(abs(l1.item() - l2.item()) < 1e-3, (g1 - g2.to(\"cpu\")).abs().max().item() < 1e-5,\n"
                "      g2.device)\n"),
            "true true vulkan\n");
}

}  // namespace

// Note [Sizes outlive their sync]: flip of a data-dependent size uses the size after the op
// that runs its segment; on a program's second run (a cached program, whose origin segment
// no longer keeps this one alive) the size must still be valid (ASan saw it freed).
TEST(Devices, TpuSizesOutliveTheSyncTheyCause) {
  const std::string code =
      "let x = tensor([3.0, -1.0, 2.0]).to(\"tpu\")\n"
      "print(flip(x[x > 0.0], [0]).tolist(), roll(x[x > 0.0], 1).tolist())\n"
      "print(pad(x[x > 0.0], [0, -1]).tolist())\n";
  for (int i = 0; i < 3; ++i) EXPECT_EQ(run(code), "[2.0, 3.0] [2.0, 3.0]\n[3.0]\n") << i;
}
