// Symbolic integer and boolean expressions: hash-consed, immutable nodes in canonical form.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shapes/sym_int.h"

namespace tessel::shapes {

// Note [Canonical form]
// Integer expressions are sums of products with integer coefficients:
//   Add{c0; [(k1, m1), (k2, m2), ...]}  meaning c0 + k1*m1 + k2*m2 ..., ki != 0, mi sorted by id
// where each monomial mi is an atom (Sym, FloorDiv, Mod, Min, Max) or a Mul of atoms (sorted by
// id, repeated for powers). A lone atom with coefficient 1 and no constant is the atom itself;
// a sum without terms is a Const. Comparisons are normalized to one polynomial against zero:
//   Le(p): p <= 0    Eq(p): p == 0    Ne(p): p != 0
// with the gcd of the coefficients divided out (and, for Eq/Ne, the first coefficient made
// positive). a < b is a - b + 1 <= 0 (integers). Not is pushed inward and disappears: !Le(p) is
// Le(1 - p), !Eq(p) is Ne(p); And/Or are flattened, deduplicated and sorted. Hash-consing makes
// structural equality pointer equality.
//
// Note [Division semantics]
// `floordiv(a, b)` and `mod(a, b)` are Python's: floor(a / b) and a - b * floor(a / b), so the
// remainder has the sign of the divisor. A zero divisor is total inside expressions:
// floordiv(a, 0) = 0 and mod(a, 0) = a (so a == b*q + r still holds); SymInt arithmetic on
// constants throws ZeroDivisionError before it gets here. The simplifier, the value-range
// arithmetic, the Z3 encoding (shapes/solver.cpp) and the guard program all use these exact
// definitions; floorDivInt/modInt below are the reference.

#define TESSEL_SYM_EXPR_KINDS(X) \
  X(Const)                   \
  X(Sym)                     \
  X(Add)                     \
  X(Mul)                     \
  X(FloorDiv)                \
  X(Mod)                     \
  X(Min)                     \
  X(Max)                     \
  X(BoolConst)               \
  X(Le)                      \
  X(Eq)                      \
  X(Ne)                      \
  X(And)                     \
  X(Or)

enum class ExprKind : uint8_t {
#define TESSEL_X(k) k,
  TESSEL_SYM_EXPR_KINDS(TESSEL_X)
#undef TESSEL_X
};
const char* exprKindName(ExprKind k);

class ExprContext;

/// One node. Immutable after construction; created only by ExprContext.
class ExprNode {
 public:
  ExprKind kind;
  bool isBool;       ///< BoolConst, Le, Eq, Ne, And, Or
  bool hasHint;      ///< every symbol below is backed
  bool hasUnbacked;  ///< some symbol below is unbacked
  uint32_t id;       ///< creation order in its context; the canonical sort key
  int64_t value;     ///< Const: value; Sym: symbol index; Add: constant term; BoolConst
  int64_t hint;      ///< value under the hints when hasHint
  size_t hash;
  ExprContext* ctx;
  std::vector<Expr> args;       ///< operands (see Note [Canonical form])
  std::vector<int64_t> coeffs;  ///< Add: one coefficient per term
  std::vector<uint32_t> syms;   ///< free symbols, sorted, unique

  bool isConst() const { return kind == ExprKind::Const; }
  bool isAtom() const {
    return kind == ExprKind::Sym || kind == ExprKind::FloorDiv || kind == ExprKind::Mod ||
           kind == ExprKind::Min || kind == ExprKind::Max;
  }
  /// True for polynomials of degree <= 1 in atoms (no Mul node).
  bool isLinear() const;
  std::string toString() const;
};

/// Python floor division / modulo on int64 (the reference semantics; b == 0 gives 0 / a).
int64_t floorDivInt(int64_t a, int64_t b);
int64_t modInt(int64_t a, int64_t b);

/// Hints and names of symbols, as the expression layer needs them.
struct SymbolDesc {
  std::string name;             ///< "s0", "u3"
  std::optional<int64_t> hint;  ///< nullopt for unbacked
};

/// Owns and hash-conses the nodes of one ShapeEnv. Every constructor returns the canonical
/// node (simplification rules of shapes/simplify_rules.h applied). Integer overflow while
/// folding throws UserError(OverflowError).
class ExprContext {
 public:
  explicit ExprContext(ShapeEnv* env = nullptr);
  ~ExprContext();
  ExprContext(const ExprContext&) = delete;
  ExprContext& operator=(const ExprContext&) = delete;

  ShapeEnv* env() const { return env_; }

  Expr constant(int64_t v);
  Expr boolConst(bool v);
  /// A new symbol; its index is its position in symbols().
  Expr newSymbol(std::string name, std::optional<int64_t> hint);
  Expr symbol(uint32_t index) const { return symNodes_.at(index); }
  const std::vector<SymbolDesc>& symbols() const { return symbols_; }

  Expr add(Expr a, Expr b);
  Expr sub(Expr a, Expr b);
  Expr mul(Expr a, Expr b);
  Expr neg(Expr a);
  Expr scale(Expr a, int64_t k);
  Expr floorDiv(Expr a, Expr b);
  Expr mod(Expr a, Expr b);
  Expr min(Expr a, Expr b);
  Expr max(Expr a, Expr b);

  Expr le(Expr a, Expr b);
  Expr lt(Expr a, Expr b);
  Expr eq(Expr a, Expr b);
  Expr ne(Expr a, Expr b);
  Expr logicalAnd(Expr a, Expr b);
  Expr logicalOr(Expr a, Expr b);
  Expr logicalNot(Expr a);

  /// a / b when b is a constant or one monomial with a coefficient and every term of a is a
  /// multiple of it (so a == b * quotient for all values); nullopt otherwise.
  std::optional<Expr> divideExact(Expr a, Expr b);
  /// Rebuilds e with symbols replaced (map[sym] != nullptr), re-canonicalizing.
  Expr substitute(Expr e, const std::vector<Expr>& map);
  /// Evaluates e with the given symbol values (index = symbol). nullopt on overflow.
  std::optional<int64_t> evalInt(Expr e, std::span<const int64_t> symValues) const;

  /// How often each simplification rule fired (index = rule id in simplify_rules.h).
  std::vector<uint64_t>& ruleHits() { return ruleHits_; }
  size_t numNodes() const;

  // Internal: the interning step used by the builders and the rule table.
  struct Poly;
  Expr intern(ExprNode&& proto);
  Expr fromPoly(const Poly& p);
  Poly toPoly(Expr e);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ShapeEnv* env_;
  std::vector<SymbolDesc> symbols_;
  std::vector<Expr> symNodes_;
  std::vector<uint64_t> ruleHits_;
  uint32_t nextId_ = 0;
};

/// Polynomial view used while building sums (not stored in nodes).
struct ExprContext::Poly {
  int64_t c = 0;
  std::vector<std::pair<Expr, int64_t>> terms;  ///< (monomial, coefficient), sorted by id
};

}  // namespace tessel::shapes
