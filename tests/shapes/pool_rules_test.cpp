// Shape rules of pooling and resizing: output sizes as expressions of symbolic inputs, and
// errors that name the sizes.
#include <gtest/gtest.h>

#include "shapes/pool_geometry.h"
#include "shapes/shape_env.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::shapes {
namespace {

OpSignature f32(SymShape s) {
  return {std::move(s), DType::F32};
}
OpAttrs window(int64_t k, int64_t s, int64_t p) {
  OpAttrs a;
  a.pool.kernel[0] = a.pool.kernel[1] = k;
  a.pool.stride[0] = a.pool.stride[1] = s;
  a.pool.padding[0] = a.pool.padding[1] = p;
  return a;
}
std::string shapeOf(OpKind op, std::vector<OpSignature> in, const OpAttrs& a) {
  return toString(inferShape(op, in, a)[0].shape);
}
std::pair<ErrorKind, std::string> errorOf(OpKind op, std::vector<OpSignature> in,
                                          const OpAttrs& a) {
  try {
    inferShape(op, in, a);
  } catch (const UserError& e) {
    return {e.kind(), e.what()};
  }
  return {ErrorKind::Interrupted, ""};
}

TEST(PoolRules, ConstantSizes) {
  EXPECT_EQ(shapeOf(OpKind::MaxPool2d, {f32({2, 3, 7, 9})}, window(3, 2, 1)), "[2, 3, 4, 5]");
  EXPECT_EQ(shapeOf(OpKind::AvgPool2d, {f32({3, 8, 8})}, window(2, 2, 0)), "[3, 4, 4]");
  OpAttrs dil = window(3, 1, 1);
  dil.pool.dilation[0] = 2;
  EXPECT_EQ(shapeOf(OpKind::MaxPool2d, {f32({1, 1, 9, 9})}, dil), "[1, 1, 7, 9]");
  OpAttrs sized;
  sized.shape = {5, 2};
  EXPECT_EQ(shapeOf(OpKind::AdaptiveAvgPool2d, {f32({0, 3, 7, 9})}, sized), "[0, 3, 5, 2]");
  EXPECT_EQ(shapeOf(OpKind::Interpolate, {f32({2, 3, 7, 9})}, sized), "[2, 3, 5, 2]");
  EXPECT_EQ(
      shapeOf(OpKind::MaxPool2dBackward, {f32({2, 3, 4, 5}), f32({2, 3, 7, 9})}, window(3, 2, 1)),
      "[2, 3, 7, 9]");
}

TEST(PoolRules, SymbolicSizesStayExpressions) {
  ShapeEnv env;
  SymInt h = env.createSymbol("x.shape[2]", 9), w = env.createSymbol("x.shape[3]", 12);
  EXPECT_EQ(shapeOf(OpKind::MaxPool2d, {f32({2, 3, h, w})}, window(3, 2, 1)),
            toString({2, 3, floorDiv(h - 1, SymInt(2)) + 1, floorDiv(w - 1, SymInt(2)) + 1}));
  EXPECT_EQ(shapeOf(OpKind::AvgPool2d, {f32({2, 3, h, w})}, window(2, 1, 0)),
            toString({2, 3, h - 1, w - 1}));
  OpAttrs up;
  up.shape = {h * 2, w + 1};
  EXPECT_EQ(shapeOf(OpKind::Interpolate, {f32({3, h, w})}, up), toString({3, h * 2, w + 1}));
}

TEST(PoolRules, ErrorsNameTheSizes) {
  auto [kind, msg] = errorOf(OpKind::MaxPool2d, {f32({1, 1, 2, 2})}, window(3, 1, 0));
  EXPECT_EQ(kind, ErrorKind::ShapeError);
  EXPECT_NE(msg.find("given input size (1x2x2)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("kernel spans 3"), std::string::npos) << msg;
  std::tie(kind, msg) = errorOf(OpKind::AvgPool2d, {f32({1, 1, 6, 6})}, window(2, 1, 2));
  EXPECT_EQ(kind, ErrorKind::ValueError);
  EXPECT_NE(msg.find("padding=2 and kernel_size=2"), std::string::npos) << msg;
  EXPECT_EQ(errorOf(OpKind::MaxPool2d, {f32({4, 4})}, window(2, 2, 0)).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::MaxPool2d, {f32({1, 0, 4, 4})}, window(2, 2, 0)).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::MaxPool2d, {{{1, 1, 4, 4}, DType::I32}}, window(2, 2, 0)).first,
            ErrorKind::TypeError);
  OpAttrs zero;
  zero.shape = {0, 3};
  EXPECT_EQ(errorOf(OpKind::Interpolate, {f32({1, 1, 3, 3})}, zero).first, ErrorKind::ValueError);
  EXPECT_EQ(errorOf(OpKind::AdaptiveAvgPool2d, {f32({1, 1, 3, 3})}, zero).first,
            ErrorKind::Interrupted);  // an empty output is fine for adaptive pooling
  // A grad of the wrong shape for a backward op.
  EXPECT_EQ(
      errorOf(OpKind::AvgPool2dBackward, {f32({1, 1, 3, 3}), f32({1, 1, 4, 4})}, window(2, 2, 0))
          .first,
      ErrorKind::ShapeError);
}

TEST(PoolRules, PrintedAttributesTellOpsApart) {
  OpAttrs a = window(3, 2, 1), b = window(3, 2, 1);
  b.pool.countIncludePad = false;
  EXPECT_NE(poolAttrsText(OpKind::AvgPool2d, a), poolAttrsText(OpKind::AvgPool2d, b));
  OpAttrs n, l;
  n.shape = l.shape = {4, 4};
  l.pool.mode = InterpMode::Bilinear;
  EXPECT_NE(poolAttrsText(OpKind::Interpolate, n), poolAttrsText(OpKind::Interpolate, l));
}

}  // namespace
}  // namespace tessel::shapes
