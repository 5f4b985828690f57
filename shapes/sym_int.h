// SymInt / SymBool: sizes and ints that are either constants (inline, no allocation) or
// hash-consed symbolic expressions, plus the one entry point that turns them into C++ values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "shapes/user_error.h"

namespace tessel::shapes {

class ExprNode;  // shapes/expr.h
class ShapeEnv;  // shapes/shape_env.h
/// A hash-consed, immutable expression node; equal expressions are the same pointer.
using Expr = const ExprNode*;

class SymBool;

/// A size or int. Constants are stored inline (the eager fast path never allocates); symbolic
/// values point at a canonical expression owned by the ShapeEnv that created its symbols, so a
/// symbolic SymInt must not outlive its ShapeEnv. Invariant: a symbolic SymInt never holds an
/// expression that is a constant (those are folded back to the inline form).
class SymInt {
 public:
  SymInt() = default;
  SymInt(int64_t v) : c_(v) {}  // NOLINT(google-explicit-constructor): sizes are ints
  SymInt(int v) : c_(v) {}      // NOLINT: avoids ambiguity for literals
  /// Wraps an integer expression (a constant expression becomes the inline form).
  explicit SymInt(Expr e);

  bool isConstant() const { return e_ == nullptr; }
  bool isSymbolic() const { return e_ != nullptr; }
  /// The constant value; asserts isConstant().
  int64_t constant() const;
  std::optional<int64_t> maybeConstant() const {
    return e_ ? std::nullopt : std::optional<int64_t>(c_);
  }
  /// Concrete value when every symbol in it is backed (has a hint); nullopt when it involves
  /// an unbacked symbol.
  std::optional<int64_t> hint() const;
  /// The expression; nullptr for constants (use toExpr for a node in a given env).
  Expr expr() const { return e_; }
  /// The ShapeEnv its symbols belong to; nullptr for constants.
  ShapeEnv* env() const;
  /// Structural identity (same constant or same canonical expression). Not a guard.
  bool sameAs(const SymInt& o) const { return e_ == o.e_ && (e_ || c_ == o.c_); }
  /// True when the expression mentions an unbacked symbol (u0, u1, ...).
  bool hasUnbacked() const;
  /// "2*s0 + 1", "s0", "u0", "7".
  std::string toString() const;

 private:
  int64_t c_ = 0;
  Expr e_ = nullptr;
};

/// A condition over sizes: a constant bool or a canonical boolean expression.
class SymBool {
 public:
  SymBool() = default;
  SymBool(bool v) : c_(v) {}  // NOLINT(google-explicit-constructor)
  explicit SymBool(Expr e);

  bool isConstant() const { return e_ == nullptr; }
  bool constant() const;
  std::optional<bool> maybeConstant() const { return e_ ? std::nullopt : std::optional<bool>(c_); }
  /// The value under the hints; nullopt when it involves an unbacked symbol.
  std::optional<bool> hint() const;
  Expr expr() const { return e_; }
  ShapeEnv* env() const;
  bool sameAs(const SymBool& o) const { return e_ == o.e_ && (e_ || c_ == o.c_); }
  bool hasUnbacked() const;
  /// "s0 <= 30", "Eq(s0, s1)" style text: "s0 == s1", "true".
  std::string toString() const;

