// The simplification rules for floor division, modulo, min and max, written as a table, plus
// the raw-term form the tests use to check each rule against Z3.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "shapes/expr.h"

namespace tessel::shapes {

/// One rewrite: when `kind`'s operands match, `apply` returns the canonical replacement.
/// lhs/rhs/when document the rule (docs/shapes.md lists them from this table).
struct SimplifyRule {
  const char* name;
  ExprKind kind;  ///< FloorDiv, Mod, Min or Max
  const char* lhs;
  const char* rhs;
  const char* when;
  std::optional<Expr> (*apply)(ExprContext& cx, std::span<const Expr> args);
};

/// The rules in the order they are tried; ExprContext::ruleHits() is indexed like this.
std::span<const SimplifyRule> simplifyRules();
/// Tries the rules of `kind` on args; bumps the hit counter of the rule that fired.
std::optional<Expr> applySimplifyRules(ExprContext& cx, ExprKind kind, std::span<const Expr> args);

/// An unsimplified term over variables x0, x1, x2 (for rule checking): the Z3 encoding of a
/// RawTerm follows it literally, while building it through ExprContext simplifies it.
struct RawTerm {
  enum Op : uint8_t { Const, Var, Add, Mul, FloorDiv, Mod, Min, Max } op = Const;
  int64_t value = 0;  ///< Const value or Var index
  std::vector<RawTerm> args;
};
/// Builds t through the canonicalizing constructors of cx (variables: cx.symbol(i)).
Expr buildRaw(ExprContext& cx, const RawTerm& t);
/// A few instances of each rule's left-hand side (index = rule id); every one must fire it.
std::vector<RawTerm> ruleExamples(size_t rule);

enum class RuleCheck { Equivalent, NotEquivalent, Unknown };
/// Proves with Z3 (under rlimit) that the raw term and its simplified form are equal for
/// every value of the variables. Implemented in shapes/solver.cpp.
RuleCheck checkRuleWithZ3(const RawTerm& t, uint32_t rlimit);
/// Proves with Z3 that two expressions of the same context are equal for all symbol values.
RuleCheck checkEquivalentWithZ3(ExprContext& cx, Expr a, Expr b, uint32_t rlimit);

}  // namespace tessel::shapes
