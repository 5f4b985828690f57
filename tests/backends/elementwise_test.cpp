// Elementwise kernels: values, broadcasting, promotion, NaN handling, vector math accuracy.
#include <cmath>

#include "backends/cpu/vec_math.h"
#include "ops/elementwise_cpu.h"
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

TEST(Elementwise, UnaryValues) {
  Tensor x = F({-1.5f, 0.f, 2.f});
  expectValues(run(OpKind::Neg, {x}), {1.5, 0, -2});
  expectValues(run(OpKind::Abs, {x}), {1.5, 0, 2});
  expectValues(run(OpKind::Relu, {x}), {0, 0, 2});
  expectValues(run(OpKind::Exp, {x}), {std::exp(-1.5), 1, std::exp(2.0)});
  expectValues(run(OpKind::Tanh, {x}), {std::tanh(-1.5), 0, std::tanh(2.0)});
  expectValues(run(OpKind::Sigmoid, {x}), {1 / (1 + std::exp(1.5)), 0.5, 1 / (1 + std::exp(-2.0))});
  expectValues(run(OpKind::Sin, {x}), {std::sin(-1.5), 0, std::sin(2.0)});
  expectValues(run(OpKind::Cos, {x}), {std::cos(-1.5), 1, std::cos(2.0)});
  // gelu, erf form: x * Phi(x).
  expectValues(run(OpKind::Gelu, {x}), {-1.5 * 0.5 * (1 + std::erf(-1.5 / std::sqrt(2.0))), 0,
                                        2 * 0.5 * (1 + std::erf(2 / std::sqrt(2.0)))});
  Tensor p = F({0.25f, 4.f});
  expectValues(run(OpKind::Log, {p}), {std::log(0.25), std::log(4.0)});
  expectValues(run(OpKind::Sqrt, {p}), {0.5, 2});
  expectValues(run(OpKind::Rsqrt, {p}), {2, 0.5});
  expectValues(run(OpKind::LogicalNot, {x}), {0, 1, 0});
}

// gelu's gradient as one op: g * (Phi(x) + x * phi(x)) in double, over a range
// wider than the erf polynomial's and the A&S branch's seam at |x / sqrt 2| = 1, with a
// broadcast gradient; at +-inf it is NaN (inf * 0) and a NaN stays NaN, as PyTorch 1.13 gives.
TEST(Elementwise, GeluBackwardValues) {
  std::vector<float> xs;
  for (float v = -9.f; v <= 9.f; v += 0.0625f) xs.push_back(v);
  xs.push_back(1.41421356f);
  const int64_t n = int64_t(xs.size());
  Tensor x = Tensor::fromData(std::span<const float>(xs), {1, n});
  Tensor g = F({1.f, -2.5f}, {2, 1});
  Tensor got = run(OpKind::GeluBackward, {g, x});
  ASSERT_EQ(got.shape(), (Dims{2, n}));
  std::vector<double> v = got.toDoubles();
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t i = 0; i < n; ++i) {
      const double t = xs[i], gr = r == 0 ? 1.0 : -2.5;
      const double want =
          gr * (0.5 * (1 + std::erf(t / std::sqrt(2.0))) + t * std::exp(-t * t / 2) / std::sqrt(2 * M_PI));
      EXPECT_NEAR(v[r * n + i], want, 1e-6 * std::fabs(gr) + 2e-6 * std::fabs(want)) << "x = " << t;
    }
  std::vector<double> edges =
      run(OpKind::GeluBackward, {F({1.f, 1.f, 1.f, 1.f}), F({INFINITY, -INFINITY, NAN, 0.f})})
          .toDoubles();
  EXPECT_TRUE(std::isnan(edges[0]));
  EXPECT_TRUE(std::isnan(edges[1]));
  EXPECT_TRUE(std::isnan(edges[2]));
  EXPECT_EQ(edges[3], 0.5);
}

