// SymFloat: a float computed from sizes, ints and float inputs while a @compile function is
// traced (Note [Symbolic floats]). `b1 ** t` of a symbolic step count, `1.0 / n`, `lr * 0.5`
// of a float that changes between calls stay expressions; the compiled call evaluates them on
// the host in f64 from the call's symbol values, exactly as eager code computes them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shapes/sym_int.h"

namespace tessel::shapes {

// Note [Symbolic floats]
// Sizes are integer expressions that the shape engine canonicalizes, bounds and proves things
// about. Floats get no such algebra: a float expression is a small tree over integer
// expressions (OfInt), float inputs of the call (Input: a float argument that changes between
// calls) and constants, with the f64 operations Python has. What the engine needs of it:
//  - its value under the hints (every node carries it), for the rest of the trace;
//  - its value under a call's symbol values, computed on the host before the graph runs
//    (a graph input) or after it (a returned float): f64, so a compiled step computes the same
//    bias corrections as the eager one, bit for bit;
//  - the symbols it mentions, to specialize it when the program needs a concrete float (a
//    branch, printing, an op attribute): its integer symbols are guarded equal to their hints
//    and its float inputs equal to their values (ShapeEnv::specializeFloat), and the log says
//    so. That is exact but coarse; finer guards would need real arithmetic in the solver.
// An expression over unbacked sizes (`2.0 * u0`) has no value before the graph runs: the
// tracer computes it in the graph instead (f32), and asking for its value is a data-dependent
// error, as for an unbacked int.

#define TESSEL_FLOAT_OPS(X)                                                    \
  X(Const, "const") X(OfInt, "float") X(Input, "input")                        \
  X(Neg, "neg") X(Sqrt, "sqrt") X(Exp, "exp") X(Log, "log") X(Abs, "abs")     \
  X(Sin, "sin") X(Cos, "cos") X(Tanh, "tanh")                                  \
  X(Add, "+") X(Sub, "-") X(Mul, "*") X(Div, "/") X(Pow, "**")               \
  X(Min, "min") X(Max, "max")

enum class FloatOp : uint8_t {
#define TESSEL_X(e, s) e,
  TESSEL_FLOAT_OPS(TESSEL_X)
#undef TESSEL_X
};

struct FloatNode;
using FloatExpr = std::shared_ptr<const FloatNode>;

struct FloatNode {
  FloatOp op = FloatOp::Const;
  double value = 0;             ///< Const: the value; Input: its hint
  uint32_t input = 0;           ///< Input: index among the ShapeEnv's float inputs
  SymInt ofInt;                 ///< OfInt: the integer expression
  FloatExpr a, b;               ///< operands (b for binary ops)
  std::optional<double> hint;   ///< the value under the hints; nullopt over unbacked sizes
  bool hasInput = false;        ///< some Input below
};

/// A comparison of two floats (a float guard's, ShapeEnv::FloatGuard).
enum class FloatCmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
/// a cmp b in IEEE f64 (false for NaN except Ne).
bool compareFloats(FloatCmp cmp, double a, double b);
/// "==", "!=", "<", ...
const char* floatCmpName(FloatCmp cmp);

bool isUnaryFloatOp(FloatOp op);
const char* floatOpName(FloatOp op);

/// A float that is a constant or an expression.
class SymFloat {
 public:
  SymFloat(double v = 0);  // NOLINT(google-explicit-constructor): floats are floats
  explicit SymFloat(FloatExpr e) : e_(std::move(e)) {}
  static SymFloat ofInt(const SymInt& v);
  static SymFloat input(uint32_t index, double hint);

  bool isConstant() const { return e_->op == FloatOp::Const; }
  std::optional<double> maybeConstant() const {
    return isConstant() ? std::optional<double>(e_->value) : std::nullopt;
  }
  std::optional<double> hint() const { return e_->hint; }
  bool hasUnbacked() const { return !e_->hint; }
  const FloatExpr& expr() const { return e_; }
  /// "0.9 ** (s0 + 1)", "float(s0) * 0.5", "lr".
  std::string toString(std::span<const std::string> inputNames = {}) const;

 private:
  FloatExpr e_;
};

SymFloat unary(FloatOp op, const SymFloat& a);
SymFloat binary(FloatOp op, const SymFloat& a, const SymFloat& b);

/// The reference semantics of every op (Python's float arithmetic; `/` by 0 throws
/// ZeroDivisionError, as Python does; `**` of a negative base and a fractional exponent
/// throws ValueError).
double applyFloatOp(FloatOp op, double a, double b = 0);

/// The value under a run's integer symbol values (`intValue`) and float inputs.
double evalFloat(const FloatExpr& e, const std::function<int64_t(const SymInt&)>& intValue,
                 std::span<const double> inputs);
/// The integer expressions (OfInt leaves) and float inputs an expression mentions.
void floatLeaves(const FloatExpr& e, std::vector<SymInt>& ints, std::vector<uint32_t>& inputs);

/// The concrete value a program needs: specializes the expression's symbols (guards, logged
/// by the current ShapeEnv) and returns the hint. An expression over unbacked sizes is a
/// DataDependentError.
double evaluateFloat(const SymFloat& v);

}  // namespace tessel::shapes
