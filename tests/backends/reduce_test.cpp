// Reductions: all dims, single and multiple dims, keepdim, layouts, accuracy, empty inputs.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "backends/cpu/isa_clones.h"
#include "backends/cpu/scan_rows.h"
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

TEST(Reduce, SumMeanOverDims) {
  Tensor x = iota({2, 3});
  expectValues(run(OpKind::Sum, {x}), {15});
  EXPECT_EQ(run(OpKind::Sum, {x}).ndim(), 0);
  expectValues(run(OpKind::Sum, {x}, dimsAttr({0})), {3, 5, 7});
  expectValues(run(OpKind::Sum, {x}, dimsAttr({1})), {3, 12});
  expectValues(run(OpKind::Sum, {x}, dimsAttr({-1})), {3, 12});
  Tensor k = run(OpKind::Mean, {x}, dimsAttr({1}, true));
  EXPECT_EQ(k.shape(), (Dims{2, 1}));
  expectValues(k, {1, 4});
  // A middle dim and a transposed input.
  Tensor y = iota({2, 3, 4});
  expectValues(run(OpKind::Sum, {y}, dimsAttr({1})), {12, 15, 18, 21, 48, 51, 54, 57});
  expectValues(run(OpKind::Sum, {y}, dimsAttr({0, 2})), {60, 92, 124});
  expectValues(run(OpKind::Sum, {x.transpose(0, 1)}, dimsAttr({1})), {3, 5, 7});
}

TEST(Reduce, IntSumAndMeanPromotion) {
  Tensor x = I({1, 2, 3, 4}, {2, 2});
  Tensor s = run(OpKind::Sum, {x}, dimsAttr({0}));
  EXPECT_EQ(s.dtype(), DType::I32);
  EXPECT_EQ(s.toInts(), (std::vector<int64_t>{4, 6}));
  Tensor b = run(OpKind::Sum, {B({true, true, false})});
  EXPECT_EQ(b.toInts(), (std::vector<int64_t>{2}));
}

