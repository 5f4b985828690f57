// Device smoke tests: registration, round trips, one op, the linear elementwise paths (word
// and bool operands).
#include <gtest/gtest.h>

#include "backends/dispatch.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/shaders/ew_ops.h"
#include "backends/vulkan/vulkan.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::backends::vulkan {
namespace {

TEST_F(VulkanTest, ListsDevices) {
  auto devs = availableVulkanDevices();
  ASSERT_FALSE(devs.empty());
  EXPECT_FALSE(devs[0].name.empty());
}

// The suite runs with TESSEL_VULKAN_VALIDATE=1 (tests/backends/vulkan/CMakeLists.txt), and zero
// validation messages only means something if the layer is really there.
TEST_F(VulkanTest, ValidationLayerIsOnWhenAsked) {
  const char* env = std::getenv("TESSEL_VULKAN_VALIDATE");
  if (!env || std::string(env) != "1") GTEST_SKIP() << "TESSEL_VULKAN_VALIDATE is not 1";
  EXPECT_TRUE(vulkanStats().validationEnabled)
      << "VK_LAYER_KHRONOS_validation is missing: install vulkan-validationlayers";
}

TEST_F(VulkanTest, RoundTrip) {
  std::vector<float> v = {1, 2, 3, 4, 5, 6};
  Tensor x = Tensor::fromData(std::span<const float>(v), {2, 3});
  Tensor d = toVulkan(x);
  EXPECT_EQ(d.device(), Device::Vulkan);
  Tensor back = toCpu(d);
  EXPECT_EQ(back.toDoubles(), x.toDoubles());
  Tensor y = toCpu(call(shapes::OpKind::Add, {d, d}));
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{2, 4, 6, 8, 10, 12}));
}

// A contiguous view that starts past its storage's first element uploads from its own first
// element (its offset counts elements, not bytes).
TEST_F(VulkanTest, UploadsAContiguousViewFromItsOffset) {
  std::vector<int32_t> v = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  Tensor x = Tensor::fromData(std::span<const int32_t>(v), {3, 4});
  Tensor row = x.select(0, 2);
  ASSERT_TRUE(row.isContiguous());
  EXPECT_EQ(toCpu(toVulkan(row)).toDoubles(), (std::vector<double>{8, 9, 10, 11}));
}

// The linear elementwise paths (Note [Linear elementwise]): eight-word steps (offsets multiple
// of 8), four-word steps (multiple of 4), scalar otherwise, with ragged tails and a broadcast
// scalar operand.
TEST_F(VulkanTest, LinearElementwiseOffsetsAndTails) {
  std::vector<float> v(2200);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i % 97) - 40.0f;
  Tensor x = Tensor::fromData(std::span<const float>(v), {int64_t(v.size())});
  Tensor d = toVulkan(x);
  Tensor s = toVulkan(Tensor::fromData(std::span<const float>(std::vector<float>{0.5f}), {}));
  for (int64_t off : {0, 4, 8, 12, 1}) {
    for (int64_t n : {2048, 2051, 2045, 7, 1}) {
      SCOPED_TRACE(std::to_string(off) + " " + std::to_string(n));
      Tensor a = d.slice(0, off, off + n, 1), b = d.slice(0, 16, 16 + n, 1);
      Tensor want = call(shapes::OpKind::Mul, {call(shapes::OpKind::Add, {x.slice(0, off, off + n, 1),
                                                                          x.slice(0, 16, 16 + n, 1)}),
                                               toCpu(s)});
      Tensor got = toCpu(call(shapes::OpKind::Mul, {call(shapes::OpKind::Add, {a, b}), s}));
      EXPECT_EQ(got.toDoubles(), want.toDoubles());
      shapes::OpAttrs toI32;
      toI32.dtype = shapes::DType::I32;
      Tensor gotI = toCpu(call(shapes::OpKind::Neg, {call(shapes::OpKind::Cast, {a}, toI32)}));
      Tensor wantI = call(shapes::OpKind::Neg, {call(shapes::OpKind::Cast, {x.slice(0, off, off + n, 1)}, toI32)});
      EXPECT_EQ(gotI.toDoubles(), wantI.toDoubles());
    }
  }
}

using shapes::OpKind;

// Floats with zeros and both signs, and bools, that the bool tests slice.
std::vector<float> boolTestFloats(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(int(i * 37 % 11) - 5) * 0.25f;
  return v;
}
std::vector<bool> boolTestBools(size_t n) {
  std::vector<bool> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (i * 13 % 7) < 3;
  return v;
}

