// What tests/fuzz/fuzz_shapes found in the shape engine, one test per bug (docs/reliability.md).
#include <gtest/gtest.h>

#include <chrono>

#include "shapes/expr.h"
#include "shapes/shape_env.h"

namespace tessel::shapes {
namespace {

// Found under UBSan: maximize() starts its search at -2^62 for an expression without a hint,
// and with a bound near 2^62 the bisection's hi - lo + 1 overflowed int64.
TEST(Fuzz, MaxValueOfAnUnhintedExpressionDoesNotOverflowTheSearch) {
  ShapeEnv env;
  SymInt u = env.createUnbacked(/*isSize=*/false), v = env.createUnbacked();
  env.check(u + v <= SymInt(10));  // intervals give u no upper bound; the solver gives 10
  EXPECT_EQ(env.maxValue(u), std::optional<int64_t>(10));
}

// Found as a timeout: Z3 4.8.12's incremental core ignored rlimit on this nonlinear maximum
// (push/pop between the binary search's queries) and never returned. Nonlinear queries now use
// a fresh solver per check (Note [Nonlinear queries are not incremental] in solver.cpp).
TEST(Fuzz, MaxValueOfANonlinearExpressionStopsWithinTheRlimit) {
  ShapeEnv env;
  ExprContext& cx = env.ctx();
  Expr x = env.createSymbol("x.shape[0]", 4).expr();
  Expr e = cx.floorDiv(x, cx.min(cx.floorDiv(x, cx.constant(1000)), x));
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(env.maxValue(SymInt(e)), std::optional<int64_t>(1999));  // x = 1999: 1999 // 1
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  EXPECT_LT(ms, 30000);
}

// Found under UBSan: a coefficient or constant of INT64_MIN was negated or given to std::gcd
// (both undefined) by the gcd rules of floordiv/mod, the normal form of comparisons, their
// negation, the printer and the range narrowing of a guard. Each is now exact, or an
// OverflowError where the result has no int64 form.
TEST(Fuzz, TheMostNegativeCoefficientIsNeverNegatedWithOverflow) {
  ShapeEnv env;
  ExprContext& cx = env.ctx();
  Expr x = env.createSymbol("x.shape[0]", 5).expr();
  Expr u = env.createUnbacked().expr();
  Expr big = cx.scale(x, INT64_MIN);
  Expr quarter = cx.scale(x, -(int64_t{1} << 61));
  EXPECT_EQ(cx.floorDiv(big, cx.constant(4)), quarter);
  EXPECT_EQ(cx.mod(big, cx.constant(6)),
            cx.scale(cx.mod(cx.scale(x, -(int64_t{1} << 62)), cx.constant(3)), 2));
  int64_t zero[] = {0, 0}, one[] = {1, 0};
  Expr le = cx.le(big, cx.constant(0));
  EXPECT_EQ(cx.evalInt(le, zero), 1);
  EXPECT_EQ(cx.evalInt(le, one), 1);
  EXPECT_EQ(le->toString(), "2*s0 >= 0");
  // -x + INT64_MIN == 0 is normalized to x - INT64_MIN == 0: no int64 form.
  Expr negX = cx.add(cx.neg(x), cx.constant(INT64_MIN));
  EXPECT_THROW(cx.eq(negX, cx.constant(0)), UserError);
  EXPECT_THROW(cx.logicalNot(cx.le(cx.add(x, cx.constant(INT64_MIN)), cx.constant(0))), UserError);
  // x + INT64_MIN != 0 as a guard, and u + INT64_MIN == 0 as a fact, narrow nothing.
  Expr eq = cx.eq(cx.add(x, cx.constant(INT64_MIN)), cx.constant(0));
  EXPECT_EQ(eq->toString(), "s0 - 9223372036854775808 == 0");
  EXPECT_FALSE(env.evaluate(SymBool(eq)));
  EXPECT_EQ(env.symbol(0).range, (ValueRange{2, ValueRange::kPosInf}));
  env.check(SymBool(cx.eq(cx.add(u, cx.constant(INT64_MIN)), cx.constant(0))));
  EXPECT_EQ(env.symbol(1).range, (ValueRange{0, ValueRange::kPosInf}));
}

// Found by Z3 disagreeing with bounds(): INT64_MAX is also +inf to ValueRange, so the range of
// 9223372036854775807 - (x % 5) was [inf, inf], a point, and evaluateInt answered
// 9223372036854775807 with no guard (x = 7 gives 9223372036854775805).
TEST(Fuzz, AnExtremeConstantIsNotAnInfiniteRange) {
  ShapeEnv env;
  ExprContext& cx = env.ctx();
  Expr x = env.createSymbol("x.shape[0]", 7).expr();
  Expr e = cx.sub(cx.constant(INT64_MAX), cx.mod(x, cx.constant(5)));
  ValueRange r = env.bounds(SymInt(e));
  EXPECT_FALSE(r.isPoint()) << r.toString();
  EXPECT_LE(r.lo, INT64_MAX - 4);
  EXPECT_EQ(evaluateInt(SymInt(e)), INT64_MAX - 2);
  EXPECT_EQ(ValueRange::point(INT64_MAX), (ValueRange{INT64_MAX - 1, ValueRange::kPosInf}));
  EXPECT_EQ(rangeAdd(ValueRange::point(INT64_MAX - 4), ValueRange{4, 10}).lo, INT64_MAX - 1);
}

}  // namespace
}  // namespace tessel::shapes