 private:
  bool c_ = false;
  Expr e_ = nullptr;
};

using SymShape = std::vector<SymInt>;

// Arithmetic stays symbolic; constant operands fold inline. Overflow of constants throws
// UserError(OverflowError). `//` and `%` are Python's floor division and modulo (Note
// [Division semantics] in shapes/expr.h); a constant divisor of 0 throws ZeroDivisionError.
SymInt operator+(const SymInt& a, const SymInt& b);
SymInt operator-(const SymInt& a, const SymInt& b);
SymInt operator*(const SymInt& a, const SymInt& b);
SymInt operator-(const SymInt& a);
SymInt floorDiv(const SymInt& a, const SymInt& b);
SymInt mod(const SymInt& a, const SymInt& b);
/// ceil(a / b) for b > 0, written as -((-a) // b).
SymInt ceilDiv(const SymInt& a, const SymInt& b);
SymInt min(const SymInt& a, const SymInt& b);
SymInt max(const SymInt& a, const SymInt& b);
inline SymInt& operator+=(SymInt& a, const SymInt& b) {
  return a = a + b;
}
inline SymInt& operator-=(SymInt& a, const SymInt& b) {
  return a = a - b;
}
inline SymInt& operator*=(SymInt& a, const SymInt& b) {
  return a = a * b;
}

SymBool operator==(const SymInt& a, const SymInt& b);
SymBool operator!=(const SymInt& a, const SymInt& b);
SymBool operator<(const SymInt& a, const SymInt& b);
SymBool operator<=(const SymInt& a, const SymInt& b);
SymBool operator>(const SymInt& a, const SymInt& b);
SymBool operator>=(const SymInt& a, const SymInt& b);

SymBool operator&&(const SymBool& a, const SymBool& b);
SymBool operator||(const SymBool& a, const SymBool& b);
SymBool operator!(const SymBool& a);

/// Product of the sizes (numel); 1 for an empty shape.
SymInt product(const SymShape& shape);
/// "[2, s0, 3]".
std::string toString(const SymShape& shape);
/// A shape as errors show it: the sizes of this call, as eager code names them ("[8, 28, 28]"),
/// then, when some are symbols of a compiled function, the symbols ("[8, 28, 28] (traced as
/// [s0, s1, 28])"), since the error holds for every size the graph would serve. A size
/// without a hint (unbacked, data-dependent) can only be named by its symbol.
std::string errorText(const SymShape& shape);
/// A size as errors show it: its value in this call ("3"), or its symbol when it has no hint.
std::string errorText(const SymInt& size);
/// True when both shapes have the same rank and identical entries (no guards).
bool sameShape(const SymShape& a, const SymShape& b);

// ---------------------------------------------------------------------------------------------
// The one entry point from a symbolic condition to a C++ bool (compiler.md, "Tracing").
// Constants return at once. Otherwise the ShapeEnv the expression belongs to decides: it
// proves the outcome from ranges/facts/guards (cheap first, Z3 last) or takes the hint and
// records a guard with the current source location (ScopedSourceLoc, shapes/source_loc.h).
// An undecidable condition on unbacked symbols throws UserError(DataDependentError).
// ---------------------------------------------------------------------------------------------
bool evaluate(const SymBool& c);
/// Like evaluate, and also the name PyTorch code uses.
inline bool guardBool(const SymBool& c) {
  return evaluate(c);
}
/// A concrete int: the constant, or the hint with a guard `e == hint` (specializes).
int64_t evaluateInt(const SymInt& v);
/// Like evaluate, but unbacked sizes are assumed >= 2 (never 0 or 1) and, with
/// config.backed_size_oblivious, so are backed size symbols. Used for broadcasting decisions.
bool evaluateSizeOblivious(const SymBool& c);
/// Decides c without recording anything; nullopt when it depends on the hints.
std::optional<bool> staticallyKnown(const SymBool& c);
/// True only when c is provably true without a guard (constant, ranges, facts, solver).
inline bool definitelyTrue(const SymBool& c) {
  return staticallyKnown(c) == std::optional(true);
}
inline bool definitelyFalse(const SymBool& c) {
  return staticallyKnown(c) == std::optional(false);
}

/// Validity check for shape rules (torch._check): a constant false throws
/// UserError(kind, message); a provably false condition throws too; an undecided symbolic
/// one becomes a guard when backed (the hint must hold, or it throws) or a runtime assert and
/// fact when it involves unbacked symbols.
void require(const SymBool& c, ErrorKind kind, std::string_view message);
/// Same, building the message only on failure or when a guard text is needed.
template <class MakeMessage>
requires std::is_invocable_r_v<std::string, MakeMessage>
inline void require(const SymBool& c, ErrorKind kind, MakeMessage&& makeMessage) {
  if (auto k = c.maybeConstant()) {
    if (*k) return;
    throwUserError(kind, makeMessage());
  }
  std::string msg = makeMessage();
  require(c, kind, std::string_view(msg));
}

}  // namespace tessel::shapes
