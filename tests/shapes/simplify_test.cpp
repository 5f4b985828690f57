// Every simplification rule fires on its examples and is proved equivalent by Z3.
#include <gtest/gtest.h>

#include <functional>

#include "shapes/shape_env.h"
#include "shapes/simplify_rules.h"

namespace tessel::shapes {
namespace {

TEST(SimplifyRules, EveryRuleFiresAndIsEquivalentUnderZ3) {
  auto rules = simplifyRules();
  ASSERT_GE(rules.size(), 15u);
  for (size_t r = 0; r < rules.size(); ++r) {
    auto examples = ruleExamples(r);
    ASSERT_FALSE(examples.empty()) << rules[r].name << " has no example";
    for (const RawTerm& t : examples) {
      ExprContext cx;
      for (int i = 0; i < 3; ++i) cx.newSymbol("x" + std::to_string(i), 0);
      buildRaw(cx, t);
      EXPECT_GT(cx.ruleHits()[r], 0u) << rules[r].name << " did not fire";
      EXPECT_EQ(checkRuleWithZ3(t, 5'000'000), RuleCheck::Equivalent) << rules[r].name;
    }
  }
}

TEST(SimplifyRules, ExamplesOfDivisionNormalize) {
  ExprContext cx;
  Expr x = cx.newSymbol("x", 10);
  // (4x + 7) // 4 = x + 1 + 3//4 = x + 1
  EXPECT_EQ(cx.floorDiv(cx.add(cx.scale(x, 4), cx.constant(7)), cx.constant(4)),
            cx.add(x, cx.constant(1)));
  EXPECT_EQ(cx.floorDiv(cx.add(x, cx.constant(7)), cx.constant(4))->toString(), "(x + 3)//4 + 1");
  EXPECT_EQ(cx.mod(cx.scale(x, 6), cx.constant(3))->toString(), "0");
  EXPECT_EQ(cx.floorDiv(cx.floorDiv(x, cx.constant(2)), cx.constant(3)),
            cx.floorDiv(x, cx.constant(6)));
  EXPECT_EQ(cx.min(x, cx.add(x, cx.constant(2))), x);
  EXPECT_EQ(cx.max(x, cx.min(x, cx.constant(3))), x);
}

// Random expressions: the canonical form agrees with Z3 on the raw term (translation fuzz).
TEST(SimplifyRules, RandomTermsAgreeWithZ3) {
  uint64_t seed = 12345;
  auto rnd = [&](int n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((seed >> 33) % n);
  };
  std::function<RawTerm(int)> gen = [&](int depth) -> RawTerm {
    if (depth == 0 || rnd(3) == 0) {
      if (rnd(2)) return {RawTerm::Var, rnd(3), {}};
      return {RawTerm::Const, rnd(11) - 5, {}};
    }
    auto op = static_cast<RawTerm::Op>(RawTerm::Add + rnd(6));
    RawTerm b = gen(depth - 1);
    if (op == RawTerm::FloorDiv || op == RawTerm::Mod)
      b = {RawTerm::Const, rnd(2) ? 1 + rnd(6) : -1 - rnd(6), {}};
    return {op, 0, {gen(depth - 1), b}};
  };
  int proved = 0;
  for (int i = 0; i < 150; ++i) {
    RawTerm t = gen(3);
    RuleCheck r = checkRuleWithZ3(t, 2'000'000);
    EXPECT_NE(r, RuleCheck::NotEquivalent) << "term " << i;
    proved += r == RuleCheck::Equivalent;
  }
  EXPECT_GT(proved, 100);
}

}  // namespace
}  // namespace tessel::shapes
