// Canonical forms, hash-consing, printing and constant folding of symbolic expressions.
#include "shapes/expr.h"

#include <gtest/gtest.h>

#include "shapes/shape_env.h"

namespace tessel::shapes {
namespace {

TEST(Expr, HashConsingMakesEqualExpressionsIdentical) {
  ShapeEnv env;
  SymInt s0 = env.createSymbol("x.shape[0]", 5), s1 = env.createSymbol("y.shape[0]", 7);
  SymInt a = s0 * 2 + s1 + 1, b = SymInt(1) + s1 + s0 + s0;
  EXPECT_TRUE(a.sameAs(b));
  EXPECT_EQ(a.expr(), b.expr());
  EXPECT_EQ(a.toString(), "2*s0 + s1 + 1");
  EXPECT_EQ(a.hint(), 18);
}

TEST(Expr, CancellationFoldsToConstant) {
  ShapeEnv env;
  SymInt s0 = env.createSymbol("x.shape[0]", 5);
  SymInt d = (s0 + 3) - s0;
  ASSERT_TRUE(d.isConstant());
  EXPECT_EQ(d.constant(), 3);
  SymInt p = (s0 + 1) * (s0 - 1) - s0 * s0;
  EXPECT_EQ(p.maybeConstant(), -1);
}

TEST(Expr, ComparisonsAreNormalized) {
  ShapeEnv env;
  SymInt s0 = env.createSymbol("x.shape[0]", 5), s1 = env.createSymbol("y.shape[0]", 7);
  EXPECT_EQ((s0 < s1).expr(), (s0 + 1 <= s1).expr());
  EXPECT_EQ((s0 * 2 <= 9).expr(), (s0 <= 4).expr());  // gcd divided out with floor
  EXPECT_EQ((!(s0 <= 4)).expr(), (s0 >= 5).expr());
  EXPECT_EQ((s0 == s1).expr(), (s1 == s0).expr());
  EXPECT_TRUE((s0 * 2 == 7).maybeConstant() == false);  // no integer solution
  EXPECT_EQ((s0 <= 30).toString(), "s0 <= 30");
  EXPECT_EQ((s0 >= 2).toString(), "s0 >= 2");
  EXPECT_EQ((s0 < s1).toString(), "s0 < s1");
  EXPECT_EQ((s0 == s1).toString(), "s0 == s1");
}

TEST(Expr, ConstantOverflowIsAUserError) {
  SymInt big = INT64_MAX;
  try {
    (void)(big + 1);
    FAIL();
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::OverflowError);
  }
  EXPECT_THROW((void)floorDiv(SymInt(3), SymInt(0)), UserError);
}

TEST(Expr, PythonFloorSemantics) {
  EXPECT_EQ(floorDivInt(-7, 2), -4);
  EXPECT_EQ(modInt(-7, 2), 1);
  EXPECT_EQ(floorDivInt(7, -2), -4);
  EXPECT_EQ(modInt(7, -2), -1);
  EXPECT_EQ(floorDivInt(5, 0), 0);
  EXPECT_EQ(modInt(5, 0), 5);
  EXPECT_EQ(floorDiv(SymInt(-7), SymInt(2)).constant(), -4);
  EXPECT_EQ(mod(SymInt(-7), SymInt(2)).constant(), 1);
}

TEST(Expr, BooleanConnectives) {
  ShapeEnv env;
  SymInt s0 = env.createSymbol("x.shape[0]", 5);
  SymBool a = s0 <= 10, b = s0 >= 3;
  EXPECT_EQ((a && b).expr(), (b && a).expr());
  EXPECT_TRUE((a && !a).maybeConstant() == false);
  EXPECT_TRUE((a || !a).maybeConstant() == true);
  EXPECT_EQ((a && true).expr(), a.expr());
  EXPECT_EQ((!(a && b)).expr(), ((!a) || (!b)).expr());
}

}  // namespace
}  // namespace tessel::shapes
