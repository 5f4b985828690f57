// The guard compiler: pass/fail, failing guard and reasons, and agreement with the reference
// evaluator and with Z3 on random inputs.
#include "shapes/guard_program.h"

#include <gtest/gtest.h>

#include <random>

#include "shapes/expr.h"
#include "shapes/solver.h"

namespace tessel::shapes {
namespace {

TEST(GuardProgram, PassFailAndReason) {
  ShapeEnv env;
  SymInt s = env.createSymbol("x.shape[0]", 20);
  SymInt one = env.createSymbol("x.shape[1]", 1);  // static
  SymInt t = env.createSymbol("y.shape[0]", 20);   // duck with s
  evaluate(s <= SymInt(30));
  GuardProgram p = env.compileGuards();
  std::vector<int64_t> ok = {20, 1, 20}, big = {40, 1, 40}, notOne = {20, 2, 20},
                       duck = {20, 1, 21};
  EXPECT_EQ(p.check(ok), -1);
  int f = p.check(big);
  ASSERT_GE(f, 0);
  EXPECT_EQ(p.failureReason(f, big), "s0 <= 30 failed (s0 = 40 from x.shape[0])");
  f = p.check(notOne);
  ASSERT_GE(f, 0);
  EXPECT_EQ(p.failureReason(f, notOne), "x.shape[1]: expected 1, got 2");
  EXPECT_GE(p.check(duck), 0);
  std::vector<int64_t> small = {1, 1, 1};  // dynamic dims were 0/1-specialized away: s0 >= 2
  EXPECT_GE(p.check(small), 0);
  (void)one;
  (void)t;
}

TEST(GuardProgram, BindSymbols) {
  ShapeEnv env;
  env.createSymbol("x.shape[0]", 20);
  env.createSymbol("x.shape[1]", 7);
  GuardProgram p = env.compileGuards();
  std::vector<int64_t> in = {3, 9};
  EXPECT_EQ(p.bindSymbols(in), (std::vector<int64_t>{3, 9}));
}

// Random guards over 3 symbols, checked on random inputs: the compiled program, the reference
// evaluator (ExprContext::evalInt) and Z3 (with the symbols pinned) must agree.
TEST(GuardProgram, AgreesWithZ3OnRandomInputs) {
  ShapeEnvConfig cfg;
  cfg.duck_shape = false;
  cfg.specialize_zero_one = false;
  ShapeEnv env(cfg);
  std::vector<SymInt> s = {env.createSymbol("a", 5, {.isSize = false}),
                           env.createSymbol("b", 7, {.isSize = false}),
                           env.createSymbol("c", 3, {.isSize = false})};
  std::mt19937 rng(7);
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  std::function<SymInt(int)> gen = [&](int d) -> SymInt {
    if (d == 0 || pick(3) == 0) return pick(2) ? s[pick(3)] : SymInt(pick(9) - 4);
    SymInt a = gen(d - 1), b = gen(d - 1);
    switch (pick(6)) {
      case 0:
        return a + b;
      case 1:
        return a * b;
      case 2:
        return floorDiv(a, SymInt(pick(2) ? 1 + pick(5) : -1 - pick(5)));
      case 3:
        return mod(a, SymInt(pick(2) ? 1 + pick(5) : -1 - pick(5)));
      case 4:
        return min(a, b);
      default:
        return max(a, b) - a;
    }
  };
  std::vector<Guard> guards;
  while (guards.size() < 40) {
    SymBool c = pick(3) == 0 ? (gen(2) == gen(2))
                : pick(2)    ? (gen(3) <= gen(2))
                             : (gen(2) != gen(2));
    if (pick(4) == 0) c = c || (gen(1) < gen(1));
    if (c.isConstant()) continue;
    guards.push_back({c.expr(), GuardKind::Guard, {}, c.toString()});
  }
  Solver z3(1'000'000, nullptr);
  int checked = 0;
  for (const Guard& g : guards) {
    GuardProgram p({g}, env);
    for (int k = 0; k < 8; ++k) {
      std::vector<int64_t> in = {pick(21) - 10, pick(21) - 10, pick(21) - 10};
      bool prog = p.passes(in);
      auto ref = env.ctx().evalInt(g.expr, in);
      ASSERT_TRUE(ref.has_value());
      EXPECT_EQ(prog, *ref != 0) << g.text;
      SolverQuery q;
      q.hard = {g.expr};
      for (int64_t v : in) q.ranges.push_back(ValueRange::point(v));
      auto r = z3.check(q);
      ASSERT_NE(r.answer, SolverAnswer::Unknown);
      EXPECT_EQ(prog, r.answer == SolverAnswer::Sat)
          << g.text << " at " << in[0] << "," << in[1] << "," << in[2];
      ++checked;
    }
  }
  EXPECT_EQ(checked, 320);
}

TEST(GuardProgram, OverflowFailsInsteadOfWrapping) {
  ShapeEnvConfig cfg;
  cfg.duck_shape = false;
  ShapeEnv env(cfg);
  SymInt a = env.createSymbol("a", 10), b = env.createSymbol("b", 10);
  evaluate(a * b <= SymInt(1000));
  GuardProgram p = env.compileGuards();
  std::vector<int64_t> huge = {int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_GE(p.check(huge), 0);
  std::vector<int64_t> fine = {20, 30};
  EXPECT_EQ(p.check(fine), -1);
}

}  // namespace
}  // namespace tessel::shapes
