// dispatch(): devices, fresh identities, type errors at the API boundary, size-1 and empty dims.
#include <algorithm>
#include <vector>

#include "backends/backend.h"
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

TEST(Dispatch, DevicesAndMoves) {
  std::vector<Device> devices = availableDevices();
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(devices[0], Device::Cpu);
  Tensor x = F({1, 2});
  EXPECT_EQ(toDevice(x, Device::Cpu).id(), x.id());
  EXPECT_EQ(deviceFromName("vulkan"), Device::Vulkan);
  EXPECT_EQ(deviceName(Device::Tpu), "tpu");
  EXPECT_FALSE(deviceFromName("gpu"));
}

TEST(Dispatch, MixedDevicesAreDeviceError) {
  Tensor cpu = F({1, 2});
  // A tensor that claims to live on another device (no kernel will read it).
  Tensor other = Tensor::empty({2}, DType::F32, Device::Tpu);
  expectUserError(
      [&] {
        run(OpKind::Add, {cpu, other});
      },
      ErrorKind::DeviceError, {"add", "cpu", "tpu"});
  const std::vector<Device> available = availableDevices();  // begin and end of one copy
  if (std::find(available.begin(), available.end(), Device::Tpu) == available.end())
    expectUserError([&] { run(OpKind::Neg, {other}); }, ErrorKind::DeviceError, {"tpu"});
}

TEST(Dispatch, OutputsAreNewIdentities) {
  Tensor x = F({1, 2});
  OpAttrs toF;
  toF.dtype = DType::F32;
  EXPECT_NE(run(OpKind::Cast, {x}, toF).id(), x.id());
  EXPECT_NE(run(OpKind::Contiguous, {x}).id(), x.id());
  EXPECT_NE(run(OpKind::Squeeze, {x}).id(), x.id());
}

TEST(Dispatch, TypeErrors) {
  expectUserError(
      [] {
        run(OpKind::IndexSelect, {iota({3}), F({0})}, dimAttr(0));
      },
      ErrorKind::TypeError, {"index_select"});
  expectUserError(
      [] {
        run(OpKind::CrossEntropy, {iota({2, 3}), F({0, 1})});
      },
      ErrorKind::TypeError, {"cross_entropy"});
}

TEST(Dispatch, SizeOneAndEmptyDims) {
  Tensor one = F({5}, {1, 1});
  expectValues(run(OpKind::Mul, {one, iota({2, 3})}), {0, 5, 10, 15, 20, 25});
  Tensor e = F({}, {0, 4});
  EXPECT_EQ(run(OpKind::Exp, {e}).shape(), (Dims{0, 4}));
  EXPECT_EQ(run(OpKind::Softmax, {e}, dimAttr(1)).shape(), (Dims{0, 4}));
  EXPECT_EQ(run(OpKind::Matmul, {e, iota({4, 2})}).shape(), (Dims{0, 2}));
  EXPECT_EQ(run(OpKind::Sum, {e}, dimsAttr({1})).shape(), (Dims{0}));
  EXPECT_EQ(run(OpKind::Transpose, {e}, dimsAttr({0, 1})).shape(), (Dims{4, 0}));
  EXPECT_EQ(run(OpKind::Nonzero, {e}).shape(), (Dims{0, 2}));
  EXPECT_EQ(run(OpKind::Unique, {e}).numel(), 0);
  Tensor s = Tensor::scalar(3, DType::F32);
  expectValues(run(OpKind::Add, {s, s}), {6});
  EXPECT_EQ(run(OpKind::Add, {s, s}).ndim(), 0);
}

}  // namespace
}  // namespace tessel::backends::testing