TEST(Reduce, MaxMinArg) {
  Tensor x = F({3, 1, 4, 1, 5, 9, 2, 6}, {2, 4});
  expectValues(run(OpKind::Max, {x}), {9});
  expectValues(run(OpKind::Max, {x}, dimsAttr({1})), {4, 9});
  expectValues(run(OpKind::Min, {x}, dimsAttr({0})), {3, 1, 2, 1});
  Tensor am = run(OpKind::Argmax, {x}, dimsAttr({1}));
  EXPECT_EQ(am.dtype(), DType::I32);
  EXPECT_EQ(am.toInts(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(run(OpKind::Argmin, {x}, dimsAttr({0})).toInts(), (std::vector<int64_t>{0, 0, 1, 0}));
  EXPECT_EQ(run(OpKind::Argmax, {x}).toInts(), (std::vector<int64_t>{5}));  // flat index
  // First occurrence wins on ties; NaN counts as the maximum.
  EXPECT_EQ(run(OpKind::Argmin, {F({2, 1, 1})}).toInts(), (std::vector<int64_t>{1}));
  EXPECT_EQ(run(OpKind::Argmax, {F({2, NAN, 3})}).toInts(), (std::vector<int64_t>{1}));
  expectValues(run(OpKind::Max, {F({2, NAN, 3})}), {NAN});
  expectValues(run(OpKind::Max, {F({-INFINITY, -INFINITY}, {2, 1})}, dimsAttr({0})), {-INFINITY});
}

TEST(Reduce, AllAny) {
  Tensor x = B({true, false, true, true}, {2, 2});
  EXPECT_EQ(run(OpKind::All, {x}, dimsAttr({1})).toInts(), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(run(OpKind::Any, {x}, dimsAttr({0})).toInts(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(run(OpKind::All, {F({1, 2})}).toInts(), (std::vector<int64_t>{1}));
}

TEST(Reduce, EmptyInputs) {
  Tensor e = F({}, {0, 3});
  expectValues(run(OpKind::Sum, {e}, dimsAttr({0})), {0, 0, 0});
  EXPECT_TRUE(std::isnan(run(OpKind::Mean, {e}).item()));
  EXPECT_EQ(run(OpKind::All, {e}).toInts(), (std::vector<int64_t>{1}));
  EXPECT_EQ(run(OpKind::Any, {e}).toInts(), (std::vector<int64_t>{0}));
  EXPECT_THROW(run(OpKind::Max, {e}, dimsAttr({0})), UserError);
  EXPECT_EQ(run(OpKind::Sum, {e}, dimsAttr({1})).shape(), (Dims{0}));
}

TEST(Reduce, LargeSumIsAccurate) {
  // 10^7 copies of 0.1f: naive float accumulation drifts by percents.
  const int64_t n = 10'000'000;
  std::vector<float> v(n, 0.1f);
  Tensor x = F(v, {n});
  const double exact = double(0.1f) * n;
  EXPECT_NEAR(run(OpKind::Sum, {x}).item(), exact, exact * 1e-6);
  Tensor cols = F(std::vector<float>(n, 0.1f), {n / 2, 2});
  EXPECT_NEAR(run(OpKind::Sum, {cols}, dimsAttr({0})).toDoubles()[0], exact / 2, exact * 1e-6);
}

TEST(Reduce, BadDimIsIndexError) {
  expectUserError([] { run(OpKind::Sum, {iota({2, 3})}, dimsAttr({2})); }, ErrorKind::IndexError);
}

TEST(Scan, CumsumCumprodAlongEachDim) {
  Tensor x = iota({2, 3});  // 0 1 2 / 3 4 5
  expectValues(run(OpKind::Cumsum, {x}, dimAttr(1)), {0, 1, 3, 3, 7, 12});
  expectValues(run(OpKind::Cumsum, {x}, dimAttr(0)), {0, 1, 2, 3, 5, 7});
  expectValues(run(OpKind::Cumsum, {x}, dimAttr(-1)), {0, 1, 3, 3, 7, 12});
  expectValues(run(OpKind::Cumprod, {F({1, 2, 3, 4, 5, 6}, {2, 3})}, dimAttr(1)),
               {1, 2, 6, 4, 20, 120});
  expectValues(run(OpKind::Cumprod, {F({1, 2, 3, 4, 5, 6}, {2, 3})}, dimAttr(0)),
               {1, 2, 3, 4, 10, 18});
  // A strided (transposed) input.
  expectValues(run(OpKind::Cumsum, {x.transpose(0, 1)}, dimAttr(1)), {0, 3, 1, 5, 2, 7});
}

TEST(Scan, DtypesEmptyAndScalar) {
  Tensor i = run(OpKind::Cumsum, {I({1, 2, 3})}, dimAttr(0));
  EXPECT_EQ(i.dtype(), DType::I32);
  expectValues(i, {1, 3, 6});
  Tensor b = run(OpKind::Cumsum, {B({true, false, true})}, dimAttr(0));
  EXPECT_EQ(b.dtype(), DType::I32);
  expectValues(b, {1, 1, 2});
  // i32 wraps like every i32 op (PyTorch's int64 would not; Tessel's int is i32).
  expectValues(run(OpKind::Cumprod, {I({65536, 65536, 3})}, dimAttr(0)), {65536, 0, 0});
  EXPECT_EQ(run(OpKind::Cumsum, {iota({0, 3})}, dimAttr(1)).shape(), (Dims{0, 3}));
  expectValues(run(OpKind::Cumsum, {F({2.5f}, {})}, dimAttr(0)), {2.5});
  expectValues(run(OpKind::Cumprod, {F({2.5f}, {})}, dimAttr(-1)), {2.5});
}

TEST(Scan, LongCumsumAccumulatesInDouble) {
  const int64_t n = 1 << 22;
  Tensor y = run(OpKind::Cumsum, {F(std::vector<float>(n, 0.1f), {n})}, dimAttr(0));
  EXPECT_NEAR(y.toDoubles().back(), 0.1f * double(n), 1e-6 * double(n) * 0.1);
}

// Note [Blocked scan]: the AVX-512 row scan (where the CPU has it) gives the portable scan's bits,
// and both stay within float rounding of a serial double scan; lengths cover the tail after the
// last group of 16.
TEST(Scan, Avx512RowScanIsThePortableScan) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> wide(-1e4f, 1e4f), nearOne(0.9f, 1.1f);
  for (int64_t n : {1, 15, 16, 17, 1000, 4099}) {
    for (bool prod : {false, true}) {
      const auto size = static_cast<size_t>(n);
      std::vector<float> x(size), fast(size), portable(size);
      for (float& v : x) v = prod ? nearOne(gen) : wide(gen);
      auto scan = prod ? cpu::cumprodRowF32 : cpu::cumsumRowF32;
      scan(x.data(), fast.data(), n);
      {
        cpu::ScopedPortableKernels portableOnly;
        scan(x.data(), portable.data(), n);
      }
      EXPECT_EQ(std::memcmp(fast.data(), portable.data(), sizeof(float) * size_t(n)), 0)
          << "n " << n << (prod ? " cumprod" : " cumsum");
      double serial = prod ? 1.0 : 0.0;
      for (int64_t i = 0; i < n; ++i) {
        serial = prod ? serial * x[size_t(i)] : serial + x[size_t(i)];
        ASSERT_NEAR(fast[size_t(i)], serial, 1e-6 * (std::abs(serial) + 1e-3)) << i;
      }
    }
  }
}

TEST(Scan, BadDimIsIndexError) {
  expectUserError([] { run(OpKind::Cumsum, {iota({2, 3})}, dimAttr(2)); }, ErrorKind::IndexError);
  expectUserError([] { run(OpKind::Cumprod, {iota({2, 3})}, dimAttr(-3)); }, ErrorKind::IndexError);
}

}  // namespace
}  // namespace tessel::backends::testing
