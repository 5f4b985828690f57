// Layout ops: views share storage, values, negative dims, slices with steps, cat/stack.
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

OpAttrs sliceAttr(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop,
                  int64_t step = 1) {
  OpAttrs a;
  a.dim = dim;
  if (start) a.start = shapes::SymInt(*start);
  if (stop) a.stop = shapes::SymInt(*stop);
  a.step = step;
  return a;
}

TEST(ShapeOps, ViewsShareStorage) {
  Tensor x = iota({2, 3});
  for (Tensor v :
       {run(OpKind::Reshape, {x}, shapeAttr({3, 2})), run(OpKind::Transpose, {x}, dimsAttr({0, 1})),
        run(OpKind::Permute, {x}, dimsAttr({1, 0})), run(OpKind::Unsqueeze, {x}, dimAttr(0)),
        run(OpKind::Expand, {x}, shapeAttr({4, 2, 3})),
        run(OpKind::Slice, {x}, sliceAttr(1, 1, std::nullopt)), run(OpKind::Select, {x}, [] {
          OpAttrs a;
          a.dim = 0;
          a.index = 1;
          return a;
        }())}) {
    EXPECT_EQ(v.storage(), x.storage());
    EXPECT_NE(v.id(), x.id());
  }
}

TEST(ShapeOps, Values) {
  Tensor x = iota({2, 3});
  Tensor r = run(OpKind::Reshape, {x}, shapeAttr({3, -1}));
  EXPECT_EQ(r.shape(), (Dims{3, 2}));
  expectValues(run(OpKind::Transpose, {x}, dimsAttr({-1, -2})), {0, 3, 1, 4, 2, 5});
  Tensor u = run(OpKind::Unsqueeze, {x}, dimAttr(-1));
  EXPECT_EQ(u.shape(), (Dims{2, 3, 1}));
  EXPECT_EQ(run(OpKind::Squeeze, {u}).shape(), (Dims{2, 3}));
  EXPECT_EQ(run(OpKind::Squeeze, {u}, dimsAttr({0})).shape(), (Dims{2, 3, 1}));  // not size 1
  OpAttrs f;
  f.dim = 0;
  f.endDim = -1;
  EXPECT_EQ(run(OpKind::Flatten, {iota({2, 3, 4})}, f).shape(), (Dims{24}));
  Tensor e = run(OpKind::Expand, {F({1, 2}, {2, 1})}, shapeAttr({2, -1}));
  EXPECT_EQ(e.shape(), (Dims{2, 1}));
  expectValues(run(OpKind::Expand, {F({1, 2}, {2, 1})}, shapeAttr({2, 3})), {1, 1, 1, 2, 2, 2});
}

TEST(ShapeOps, SliceNegativeAndSteps) {
  Tensor x = iota({10});
  expectValues(run(OpKind::Slice, {x}, sliceAttr(0, 1, 3)), {1, 2});
  expectValues(run(OpKind::Slice, {x}, sliceAttr(0, -3, std::nullopt)), {7, 8, 9});
  expectValues(run(OpKind::Slice, {x}, sliceAttr(0, std::nullopt, std::nullopt, 3)), {0, 3, 6, 9});
  expectValues(run(OpKind::Slice, {x}, sliceAttr(0, 2, -2, 2)), {2, 4, 6});
  EXPECT_EQ(run(OpKind::Slice, {x}, sliceAttr(0, 8, 2)).numel(), 0);
  expectValues(run(OpKind::Slice, {x}, sliceAttr(0, -100, 2)), {0, 1});  // clamped
  Tensor m = iota({3, 4});
  expectValues(run(OpKind::Slice, {m}, sliceAttr(-1, 1, 3)), {1, 2, 5, 6, 9, 10});
  OpAttrs sel;
  sel.dim = 1;
  sel.index = -1;
  expectValues(run(OpKind::Select, {m}, sel), {3, 7, 11});
  sel.index = 4;
  expectUserError([&] { run(OpKind::Select, {m}, sel); }, ErrorKind::IndexError);
}

TEST(ShapeOps, CatAndStack) {
  Tensor a = iota({2, 2});
  Tensor b = F({10, 11}, {1, 2});
  Tensor c = dispatch(OpKind::Cat, std::vector<Tensor>{a, b}, dimAttr(0))[0];
  EXPECT_EQ(c.shape(), (Dims{3, 2}));
  expectValues(c, {0, 1, 2, 3, 10, 11});
  Tensor c1 = dispatch(OpKind::Cat, std::vector<Tensor>{a, a.transpose(0, 1)}, dimAttr(-1))[0];
  expectValues(c1, {0, 1, 0, 2, 2, 3, 1, 3});
  Tensor s = dispatch(OpKind::Stack, std::vector<Tensor>{F({1, 2}), F({3, 4})}, dimAttr(1))[0];
  EXPECT_EQ(s.shape(), (Dims{2, 2}));
  expectValues(s, {1, 3, 2, 4});
  expectUserError(
      [&] {
        dispatch(OpKind::Cat, std::vector<Tensor>{a, iota({2, 3})}, dimAttr(0));
      },
      ErrorKind::ShapeError, {"cat"});
}

TEST(ShapeOps, ReshapeMismatchIsShapeError) {
  expectUserError(
      [] {
        run(OpKind::Reshape, {iota({2, 3})}, shapeAttr({4, 2}));
      },
      ErrorKind::ShapeError, {"reshape"});
}

}  // namespace
}  // namespace tessel::backends::testing
