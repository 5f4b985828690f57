// matmul (BLAS and integer paths, 1-D and batched), softmax family, layer_norm, linear,
// losses and dropout.
#include <cmath>

#include "backends/rng.h"
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

TEST(Matmul, TwoDAndTransposedViews) {
  Tensor a = iota({2, 3});
  Tensor b = iota({3, 2});
  expectValues(run(OpKind::Matmul, {a, b}), {10, 13, 28, 40});
  // Transposed views go to BLAS without a copy and give the same numbers.
  Tensor bt = iota({2, 3}).transpose(0, 1);
  expectValues(run(OpKind::Matmul, {a, bt}), {5, 14, 14, 50});
  expectValues(run(OpKind::Matmul, {I({1, 2, 3, 4}, {2, 2}), I({1, 0, 0, 1}, {2, 2})}),
               {1, 2, 3, 4});
  EXPECT_EQ(run(OpKind::Matmul, {I({1, 2}, {1, 2}), I({3, 4}, {2, 1})}).dtype(), DType::I32);
}

TEST(Matmul, VectorsAndBatches) {
  Tensor v = F({1, 2, 3});
  expectValues(run(OpKind::Matmul, {v, v}), {14});
  EXPECT_EQ(run(OpKind::Matmul, {v, v}).ndim(), 0);
  Tensor m = iota({3, 2});
  expectValues(run(OpKind::Matmul, {v, m}), {16, 22});
  expectValues(run(OpKind::Matmul, {m.transpose(0, 1), v}), {16, 22});
  Tensor batch = iota({2, 2, 3});
  Tensor r = run(OpKind::Matmul, {batch, m});  // folds the batch into one gemm
  EXPECT_EQ(r.shape(), (Dims{2, 2, 2}));
  expectValues(r, {10, 13, 28, 40, 46, 67, 64, 94});
  Tensor bb = run(OpKind::Matmul, {iota({2, 1, 2, 3}), iota({3, 3, 1})});  // broadcast batch
  EXPECT_EQ(bb.shape(), (Dims{2, 3, 2, 1}));
  expectValues(run(OpKind::Matmul, {F({}, {2, 0}), F({}, {0, 3})}), {0, 0, 0, 0, 0, 0});
  expectUserError(
      [] {
        run(OpKind::Matmul, {iota({2, 3}), iota({4, 5})});
      },
      ErrorKind::ShapeError, {"matmul", "[2, 3]", "[4, 5]"});
}

TEST(Matmul, BatchedMatchesPerBatchProducts) {
  Tensor a = iota({2, 3, 4});
  Tensor b = iota({2, 5, 4}).transpose(1, 2);  // strided [2, 4, 5]
  Tensor r = run(OpKind::Matmul, {a, b});
  ASSERT_EQ(r.shape(), (Dims{2, 3, 5}));
  for (int64_t i = 0; i < 2; ++i)
    EXPECT_EQ(r.select(0, i).toDoubles(),
              run(OpKind::Matmul, {a.select(0, i), b.select(0, i)}).toDoubles());
  // A broadcast batch operand (stride 0) and integer batches.
  Tensor one = iota({1, 4, 5});
  Tensor rb = run(OpKind::Matmul, {a, one});
  EXPECT_EQ(rb.select(0, 1).toDoubles(),
            run(OpKind::Matmul, {a.select(0, 1), one.select(0, 0)}).toDoubles());
  OpAttrs toI;
  toI.dtype = DType::I32;
  Tensor ai = run(OpKind::Cast, {a}, toI), bi = run(OpKind::Cast, {b}, toI);
  EXPECT_EQ(run(OpKind::Matmul, {ai, bi}).toDoubles(), r.toDoubles());
}

TEST(NN, SoftmaxIsStable) {
  Tensor x = F({1000, 1001, 1002, -1000, 0, 1000}, {2, 3});
  Tensor s = run(OpKind::Softmax, {x}, dimAttr(-1));
  const double e1 = std::exp(-1.0), e2 = std::exp(-2.0), z = 1 + e1 + e2;
  expectValues(s, {e2 / z, e1 / z, 1 / z, 0, 0, 1});
  Tensor ls = run(OpKind::LogSoftmax, {x}, dimAttr(1));
  expectValues(ls, {-2 - std::log(z), -1 - std::log(z), -std::log(z), -2000, -1000, 0}, 1e-5);
  // Along dim 0.
  expectValues(run(OpKind::Softmax, {F({0, 0, 0, 0}, {2, 2})}, dimAttr(0)), {0.5, 0.5, 0.5, 0.5});
}

TEST(NN, LayerNormAndLinear) {
  Tensor x = F({1, 2, 3, 2, 4, 6}, {2, 3});
  OpAttrs a = shapeAttr({3});
  a.eps = 0;
  Tensor y = run(OpKind::LayerNorm, {x}, a);
  const double s = std::sqrt(2.0 / 3.0);
  expectValues(y, {-1 / s, 0, 1 / s, -1 / s, 0, 1 / s}, 1e-4);
  Tensor w = F({2, 2, 2}), b = F({1, 1, 1});
  expectValues(run(OpKind::LayerNorm, {F({1, 2, 3}), w, b}, a), {1 - 2 / s, 1, 1 + 2 / s}, 1e-4);
  Tensor lw = F({1, 0, 0, 1, 1, 1}, {3, 2});  // [out=3, in=2]
  Tensor lx = F({1, 2, 3, 4}, {2, 2});
  expectValues(run(OpKind::Linear, {lx, lw, F({0, 0, 10})}), {1, 2, 13, 3, 4, 17});
  expectValues(run(OpKind::Linear, {lx, lw}), {1, 2, 3, 3, 4, 7});
  EXPECT_EQ(run(OpKind::Linear, {iota({2, 2, 2}), lw}).shape(), (Dims{2, 2, 3}));
}

TEST(NN, Losses) {
  expectValues(run(OpKind::MseLoss, {F({1, 2, 3}), F({1, 0, 0})}), {(4 + 9) / 3.0});
  Tensor logits = F({0, 0, 0, 10, 0, 0}, {2, 3});
  const double ce0 = std::log(3.0), ce1 = std::log(std::exp(10.0) + 2) - 0;
  expectValues(run(OpKind::CrossEntropy, {logits, I({1, 1})}), {(ce0 + ce1) / 2}, 1e-5);
  expectUserError(
      [&] {
        run(OpKind::CrossEntropy, {logits, I({0, 3})});
      },
      ErrorKind::IndexError, {"cross_entropy"});
}

TEST(NN, DropoutKeepsExpectationAndReplaysWithSeed) {
  seed(3);
  OpAttrs a;
  a.p = 0.25;
  Tensor x = run(OpKind::Full, {}, [] {
    OpAttrs f = shapeAttr({10000});
    f.scalars = {1.0};
    return f;
  }());
  Tensor y = run(OpKind::Dropout, {x}, a);
  std::vector<double> v = y.toDoubles();
  int zeros = 0;
  double total = 0;
  for (double e : v) {
    zeros += e == 0;
    total += e;
    if (e != 0) {
      EXPECT_NEAR(e, 1 / 0.75, 1e-6);
    }
  }
  EXPECT_NEAR(zeros / 10000.0, 0.25, 0.02);
  EXPECT_NEAR(total / 10000.0, 1.0, 0.03);
  seed(3);
  EXPECT_EQ(run(OpKind::Dropout, {x}, a).toDoubles(), v);
}

}  // namespace
}  // namespace tessel::backends::testing
