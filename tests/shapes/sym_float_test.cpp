// SymFloat (Note [Symbolic floats]): hints, evaluation under other symbol values (against a
// direct f64 computation), specialization guards, unbacked leaves, errors, and the range-aware
// division of a multiple by a divisor that cannot be 0.
#include "shapes/sym_float.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "shapes/expr.h"
#include "shapes/shape_env.h"
#include "shapes/source_loc.h"

namespace tessel::shapes {
namespace {

TEST(SymFloat, ArithmeticKeepsHintsAndEvaluatesUnderOtherValues) {
  ShapeEnv env;
  ScopedShapeEnv scope(&env);
  SymbolOptions opts;
  opts.isSize = false;
  SymInt t = env.createSymbol("t", 3, opts);
  SymFloat lr = env.createFloatInput("lr", 0.5);
  // 1 / (1 - 0.9 ** (t + 1)) * lr
  SymFloat corr = binary(FloatOp::Div, SymFloat(1.0),
                         binary(FloatOp::Sub, SymFloat(1.0),
                                binary(FloatOp::Pow, SymFloat(0.9), SymFloat::ofInt(t + 1))));
  SymFloat e = binary(FloatOp::Mul, corr, lr);
  ASSERT_TRUE(e.hint());
  EXPECT_DOUBLE_EQ(*e.hint(), 1.0 / (1.0 - std::pow(0.9, 4)) * 0.5);
  EXPECT_EQ(e.toString(env.floatInputNames()), "(1.0 / (1.0 - (0.9 ** float(s0 + 1)))) * lr");
  // Another call: t = 7, lr = 0.25, computed exactly as the eager f64 arithmetic.
  double inputs[] = {0.25};
  auto intValue = [&](const SymInt& i) {
    return *env.ctx().evalInt(i.expr(), std::vector<int64_t>{7});
  };
  EXPECT_EQ(evalFloat(e.expr(), intValue, inputs), 1.0 / (1.0 - std::pow(0.9, 8)) * 0.25);
  EXPECT_TRUE(env.guards().size() <= 1);  // nothing specialized yet (a Range guard at most)
}

TEST(SymFloat, ConstantsFoldAndIdentitiesDisappear) {
  EXPECT_TRUE(binary(FloatOp::Add, SymFloat(1.5), SymFloat(2.0)).isConstant());
  EXPECT_EQ(*binary(FloatOp::Mul, SymFloat(1.5), SymFloat(2.0)).maybeConstant(), 3.0);
  ShapeEnv env;
  ScopedShapeEnv scope(&env);
  SymFloat x = env.createFloatInput("x", 2.0);
  EXPECT_EQ(binary(FloatOp::Mul, x, SymFloat(1.0)).expr(), x.expr());
  EXPECT_EQ(binary(FloatOp::Sub, x, SymFloat(0.0)).expr(), x.expr());
  EXPECT_EQ(binary(FloatOp::Add, x, SymFloat(-0.0)).expr(), x.expr());
  EXPECT_EQ(binary(FloatOp::Mul, SymFloat(1.0), x).expr(), x.expr());
  // x + 0.0 is not x when x is -0.0 (Python: -0.0 + 0 == 0.0, printed "0.0"): it stays.
  SymFloat sum = binary(FloatOp::Add, x, SymFloat(0.0));
  EXPECT_NE(sum.expr(), x.expr());
  double negZero[] = {-0.0};
  EXPECT_FALSE(std::signbit(evalFloat(sum.expr(), [](const SymInt&) { return int64_t{0}; }, negZero)));
  EXPECT_NE(binary(FloatOp::Sub, x, SymFloat(-0.0)).expr(), x.expr());
  // Only + and - have a zero identity (x ** 0.0 is 1, x * 0.0 is 0; found by fuzz_shapes).
  for (FloatOp op : {FloatOp::Pow, FloatOp::Mul, FloatOp::Min, FloatOp::Max})
    EXPECT_NE(binary(op, x, SymFloat(0.0)).expr(), x.expr()) << floatOpName(op);
  EXPECT_EQ(*binary(FloatOp::Pow, x, SymFloat(0.0)).hint(), 1.0);
}

TEST(SymFloat, NeedingTheValueSpecializesItsLeavesAndLogs) {
  ShapeEnv env;
  std::vector<std::string> logs;
  env.logger = [&](std::string_view l) { logs.emplace_back(l); };
  ScopedShapeEnv scope(&env);
  ScopedSourceLoc loc("f.dsl", 4, 8);
  SymbolOptions opts;
  opts.isSize = false;
  SymInt n = env.createSymbol("n", 5, opts);
  SymFloat lr = env.createFloatInput("lr", 0.1);
  SymFloat e = binary(FloatOp::Mul, SymFloat::ofInt(n), lr);
  EXPECT_DOUBLE_EQ(evaluateFloat(e), 0.5);
  EXPECT_TRUE(env.floatInputs()[0].specialized);
  bool guardOnN = false;
  for (const Guard& g : env.guards()) guardOnN |= g.kind == GuardKind::Specialization;
  EXPECT_TRUE(guardOnN);
  bool logged = false;
  for (const std::string& l : logs) logged |= l.starts_with("eval float float(s0) * lr = 0.5");
  EXPECT_TRUE(logged);
}

TEST(SymFloat, UnbackedLeavesHaveNoValue) {
  ShapeEnv env;
  ScopedShapeEnv scope(&env);
  SymInt u = env.createUnbacked();
  SymFloat e = binary(FloatOp::Mul, SymFloat(2.0), SymFloat::ofInt(u));
  EXPECT_TRUE(e.hasUnbacked());
  try {
    evaluateFloat(e);
    FAIL() << "expected a DataDependentError";
  } catch (const UserError& err) {
    EXPECT_EQ(err.kind(), ErrorKind::DataDependentError);
    EXPECT_NE(std::string(err.what()).find("u0"), std::string::npos);
  }
}

TEST(SymFloat, ErrorsArePythons) {
  EXPECT_THROW(binary(FloatOp::Div, SymFloat(1.0), SymFloat(0.0)), UserError);
  EXPECT_THROW(unary(FloatOp::Sqrt, SymFloat(-1.0)), UserError);
  EXPECT_EQ(applyFloatOp(FloatOp::Log, 0.0), -INFINITY);
}

// Random trees over two symbols and a float input: the hint equals evaluation under the
// hints, and evaluation under other values equals a direct recursive f64 computation.
TEST(SymFloat, RandomTreesEvaluateLikeDirectArithmetic) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    ShapeEnv env;
    ScopedShapeEnv scope(&env);
    SymbolOptions opts;
    opts.isSize = false;
    int64_t h0 = rng() % 9 + 1, h1 = rng() % 9 + 1;
    SymInt a = env.createSymbol("a", h0, opts), b = env.createSymbol("b", h1, opts);
    double hf = 0.25 * static_cast<double>(rng() % 8 + 1);
    SymFloat f = env.createFloatInput("f", hf);
    std::function<std::pair<SymFloat, std::function<double(int64_t, int64_t, double)>>(int)> gen =
        [&](int depth) -> std::pair<SymFloat, std::function<double(int64_t, int64_t, double)>> {
      int k = depth > 3 ? static_cast<int>(rng() % 4) : static_cast<int>(rng() % 9);
      switch (k) {
        case 0: {
          double c = 0.5 * static_cast<double>(rng() % 5 + 1);
          return {SymFloat(c), [c](int64_t, int64_t, double) { return c; }};
        }
        case 1:
          return {SymFloat::ofInt(a + 1), [](int64_t x, int64_t, double) { return double(x + 1); }};
        case 2:
          return {SymFloat::ofInt(b * 2), [](int64_t, int64_t y, double) { return double(y * 2); }};
        case 3:
          return {f, [](int64_t, int64_t, double v) { return v; }};
        default: {
          auto [l, lf] = gen(depth + 1);
          auto [r, rf] = gen(depth + 1);
          const FloatOp ops[] = {FloatOp::Add, FloatOp::Sub, FloatOp::Mul, FloatOp::Max, FloatOp::Min};
          FloatOp op = ops[rng() % 5];
          // Copies, not the bindings: clang 14 cannot capture a structured binding.
          auto lfn = lf, rfn = rf;
          return {binary(op, l, r), [=](int64_t x, int64_t y, double v) {
                    return applyFloatOp(op, lfn(x, y, v), rfn(x, y, v));
                  }};
        }
      }
    };
    auto [e, direct] = gen(0);
    ASSERT_TRUE(e.hint());
    EXPECT_EQ(*e.hint(), direct(h0, h1, hf));
    int64_t x = rng() % 20, y = rng() % 20;
    double v = 0.125 * static_cast<double>(rng() % 16);
    double inputs[] = {v};
    auto intValue = [&](const SymInt& i) {
      return *env.ctx().evalInt(i.expr(), std::vector<int64_t>{x, y});
    };
    EXPECT_EQ(evalFloat(e.expr(), intValue, inputs), direct(x, y, v)) << e.toString();
  }
}

TEST(UnbackedDivision, AMultipleOfANonZeroDivisorDividesExactly) {
  ShapeEnv env;
  ScopedShapeEnv scope(&env);
  SymInt u = env.createUnbacked();
  // u may be 0: u // u is 0 there (Note [Division semantics]), so nothing is decided.
  EXPECT_FALSE(env.staticallyKnown(floorDiv(u, u) == SymInt(1)).has_value());
  env.check(u >= SymInt(1));
  EXPECT_EQ(env.staticallyKnown(floorDiv(u, u) == SymInt(1)), true);
  EXPECT_EQ(env.staticallyKnown(floorDiv(u * 2, u) == SymInt(2)), true);
  EXPECT_EQ(env.staticallyKnown(mod(u * 3, u) == SymInt(0)), true);
}

}  // namespace
}  // namespace tessel::shapes