// The dense-model unary ops: PyTorch's values, including halves, signed zeros, NaN and infinities.
TEST(Elementwise, DenseUnaryValues) {
  const float nan = std::nanf(""), inf = INFINITY;
  Tensor x = F({0.5f, 1.5f, 2.5f, -0.5f, -2.5f, -1.7f, nan, inf, -inf});
  auto bits = [](const Tensor& t) { return t.toDoubles(); };
  auto same = [&](OpKind op, std::vector<double> want) {
    SCOPED_TRACE(std::string(shapes::opName(op)));
    std::vector<double> got = bits(run(op, {x}));
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << i;
      else EXPECT_EQ(got[i], want[i]) << i;
    }
  };
  same(OpKind::Round, {0, 2, 2, -0.0, -2, -2, nan, inf, -inf});  // half to even
  same(OpKind::Floor, {0, 1, 2, -1, -3, -2, nan, inf, -inf});
  same(OpKind::Ceil, {1, 2, 3, -0.0, -2, -1, nan, inf, -inf});
  same(OpKind::Trunc, {0, 1, 2, -0.0, -2, -1, nan, inf, -inf});
  same(OpKind::Sign, {1, 1, 1, -1, -1, -1, 0, 1, -1});  // sign(NaN) is 0, as torch
  same(OpKind::Isnan, {0, 0, 0, 0, 0, 0, 1, 0, 0});
  same(OpKind::Isinf, {0, 0, 0, 0, 0, 0, 0, 1, 1});
  same(OpKind::Isfinite, {1, 1, 1, 1, 1, 1, 0, 0, 0});
  EXPECT_EQ(run(OpKind::Isnan, {x}).dtype(), DType::Bool);
  Tensor s = F({1e-7f, -0.5f, 3.f, 25.f, -30.f});
  expectValues(run(OpKind::Log1p, {F({1e-7f, -0.5f, 3.f, 25.f, -0.75f})}),
               {std::log1p(1e-7), std::log1p(-0.5), std::log1p(3.0), std::log1p(25.0),
                std::log1p(-0.75)}, 1e-6);
  expectValues(run(OpKind::Expm1, {s}), {std::expm1(1e-7), std::expm1(-0.5), std::expm1(3.0),
                                         std::expm1(25.0), std::expm1(-30.0)}, 1e-6);
  expectValues(run(OpKind::Erf, {s}), {std::erf(1e-7), std::erf(-0.5), std::erf(3.0), 1, -1});
  expectValues(run(OpKind::Silu, {s}), {1e-7 / (1 + std::exp(-1e-7)), -0.5 / (1 + std::exp(0.5)),
                                        3 / (1 + std::exp(-3.0)), 25, -30 / (1 + std::exp(30.0))});
  expectValues(run(OpKind::Softplus, {s}), {std::log1p(std::exp(1e-7)), std::log1p(std::exp(-0.5)),
                                            std::log1p(std::exp(3.0)), 25, std::exp(-30.0)});
  // Integers: floor..trunc are the identity, sign -1/0/1, the tests constant; erf is f32.
  Tensor i = I({-3, 0, 4});
  EXPECT_EQ(run(OpKind::Floor, {i}).toInts(), (std::vector<int64_t>{-3, 0, 4}));
  EXPECT_EQ(run(OpKind::Sign, {i}).toInts(), (std::vector<int64_t>{-1, 0, 1}));
  EXPECT_EQ(run(OpKind::Isfinite, {i}).toInts(), (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(run(OpKind::Erf, {i}).dtype(), DType::F32);
}

TEST(Elementwise, IntUnaryKeepsInt) {
  Tensor x = I({-3, 4});
  Tensor n = run(OpKind::Neg, {x});
  EXPECT_EQ(n.dtype(), DType::I32);
  EXPECT_EQ(n.toInts(), (std::vector<int64_t>{3, -4}));
  Tensor e = run(OpKind::Exp, {x});
  EXPECT_EQ(e.dtype(), DType::F32);
}

TEST(Elementwise, BinaryBroadcasting) {
  Tensor a = iota({2, 3});
  Tensor row = F({10, 20, 30});
  Tensor col = F({100, 200}, {2, 1});
  expectValues(run(OpKind::Add, {a, row}), {10, 21, 32, 13, 24, 35});
  expectValues(run(OpKind::Add, {a, col}), {100, 101, 102, 203, 204, 205});
  expectValues(run(OpKind::Mul, {row, col}), {1000, 2000, 3000, 2000, 4000, 6000});
  Tensor s = Tensor::scalar(2, DType::F32);
  expectValues(run(OpKind::Sub, {s, a}), {2, 1, 0, -1, -2, -3});
  // Non-contiguous operands take the strided path.
  Tensor t = a.transpose(0, 1);
  expectValues(run(OpKind::Add, {t, t}), {0, 6, 2, 8, 4, 10});
  EXPECT_EQ(run(OpKind::Add, {F({}, {0, 3}), row}).shape(), (Dims{0, 3}));
}

TEST(Elementwise, PromotionAndDivision) {
  Tensor i = I({7, -7});
  Tensor f = F({2.f, 2.f});
  Tensor sum = run(OpKind::Add, {i, f});
  EXPECT_EQ(sum.dtype(), DType::F32);
  expectValues(sum, {9, -5});
  Tensor two = I({2, 2});
  EXPECT_EQ(run(OpKind::FloorDiv, {i, two}).toInts(), (std::vector<int64_t>{3, -4}));
  EXPECT_EQ(run(OpKind::Mod, {i, two}).toInts(), (std::vector<int64_t>{1, 1}));
  Tensor d = run(OpKind::Div, {i, two});
  EXPECT_EQ(d.dtype(), DType::F32);
  expectValues(d, {3.5, -3.5});
  expectValues(run(OpKind::Mod, {F({-7.f, 7.f}), F({2.f, -2.f})}), {1, -1});
  expectValues(run(OpKind::FloorDiv, {F({-7.f}), F({2.f})}), {-4});
  EXPECT_EQ(run(OpKind::Pow, {I({2, 3}), I({10, 2})}).toInts(), (std::vector<int64_t>{1024, 9}));
  expectValues(run(OpKind::Pow, {F({3.f, -2.f}), Tensor::scalar(2, DType::F32)}), {9, 4});
  expectValues(run(OpKind::Pow, {F({4.f}), F({0.5f})}), {2});
}

TEST(Elementwise, IntegerDivisionByZeroIsAnError) {
  expectUserError(
      [] {
        run(OpKind::FloorDiv, {I({1}), I({0})});
      },
      ErrorKind::ZeroDivisionError, {"floordiv"});
  expectUserError([] { run(OpKind::Mod, {I({1}), I({0})}); }, ErrorKind::ZeroDivisionError);
  expectUserError([] { run(OpKind::Pow, {I({2}), I({-1})}); }, ErrorKind::ValueError);
  // Floats follow IEEE.
  EXPECT_TRUE(std::isinf(run(OpKind::Div, {F({1.f}), F({0.f})}).item()));
}

TEST(Elementwise, ComparisonsAndLogic) {
  Tensor a = F({1, 2, 3});
  Tensor b = I({2, 2, 2});
  Tensor lt = run(OpKind::Lt, {a, b});
  EXPECT_EQ(lt.dtype(), DType::Bool);
  EXPECT_EQ(lt.toInts(), (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(run(OpKind::Eq, {a, b}).toInts(), (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(run(OpKind::Ge, {a, b}).toInts(), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(run(OpKind::LogicalAnd, {B({true, true, false}), B({true, false, false})}).toInts(),
            (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(run(OpKind::LogicalOr, {B({true, false}), F({0.f, 0.f})}).toInts(),
            (std::vector<int64_t>{1, 0}));
}

TEST(Elementwise, MaximumMinimumPropagateNaN) {
  Tensor a = F({1, NAN, 5});
  Tensor b = F({2, 0, NAN});
  expectValues(run(OpKind::Maximum, {a, b}), {2, NAN, NAN});
  expectValues(run(OpKind::Minimum, {a, b}), {1, NAN, NAN});
  expectValues(run(OpKind::Relu, {F({NAN})}), {NAN});
}

TEST(Elementwise, WhereAndClamp) {
  Tensor c = B({true, false, true});
  Tensor r = run(OpKind::Where, {c, F({1, 2, 3}), Tensor::scalar(0, DType::F32)});
  expectValues(r, {1, 0, 3});
  Tensor ri = run(OpKind::Where, {c, I({1, 2, 3}), I({9, 9, 9})});
  EXPECT_EQ(ri.dtype(), DType::I32);
  expectValues(run(OpKind::Clamp, {F({-5, 0.5f, 5}), Tensor::scalar(0, DType::F32),
                                   Tensor::scalar(1, DType::F32)}),
               {0, 0.5, 1});
}

TEST(Elementwise, CastTruncatesAndSaturates) {
  OpAttrs a;
  a.dtype = DType::I32;
  EXPECT_EQ(run(OpKind::Cast, {F({1.9f, -1.9f, NAN, 1e20f})}, a).toInts(),
            (std::vector<int64_t>{1, -1, 0, 2147483647}));
  a.dtype = DType::Bool;
  EXPECT_EQ(run(OpKind::Cast, {F({0.f, 0.5f})}, a).toInts(), (std::vector<int64_t>{0, 1}));
  a.dtype = DType::F32;
  expectValues(run(OpKind::Cast, {B({true, false})}, a), {1, 0});
}

TEST(Elementwise, BinaryShapeErrorNamesOpAndShapes) {
  expectUserError(
      [] {
        run(OpKind::Add, {iota({2, 3}), iota({4})});
      },
      ErrorKind::ShapeError, {"add", "[2, 3]", "[4]"});
}

TEST(VecMath, ExpAndLogMatchLibm) {
  double worstExp = 0, worstLog = 0;
  for (float x = -87.f; x < 88.5f; x += 0.0137f) {  // normal results only
    const double want = std::exp(double(x));
    worstExp = std::max(worstExp, std::fabs(cpu::vexp(x) - want) / want);
  }
  for (float x = 1e-30f; x < 1e30f; x *= 1.0173f) {
    const double want = std::log(double(x));
    worstLog = std::max(worstLog, std::fabs(cpu::vlog(x) - want) / std::max(1e-3, std::fabs(want)));
  }
  EXPECT_LT(worstExp, 3e-7);
  EXPECT_LT(worstLog, 3e-7);
  EXPECT_EQ(cpu::vexp(-200.f), 0.f);
  EXPECT_TRUE(std::isinf(cpu::vexp(100.f)));
  EXPECT_TRUE(std::isnan(cpu::vexp(NAN)));
  EXPECT_EQ(cpu::vexp(0.f), 1.f);
  EXPECT_EQ(cpu::vlog(1.f), 0.f);
  EXPECT_TRUE(std::isinf(cpu::vlog(0.f)) && cpu::vlog(0.f) < 0);
  EXPECT_TRUE(std::isnan(cpu::vlog(-1.f)));
  EXPECT_TRUE(std::isinf(cpu::vlog(INFINITY)));
  EXPECT_NEAR(cpu::vlog(1e-40f), std::log(1e-40), 1e-4);  // denormal input
}

// ops/elementwise_math.h's erf (Note [One erf]), as the cpu compiles it (exp is vec_math.h's).
TEST(VecMath, ErfMatchesLibmInRelativeTerms) {
  double worst = 0;
  // Both branches (|x| <= 1 and beyond), tiny arguments (relative error, not absolute), signs.
  for (float x = 1e-30f; x < 12.f; x *= 1.0031f)
    for (float v : {x, -x}) {
      const double want = std::erf(double(v));
      worst = std::max(worst, std::fabs(tessel::ops::ew::ew_erf(v) - want) / std::fabs(want));
    }
  EXPECT_LT(worst, 3e-7);
  EXPECT_EQ(tessel::ops::ew::ew_erf(0.f), 0.f);
  EXPECT_EQ(tessel::ops::ew::ew_erf(INFINITY), 1.f);
  EXPECT_EQ(tessel::ops::ew::ew_erf(-INFINITY), -1.f);
  EXPECT_TRUE(std::isnan(tessel::ops::ew::ew_erf(NAN)));
}

}  // namespace
}  // namespace tessel::backends::testing