// Note [Linear bool operands] (elementwise.comp): bool operands and results take the 4- and
// 8-element steps at offsets that are multiples of 4 and 8 (4 or 8 bytes at a time) and the
// scalar linear loop at other offsets, with ragged tails element by element; a bool broadcast
// scalar is one byte. Every op equals cpu: comparisons to bool, logical ops of bools, where
// with a bool condition, casts to and from bool.
TEST_F(VulkanTest, LinearBoolOperandsOffsetsAndTails) {
  const int64_t total = 70001 + 32;
  const std::vector<float> fv = boolTestFloats(total);
  Tensor x = Tensor::fromData(std::span<const float>(fv), {total});
  Tensor m = Tensor::fromBools(boolTestBools(total), {total});
  Tensor half = Tensor::scalar(0.5, shapes::DType::F32);
  Tensor yes = Tensor::fromBools({true}, {});
  Tensor dx = toVulkan(x), dm = toVulkan(m), dhalf = toVulkan(half), dyes = toVulkan(yes);
  shapes::OpAttrs toF32, toBool;
  toF32.dtype = shapes::DType::F32;
  toBool.dtype = shapes::DType::Bool;
  for (int64_t off : {0, 8, 4, 12, 3}) {
    for (int64_t n : {0, 1, 7, 8, 9, 1000, 70001}) {
      SCOPED_TRACE("offset " + std::to_string(off) + " n " + std::to_string(n));
      // Operands at `off`, and a second bool operand always at offset 16 (aligned).
      auto cpuAt = [&](const Tensor& t, int64_t o) { return t.slice(0, o, o + n, 1); };
      Tensor xa = cpuAt(x, off), ma = cpuAt(m, off), mb = cpuAt(m, 16), xb = cpuAt(x, 16);
      Tensor dxa = cpuAt(dx, off), dma = cpuAt(dm, off), dmb = cpuAt(dm, 16), dxb = cpuAt(dx, 16);
      auto same = [&](const char* what, const Tensor& got, const Tensor& want) {
        SCOPED_TRACE(what);
        Tensor g = toCpu(got);
        EXPECT_EQ(g.dtype(), want.dtype());
        EXPECT_EQ(g.toDoubles(), want.toDoubles());
      };
      same("x > 0.5", call(OpKind::Gt, {dxa, dhalf}), call(OpKind::Gt, {xa, half}));
      same("x < x2", call(OpKind::Lt, {dxa, dxb}), call(OpKind::Lt, {xa, xb}));
      same("not m", call(OpKind::LogicalNot, {dma}), call(OpKind::LogicalNot, {ma}));
      same("m and m2", call(OpKind::LogicalAnd, {dma, dmb}), call(OpKind::LogicalAnd, {ma, mb}));
      same("m or true", call(OpKind::LogicalOr, {dma, dyes}), call(OpKind::LogicalOr, {ma, yes}));
      same("m == m2", call(OpKind::Eq, {dma, dmb}), call(OpKind::Eq, {ma, mb}));
      same("where", call(OpKind::Where, {dma, dxa, dxb}), call(OpKind::Where, {ma, xa, xb}));
      same("where scalar", call(OpKind::Where, {dmb, dxa, dhalf}), call(OpKind::Where, {mb, xa, half}));
      same("m to f32", call(OpKind::Cast, {dma}, toF32), call(OpKind::Cast, {ma}, toF32));
      same("x to bool", call(OpKind::Cast, {dxa}, toBool), call(OpKind::Cast, {xa}, toBool));
    }
  }
}

// A bool result written into a view of a larger bool tensor (another tensor's bytes share its
// words, and its 8-byte groups at the ends) writes exactly its own bytes, whichever path runs:
// the 8- and 4-byte steps store only whole groups inside the range, the rest byte by byte.
TEST_F(VulkanTest, LinearBoolResultDoesNotClobberItsNeighbours) {
  const int64_t total = 96;
  const std::vector<float> fv(total, -1.0f);  // every result is false
  Tensor dx = toVulkan(Tensor::fromData(std::span<const float>(fv), {total}));
  Tensor dzero = toVulkan(Tensor::scalar(0.0, shapes::DType::F32));
  for (int64_t off : {8, 16, 4, 12, 3, 21}) {
    for (int64_t n : {1, 7, 8, 9, 13, 16, 23, 40}) {
      SCOPED_TRACE("offset " + std::to_string(off) + " n " + std::to_string(n));
      Tensor dst = toVulkan(Tensor::fromBools(std::vector<bool>(total, true), {total}));
      const Tensor in[] = {dx.slice(0, off, off + n, 1), dzero};
      elementwise(EW_GT, shapes::DType::F32, dst.slice(0, off, off + n, 1), in);
      const std::vector<double> got = toCpu(dst).toDoubles();
      for (int64_t i = 0; i < total; ++i)
        EXPECT_EQ(got[i], i >= off && i < off + n ? 0.0 : 1.0) << "byte " << i;
    }
  }
}

}  // namespace
}  // namespace tessel::backends::vulkan
