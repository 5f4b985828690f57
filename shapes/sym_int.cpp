// SymInt / SymBool arithmetic (constant fast path inline, symbolic through ExprContext) and the
// evaluate/require entry points, which dispatch to the expression's ShapeEnv.
#include "shapes/sym_int.h"

#include "shapes/expr.h"
#include "shapes/shape_env.h"
#include "shapes/source_loc.h"

namespace tessel::shapes {

SymInt::SymInt(Expr e) {
  TESSEL_ASSERT(e && !e->isBool, "SymInt from a boolean expression");
  if (e->isConst())
    c_ = e->value;
  else
    e_ = e;
}
int64_t SymInt::constant() const {
  TESSEL_ASSERT(!e_, "constant() of a symbolic SymInt " + toString());
  return c_;
}
std::optional<int64_t> SymInt::hint() const {
  if (!e_) return c_;
  return e_->hasHint ? std::optional<int64_t>(e_->hint) : std::nullopt;
}
ShapeEnv* SymInt::env() const {
  return e_ ? e_->ctx->env() : nullptr;
}
bool SymInt::hasUnbacked() const {
  return e_ && e_->hasUnbacked;
}
std::string SymInt::toString() const {
  return e_ ? e_->toString() : std::to_string(c_);
}

SymBool::SymBool(Expr e) {
  TESSEL_ASSERT(e && e->isBool, "SymBool from an integer expression");
  if (e->kind == ExprKind::BoolConst)
    c_ = e->value != 0;
  else
    e_ = e;
}
bool SymBool::constant() const {
  TESSEL_ASSERT(!e_, "constant() of a symbolic SymBool " + toString());
  return c_;
}
std::optional<bool> SymBool::hint() const {
  if (!e_) return c_;
  return e_->hasHint ? std::optional<bool>(e_->hint != 0) : std::nullopt;
}
ShapeEnv* SymBool::env() const {
  return e_ ? e_->ctx->env() : nullptr;
}
bool SymBool::hasUnbacked() const {
  return e_ && e_->hasUnbacked;
}
std::string SymBool::toString() const {
  return e_ ? e_->toString() : (c_ ? "true" : "false");
}

namespace {

[[noreturn]] void overflow(const char* op) {
  throwUserError(ErrorKind::OverflowError, std::string("integer overflow in size ") + op);
}

ExprContext& ctxOf(Expr a, Expr b) {
  TESSEL_ASSERT(a || b, "ctxOf two constants");
  if (a && b) TESSEL_ASSERT(a->ctx == b->ctx, "mixing symbols of two ShapeEnvs");
  return *(a ? a : b)->ctx;
}
Expr toExpr(ExprContext& cx, const SymInt& v) {
  return v.expr() ? v.expr() : cx.constant(*v.maybeConstant());
}

template <class Fn>
SymInt symbolic(const SymInt& a, const SymInt& b, Fn fn) {
  ExprContext& cx = ctxOf(a.expr(), b.expr());
  return SymInt(fn(cx, toExpr(cx, a), toExpr(cx, b)));
}
template <class Fn>
SymBool compare(const SymInt& a, const SymInt& b, Fn fn) {
  ExprContext& cx = ctxOf(a.expr(), b.expr());
  return SymBool(fn(cx, toExpr(cx, a), toExpr(cx, b)));
}

}  // namespace

SymInt operator+(const SymInt& a, const SymInt& b) {
  if (a.isConstant() && b.isConstant()) {
    int64_t r;
    if (__builtin_add_overflow(a.constant(), b.constant(), &r)) overflow("addition");
    return r;
  }
  return symbolic(a, b, [](ExprContext& c, Expr x, Expr y) { return c.add(x, y); });
}
SymInt operator-(const SymInt& a, const SymInt& b) {
  if (a.isConstant() && b.isConstant()) {
    int64_t r;
    if (__builtin_sub_overflow(a.constant(), b.constant(), &r)) overflow("subtraction");
    return r;
  }
  return symbolic(a, b, [](ExprContext& c, Expr x, Expr y) { return c.sub(x, y); });
}
SymInt operator*(const SymInt& a, const SymInt& b) {
  if (a.isConstant() && b.isConstant()) {
    int64_t r;
    if (__builtin_mul_overflow(a.constant(), b.constant(), &r)) overflow("multiplication");
    return r;
  }
  return symbolic(a, b, [](ExprContext& c, Expr x, Expr y) { return c.mul(x, y); });
}
SymInt operator-(const SymInt& a) {
  return SymInt(0) - a;
}

SymInt floorDiv(const SymInt& a, const SymInt& b) {
  if (b.maybeConstant() == 0)
    throwUserError(ErrorKind::ZeroDivisionError, "integer division by zero");
  if (a.isConstant() && b.isConstant()) {
    if (a.constant() == INT64_MIN && b.constant() == -1) overflow("division");
    return floorDivInt(a.constant(), b.constant());
  }
  return symbolic(a, b, [](ExprContext& c, Expr x, Expr y) { return c.floorDiv(x, y); });
}
SymInt mod(const SymInt& a, const SymInt& b) {
  if (b.maybeConstant() == 0)
    throwUserError(ErrorKind::ZeroDivisionError, "integer modulo by zero");
  if (a.isConstant() && b.isConstant()) return modInt(a.constant(), b.constant());
  return symbolic(a, b, [](ExprContext& c, Expr x, Expr y) { return c.mod(x, y); });
}
SymInt ceilDiv(const SymInt& a, const SymInt& b) {
  return -floorDiv(-a, b);
}
SymInt min(const SymInt& a, const SymInt& b) {
  if (a.isConstant() && b.isConstant()) return std::min(a.constant(), b.constant());
  return symbolic(a, b, [](ExprContext& c, Expr x, Expr y) { return c.min(x, y); });
}
SymInt max(const SymInt& a, const SymInt& b) {
  if (a.isConstant() && b.isConstant()) return std::max(a.constant(), b.constant());
  return symbolic(a, b, [](ExprContext& c, Expr x, Expr y) { return c.max(x, y); });
}

#define TESSEL_CMP(OP, METHOD, SWAP)                                           \
  SymBool operator OP(const SymInt& a, const SymInt& b) {                      \
    if (a.isConstant() && b.isConstant()) return a.constant() OP b.constant(); \
    return compare(a, b, [](ExprContext& c, Expr x, Expr y) {                  \
      return SWAP ? c.METHOD(y, x) : c.METHOD(x, y);                           \
    });                                                                        \
  }
TESSEL_CMP(==, eq, false)
TESSEL_CMP(!=, ne, false)
TESSEL_CMP(<, lt, false)
TESSEL_CMP(<=, le, false)
TESSEL_CMP(>, lt, true)
TESSEL_CMP(>=, le, true)
#undef TESSEL_CMP

SymBool operator&&(const SymBool& a, const SymBool& b) {
  if (a.maybeConstant() == false || b.maybeConstant() == false) return false;
  if (a.isConstant()) return b;
  if (b.isConstant()) return a;
  ExprContext& cx = ctxOf(a.expr(), b.expr());
  return SymBool(cx.logicalAnd(a.expr(), b.expr()));
}
SymBool operator||(const SymBool& a, const SymBool& b) {
  if (a.maybeConstant() == true || b.maybeConstant() == true) return true;
  if (a.isConstant()) return b;
  if (b.isConstant()) return a;
  ExprContext& cx = ctxOf(a.expr(), b.expr());
  return SymBool(cx.logicalOr(a.expr(), b.expr()));
}
SymBool operator!(const SymBool& a) {
  if (a.isConstant()) return !a.constant();
  return SymBool(a.expr()->ctx->logicalNot(a.expr()));
}

SymInt product(const SymShape& shape) {
  SymInt r = 1;
  for (const SymInt& s : shape) r = r * s;
  return r;
}
std::string toString(const SymShape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + shape[i].toString();
  return s + "]";
}
std::string errorText(const SymInt& size) {
  std::optional<int64_t> h = size.hint();
  return h ? std::to_string(*h) : size.toString();
}
std::string errorText(const SymShape& shape) {
  std::string concrete = "[";
  for (size_t i = 0; i < shape.size(); ++i) concrete += (i ? ", " : "") + errorText(shape[i]);
  concrete += "]";
  std::string traced = toString(shape);
  return traced == concrete ? concrete : concrete + " (traced as " + traced + ")";
}
bool sameShape(const SymShape& a, const SymShape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!a[i].sameAs(b[i])) return false;
  return true;
}

// ---- the entry points ----

static ShapeEnv& envFor(Expr e) {
  ShapeEnv* env = e->ctx->env();
  if (!env) env = currentShapeEnv();
  TESSEL_ASSERT(env, "symbolic expression without a ShapeEnv: " + e->toString());
  return *env;
}

bool evaluate(const SymBool& c) {
  if (auto k = c.maybeConstant()) return *k;
  return envFor(c.expr()).evaluate(c);
}
int64_t evaluateInt(const SymInt& v) {
  if (auto k = v.maybeConstant()) return *k;
  return envFor(v.expr()).evaluateInt(v);
}
bool evaluateSizeOblivious(const SymBool& c) {
  if (auto k = c.maybeConstant()) return *k;
  return envFor(c.expr()).evaluateSizeOblivious(c);
}
std::optional<bool> staticallyKnown(const SymBool& c) {
  if (auto k = c.maybeConstant()) return *k;
  return envFor(c.expr()).staticallyKnown(c);
}
void require(const SymBool& c, ErrorKind kind, std::string_view message) {
  if (auto k = c.maybeConstant()) {
    if (!*k) throwUserError(kind, std::string(message));
    return;
  }
  envFor(c.expr()).require(c, kind, message);
}

}  // namespace tessel::shapes
