// Parity: every op of op_list.def on vulkan against cpu, over shapes that include empty and
// size-1 dims, broadcasting, strided views and every dtype; errors must match in kind too.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>

#include "backends/dispatch.h"
#include "backends/rng.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"
#include "tests/backends/vulkan/vk_test_util.h"
#include "tests/backends/compare_values.h"
#include "tests/backends/op_cases.h"

namespace tessel::backends::vulkan {
namespace {

using shapes::OpAttrs;
using shapes::OpKind;

using testing::Case;
using testing::Gen;
using testing::allOps;
using testing::casesFor;
using testing::expectCloseElements;
using testing::describe;
using testing::floats;

// Runs on `device`; returns the cpu copy of the output or the error kind.
struct Outcome {
  Tensor value;
  std::optional<ErrorKind> error;
  std::string message;
};
Outcome runOn(Device device, OpKind op, const Case& c) {
  Outcome o;
  try {
    std::vector<Tensor> in;
    for (const Tensor& t : c.inputs) in.push_back(device == Device::Vulkan ? toVulkan(t) : t);
    Tensor out = dispatch(op, in, c.attrs, device)[0];
    if (device == Device::Vulkan) {
      EXPECT_EQ(out.device(), Device::Vulkan);
    }
    o.value = toCpu(out);
  } catch (const UserError& e) {
    o.error = e.kind();
    o.message = e.what();
  }
  return o;
}

class Parity : public VulkanTest, public ::testing::WithParamInterface<OpKind> {};

TEST_P(Parity, MatchesCpu) {
  const OpKind op = GetParam();
  Gen g(1234 + uint32_t(op));
  std::vector<Case> cases = casesFor(op, g);
  ASSERT_FALSE(cases.empty()) << "no parity cases for " << shapes::opName(op);
  int compared = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(shapes::opName(op)) + " " + describe(c));
    const RngState rng = rngState();
    Outcome cpu = runOn(Device::Cpu, op, c);
    setRngState(rng);  // random ops read the same stream on both devices
    Outcome vk = runOn(Device::Vulkan, op, c);
    ASSERT_EQ(cpu.error.has_value(), vk.error.has_value())
        << "cpu: " << cpu.message << " | vulkan: " << vk.message;
    if (cpu.error) {
      EXPECT_EQ(*cpu.error, *vk.error) << cpu.message << " | " << vk.message;
      continue;
    }
    ++compared;
    ASSERT_EQ(cpu.value.shape(), vk.value.shape());
    ASSERT_EQ(cpu.value.dtype(), vk.value.dtype());
    const bool exact = op == OpKind::Rand || op == OpKind::Randint || op == OpKind::Dropout ||
                       op == OpKind::Bernoulli ||
                       cpu.value.dtype() != DType::F32;
    // Float sums of n terms: the order of additions differs from cpu's, error grows with n.
    double sumScale = 1;
    if (op == OpKind::Sum || op == OpKind::Mean || op == OpKind::Cumsum)
      sumScale = std::max(1.0, double(c.inputs[0].numel()) / 1000.0);
    // A convolution sums at most in0 * in1 / out terms per element (products of two values).
    if (op == OpKind::Conv2d || op == OpKind::Conv2dBackwardInput ||
        op == OpKind::Conv2dBackwardWeight)
      sumScale = std::max(1.0, 9.0 * double(c.inputs[0].numel()) * double(c.inputs[1].numel()) /
                                   std::max<double>(1.0, double(cpu.value.numel())) / 1000.0);
    expectCloseElements(cpu.value, vk.value, exact ? 0 : 1e-4 * sumScale, exact ? 0 : 1e-4,
                        "cpu", "vulkan");
  }
  EXPECT_GT(compared, 0) << "every case of " << shapes::opName(op) << " was an error";
}

// The dense-model unary ops at special values, relative to the cpu's (the parity test's
// absolute tolerance would hide a cancellation in log1p or expm1 near 0), and halves for round.
TEST_F(VulkanTest, DenseUnarySpecialValues) {
  const float nan = std::nanf(""), inf = INFINITY;
  Tensor x = floats({1e-7f, -1e-6f, 3e-4f, -0.3f, 0.5f, 1.5f, 2.5f, -2.5f, 7.f, -20.f, 25.f, nan,
                     inf, -inf, 0.f, -0.f},
                    {16});
  for (OpKind op : {OpKind::Erf, OpKind::Floor, OpKind::Ceil, OpKind::Round, OpKind::Trunc,
                    OpKind::Sign, OpKind::Log1p, OpKind::Expm1, OpKind::Silu, OpKind::Softplus,
                    OpKind::Isnan, OpKind::Isinf, OpKind::Isfinite}) {
    SCOPED_TRACE(std::string(shapes::opName(op)));
    Case c{{x}, {}};
    Outcome cpu = runOn(Device::Cpu, op, c), vk = runOn(Device::Vulkan, op, c);
    ASSERT_FALSE(cpu.error || vk.error) << cpu.message << vk.message;
    ASSERT_EQ(cpu.value.dtype(), vk.value.dtype());
    expectCloseElements(cpu.value, vk.value, 0, 2e-6, "cpu", "vulkan");
  }
}

INSTANTIATE_TEST_SUITE_P(AllOps, Parity, ::testing::ValuesIn(allOps()),
                         [](const auto& info) { return std::string(shapes::opName(info.param)); });

}  // namespace
}  // namespace tessel::backends::vulkan
