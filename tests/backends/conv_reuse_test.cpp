// conv2d's backward ops on the cpu share the blocked output gradient and the bias gradient
// (Note [Conv backward reuse]): whatever order they run in, and when a freed gy's memory is
// handed to a new tensor, each op's result is the one it computes alone.
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

// Deterministic values in [-1, 1) from a seed (an LCG).
Tensor values(Dims shape, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(numelOf(shape)));
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / float(1 << 23) - 1.0f;
  }
  return F(v, std::move(shape));
}

OpAttrs pad1(const Dims& result) {
  OpAttrs a = shapeAttr(result);
  a.conv.padBegin = a.conv.padEnd = {1, 1};
  return a;
}

// gy is at least 64 KiB, so that its freed block goes to the block cache and is reused.
const Dims kX = {2, 8, 32, 32}, kW = {16, 8, 3, 3}, kY = {2, 16, 32, 32};

Tensor dataGrad(const Tensor& gy, const Tensor& w) {
  return run(OpKind::Conv2dBackwardInput, {gy, w}, pad1(kX));
}
Tensor weightGrad(const Tensor& gy, const Tensor& x) {
  return run(OpKind::Conv2dBackwardWeight, {gy, x}, pad1(kW));
}
Tensor biasGrad(const Tensor& gy) {
  return run(OpKind::Sum, {gy}, dimsAttr({0, 2, 3}));
}

// The bias gradient summed in float64, the reference for the primitive's diff_bias.
std::vector<double> channelSums(const Tensor& gy) {
  std::vector<double> v = gy.toDoubles(), sums(static_cast<size_t>(kY[1]), 0.0);
  const int64_t plane = kY[2] * kY[3];
  for (size_t i = 0; i < v.size(); ++i) sums[(i / plane) % kY[1]] += v[i];
  return sums;
}

TEST(ConvBackwardReuse, EitherOrderGivesTheSameGradients) {
  const Tensor x = values(kX, 1), w = values(kW, 2), gy = values(kY, 3);
  const std::vector<double> dx = dataGrad(gy, w).toDoubles();
  const std::vector<double> dw = weightGrad(gy, x).toDoubles();  // takes dataGrad's copy
  EXPECT_EQ(weightGrad(gy, x).toDoubles(), dw);                  // reorders again
  EXPECT_EQ(dataGrad(gy, w).toDoubles(), dx);                    // takes weightGrad's copy
  expectValues(biasGrad(gy), channelSums(gy), 1e-4);             // kept by weightGrad
  expectValues(biasGrad(gy), channelSums(gy), 1e-4);             // taken once: summed
  // Another gy of the same size, and a view of gy, are not the kept one.
  weightGrad(gy, x);
  const Tensor other = values(kY, 4);
  expectValues(biasGrad(other), channelSums(other), 1e-4);
  EXPECT_NE(dataGrad(other, w).toDoubles(), dx);
  weightGrad(gy, x);
  const Tensor half = gy.slice(0, 0, 1, 1);
  OpAttrs halfPad = pad1({1, kX[1], kX[2], kX[3]});
  const Tensor dxHalf = run(OpKind::Conv2dBackwardInput, {half, w}, halfPad);
  EXPECT_EQ(dxHalf.toDoubles(),
            std::vector<double>(dx.begin(), dx.begin() + static_cast<long>(dxHalf.numel())));
  // The bias gradient keeps its sign and dims rules: keepdim or other dims are summed.
  weightGrad(gy, x);
  EXPECT_EQ(run(OpKind::Sum, {gy}, dimsAttr({0, 2, 3}, true)).shape(), (Dims{1, 16, 1, 1}));
  expectValues(run(OpKind::Sum, {gy}, dimsAttr({-4, -2, -1})), channelSums(gy), 1e-4);
}

TEST(ConvBackwardReuse, ReusedMemoryIsNotTheKeptGradient) {
  const Tensor x = values(kX, 5), w = values(kW, 6);
  const std::vector<double> dxB = dataGrad(values(kY, 8), w).toDoubles();
  const void* addressA = nullptr;
  {
    const Tensor gyA = values(kY, 7);
    addressA = gyA.bytes();
    weightGrad(gyA, x);  // keeps gyA's blocked copy and bias gradient
  }
  // gyA's block is free and goes to the next tensor of its size: gyB, other values.
  const Tensor gyB = values(kY, 8);
  ASSERT_EQ(static_cast<const void*>(gyB.bytes()), addressA) << "the block cache changed";
  EXPECT_EQ(dataGrad(gyB, w).toDoubles(), dxB);
  expectValues(biasGrad(gyB), channelSums(gyB), 1e-4);
}

}  // namespace
}  // namespace tessel::backends::testing
