// The rule table for floordiv / mod / min / max (context-free rules; range-based ones live in
// ShapeEnv::simplify). Every rule is checked against Z3 by tests/shapes/simplify_test.cpp.
#include "shapes/simplify_rules.h"

#include <algorithm>
#include <numeric>

namespace tessel::shapes {

namespace {

using Args = std::span<const Expr>;
using Opt = std::optional<Expr>;

bool isConst(Expr e, int64_t v) {
  return e->kind == ExprKind::Const && e->value == v;
}
// |v| without overflow: |INT64_MIN| is 2^63.
uint64_t magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

// gcd of every coefficient and the constant of a polynomial (0 for the zero polynomial), in
// unsigned arithmetic: std::gcd of INT64_MIN is undefined.
uint64_t polyGcd(ExprContext& cx, Expr e) {
  auto p = cx.toPoly(e);
  uint64_t g = magnitude(p.c);
  for (auto& t : p.terms) g = std::gcd(g, magnitude(t.second));
  return g;
}
Expr polyDivExact(ExprContext& cx, Expr e, int64_t g) {
  auto p = cx.toPoly(e);
  p.c /= g;
  for (auto& t : p.terms) t.second /= g;
  return cx.fromPoly(p);
}

// ---- floordiv ----
Opt divFold(ExprContext& cx, Args a) {
  if (!a[0]->isConst() || !a[1]->isConst()) return {};
  return cx.constant(floorDivInt(a[0]->value, a[1]->value));
}
Opt divByOne(ExprContext& cx, Args a) {
  return isConst(a[1], 1) ? Opt(a[0]) : Opt();
}
Opt divByMinusOne(ExprContext& cx, Args a) {
  return isConst(a[1], -1) ? Opt(cx.neg(a[0])) : Opt();
}
Opt divZeroNum(ExprContext& cx, Args a) {
  return isConst(a[0], 0) ? Opt(a[0]) : Opt();
}
Opt divGcd(ExprContext& cx, Args a) {
  if (!a[1]->isConst() || a[1]->value <= 1) return {};
  auto g = static_cast<int64_t>(std::gcd(polyGcd(cx, a[0]), magnitude(a[1]->value)));
  if (g <= 1) return {};
  return cx.floorDiv(polyDivExact(cx, a[0], g), cx.constant(a[1]->value / g));
}
Opt divExtract(ExprContext& cx, Args a) {
  if (!a[1]->isConst() || a[1]->value == 0) return {};
  int64_t b = a[1]->value;
  auto p = cx.toPoly(a[0]);
  ExprContext::Poly q, r;
  q.c = floorDivInt(p.c, b);
  r.c = modInt(p.c, b);
  for (auto& t : p.terms) (t.second % b == 0 ? q : r).terms.push_back(t);
  for (auto& t : q.terms) t.second /= b;
  if (q.terms.empty() && q.c == 0) return {};
  Expr rest =
      r.terms.empty() ? cx.constant(floorDivInt(r.c, b)) : cx.floorDiv(cx.fromPoly(r), a[1]);
  return cx.add(cx.fromPoly(q), rest);
}
Opt divNested(ExprContext& cx, Args a) {
  if (a[0]->kind != ExprKind::FloorDiv || !a[1]->isConst() || a[1]->value <= 0) return {};
  Expr inner = a[0]->args[1];
  if (!inner->isConst() || inner->value <= 0) return {};
  int64_t prod;
  if (__builtin_mul_overflow(inner->value, a[1]->value, &prod)) return {};
  return cx.floorDiv(a[0]->args[0], cx.constant(prod));
}

// ---- mod ----
Opt modFold(ExprContext& cx, Args a) {
  if (!a[0]->isConst() || !a[1]->isConst()) return {};
  return cx.constant(modInt(a[0]->value, a[1]->value));
}
Opt modByUnit(ExprContext& cx, Args a) {
  return isConst(a[1], 1) || isConst(a[1], -1) ? Opt(cx.constant(0)) : Opt();
}
Opt modZeroNum(ExprContext& cx, Args a) {
  return isConst(a[0], 0) ? Opt(a[0]) : Opt();
}
Opt modSelf(ExprContext& cx, Args a) {
  return a[0] == a[1] ? Opt(cx.constant(0)) : Opt();
}
Opt modDropMultiple(ExprContext& cx, Args a) {
  if (!a[1]->isConst() || a[1]->value == 0) return {};
  int64_t b = a[1]->value;
  auto p = cx.toPoly(a[0]);
  ExprContext::Poly r;
  r.c = modInt(p.c, b);
  for (auto& t : p.terms)
    if (t.second % b != 0) r.terms.push_back(t);
  if (r.terms.size() == p.terms.size() && r.c == p.c) return {};
  if (r.terms.empty()) return cx.constant(r.c);
  return cx.mod(cx.fromPoly(r), a[1]);
}
Opt modGcd(ExprContext& cx, Args a) {
  if (!a[1]->isConst() || a[1]->value <= 1) return {};
  auto g = static_cast<int64_t>(std::gcd(polyGcd(cx, a[0]), magnitude(a[1]->value)));
  if (g <= 1) return {};
  return cx.scale(cx.mod(polyDivExact(cx, a[0], g), cx.constant(a[1]->value / g)), g);
}
Opt modNested(ExprContext& cx, Args a) {
  if (a[0]->kind != ExprKind::Mod || !a[1]->isConst() || a[1]->value <= 0) return {};
  Expr inner = a[0]->args[1];
  if (!inner->isConst() || inner->value <= 0 || inner->value % a[1]->value != 0) return {};
  return cx.mod(a[0]->args[0], a[1]);
}

// ---- min / max (args arrive flattened, sorted, unique, at least two) ----
template <bool kMin>
Opt minMaxConstFold(ExprContext& cx, Args a) {
  size_t nc = std::count_if(a.begin(), a.end(), [](Expr e) { return e->isConst(); });
  if (nc < 2) return {};
  std::vector<Expr> rest;
  int64_t c = kMin ? INT64_MAX : INT64_MIN;
  for (Expr e : a) {
    if (e->isConst())
      c = kMin ? std::min(c, e->value) : std::max(c, e->value);
    else
      rest.push_back(e);
  }
  Expr r = cx.constant(c);
  for (Expr e : rest) r = kMin ? cx.min(r, e) : cx.max(r, e);
  return r;
}
// Two operands whose difference is a constant: keep the smaller (min) / larger (max).
template <bool kMin>
Opt minMaxConstDiff(ExprContext& cx, Args a) {
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = i + 1; j < a.size(); ++j) {
      if (a[i]->isBool || a[j]->isBool) continue;
      Expr d = cx.sub(a[i], a[j]);
      if (!d->isConst()) continue;
      bool dropI = kMin ? d->value >= 0 : d->value <= 0;
      std::vector<Expr> rest(a.begin(), a.end());
      rest.erase(rest.begin() + (dropI ? i : j));
      Expr r = rest[0];
      for (size_t k = 1; k < rest.size(); ++k) r = kMin ? cx.min(r, rest[k]) : cx.max(r, rest[k]);
      return r;
    }
  return {};
}
// min(x, max(x, y)) = x ; max(x, min(x, y)) = x.
template <bool kMin>
Opt minMaxAbsorb(ExprContext& cx, Args a) {
  ExprKind other = kMin ? ExprKind::Max : ExprKind::Min;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i]->kind != other) continue;
    for (size_t j = 0; j < a.size(); ++j) {
      if (i == j) continue;
      const auto& inner = a[i]->args;
      if (std::find(inner.begin(), inner.end(), a[j]) == inner.end()) continue;
      std::vector<Expr> rest(a.begin(), a.end());
      rest.erase(rest.begin() + i);
      Expr r = rest[0];
      for (size_t k = 1; k < rest.size(); ++k) r = kMin ? cx.min(r, rest[k]) : cx.max(r, rest[k]);
      return r;
    }
  }
  return {};
}

constexpr ExprKind FD = ExprKind::FloorDiv, MD = ExprKind::Mod, MN = ExprKind::Min,
                   MX = ExprKind::Max;

const SimplifyRule kRules[] = {
    {"div_fold", FD, "c1 // c2", "floor(c1 / c2)", "constants", divFold},
    {"div_zero_numerator", FD, "0 // x", "0", "always", divZeroNum},
    {"div_by_one", FD, "x // 1", "x", "always", divByOne},
    {"div_by_minus_one", FD, "x // -1", "-x", "always", divByMinusOne},
    {"div_nested", FD, "(x // a) // b", "x // (a*b)", "a, b > 0 constants", divNested},
    {"div_gcd", FD, "(g*x) // (g*m)", "x // m", "g > 1 divides every coefficient and m", divGcd},
    {"div_extract_multiple", FD, "(b*k*x + c + r) // b", "k*x + c//b + (c%b + r) // b",
     "b != 0 constant", divExtract},
    {"mod_fold", MD, "c1 % c2", "python c1 % c2", "constants", modFold},
    {"mod_zero_numerator", MD, "0 % x", "0", "always", modZeroNum},
    {"mod_by_unit", MD, "x % 1, x % -1", "0", "always", modByUnit},
    {"mod_self", MD, "x % x", "0", "always", modSelf},
    {"mod_nested", MD, "(x % a) % b", "x % b", "a, b > 0 and b divides a", modNested},
    {"mod_gcd", MD, "(g*x) % (g*m)", "g * (x % m)", "g > 1 divides every coefficient and m",
     modGcd},
    {"mod_drop_multiple", MD, "(b*k*x + c + r) % b", "(c%b + r) % b", "b != 0 constant",
     modDropMultiple},
    {"min_fold", MN, "min(c1, c2, ...)", "smallest constant", "constants", minMaxConstFold<true>},
    {"min_const_diff", MN, "min(x, x + c)", "x if c >= 0 else x + c", "constant difference",
     minMaxConstDiff<true>},
    {"min_absorb", MN, "min(x, max(x, y))", "x", "always", minMaxAbsorb<true>},
    {"max_fold", MX, "max(c1, c2, ...)", "largest constant", "constants", minMaxConstFold<false>},
    {"max_const_diff", MX, "max(x, x + c)", "x + c if c >= 0 else x", "constant difference",
     minMaxConstDiff<false>},
    {"max_absorb", MX, "max(x, min(x, y))", "x", "always", minMaxAbsorb<false>},
};

}  // namespace

std::span<const SimplifyRule> simplifyRules() {
  return kRules;
}

std::optional<Expr> applySimplifyRules(ExprContext& cx, ExprKind kind, std::span<const Expr> args) {
  for (Expr a : args) TESSEL_ASSERT(!a->isBool, "arithmetic on a boolean expression");
  auto& hits = cx.ruleHits();
  for (size_t i = 0; i < std::size(kRules); ++i) {
    if (kRules[i].kind != kind) continue;
    if (auto r = kRules[i].apply(cx, args)) {
      ++hits[i];
      return r;
    }
  }
  return std::nullopt;
}

// ---- raw terms for checking rules against Z3 -------------------------------------------------

Expr buildRaw(ExprContext& cx, const RawTerm& t) {
  switch (t.op) {
    case RawTerm::Const:
      return cx.constant(t.value);
    case RawTerm::Var:
      return cx.symbol(static_cast<uint32_t>(t.value));
    default:
      break;
  }
  Expr r = buildRaw(cx, t.args[0]);
  for (size_t i = 1; i < t.args.size(); ++i) {
    Expr b = buildRaw(cx, t.args[i]);
    switch (t.op) {
      case RawTerm::Add:
        r = cx.add(r, b);
        break;
      case RawTerm::Mul:
        r = cx.mul(r, b);
        break;
      case RawTerm::FloorDiv:
        r = cx.floorDiv(r, b);
        break;
      case RawTerm::Mod:
        r = cx.mod(r, b);
        break;
      case RawTerm::Min:
        r = cx.min(r, b);
        break;
      case RawTerm::Max:
        r = cx.max(r, b);
        break;
      default:
        break;
    }
  }
  return r;
}

namespace {
RawTerm C(int64_t v) {
  return {RawTerm::Const, v, {}};
}
RawTerm V(int64_t i) {
  return {RawTerm::Var, i, {}};
}
RawTerm op(RawTerm::Op o, RawTerm a, RawTerm b) {
  return {o, 0, {std::move(a), std::move(b)}};
}
RawTerm add(RawTerm a, RawTerm b) {
  return op(RawTerm::Add, std::move(a), std::move(b));
}
RawTerm mul(RawTerm a, RawTerm b) {
  return op(RawTerm::Mul, std::move(a), std::move(b));
}
RawTerm fdiv(RawTerm a, RawTerm b) {
  return op(RawTerm::FloorDiv, std::move(a), std::move(b));
}
RawTerm md(RawTerm a, RawTerm b) {
  return op(RawTerm::Mod, std::move(a), std::move(b));
}
RawTerm mn(RawTerm a, RawTerm b) {
  return op(RawTerm::Min, std::move(a), std::move(b));
}
RawTerm mx(RawTerm a, RawTerm b) {
  return op(RawTerm::Max, std::move(a), std::move(b));
}
}  // namespace

std::vector<RawTerm> ruleExamples(size_t rule) {
  RawTerm x = V(0), y = V(1);
  std::string_view n = kRules[rule].name;
  if (n == "div_fold") return {fdiv(C(7), C(2)), fdiv(C(-7), C(2)), fdiv(C(7), C(-2))};
  if (n == "div_zero_numerator") return {fdiv(C(0), x)};
  if (n == "div_by_one") return {fdiv(add(x, y), C(1))};
  if (n == "div_by_minus_one") return {fdiv(add(x, C(3)), C(-1))};
  if (n == "div_nested") return {fdiv(fdiv(x, C(3)), C(4)), fdiv(fdiv(add(x, y), C(2)), C(5))};
  if (n == "div_gcd") return {fdiv(mul(C(6), x), C(4)), fdiv(add(mul(C(4), x), C(2)), C(6))};
  if (n == "div_extract_multiple")
    return {fdiv(add(mul(C(4), x), y), C(4)), fdiv(add(mul(C(-6), x), add(y, C(7))), C(3)),
            fdiv(add(mul(C(5), x), add(y, C(3))), C(-5))};
  if (n == "mod_fold") return {md(C(7), C(3)), md(C(-7), C(3)), md(C(7), C(-3))};
  if (n == "mod_zero_numerator") return {md(C(0), x)};
  if (n == "mod_by_unit") return {md(x, C(1)), md(add(x, y), C(-1))};
  if (n == "mod_self") return {md(x, x)};
  if (n == "mod_nested") return {md(md(x, C(12)), C(4)), md(md(add(x, y), C(6)), C(3))};
  if (n == "mod_gcd") return {md(mul(C(6), x), C(4)), md(add(mul(C(4), x), C(2)), C(6))};
  if (n == "mod_drop_multiple")
    return {md(add(mul(C(4), x), y), C(4)), md(add(mul(C(-6), x), add(y, C(7))), C(3)),
            md(add(mul(C(5), x), add(y, C(3))), C(-5))};
  if (n == "min_fold") return {mn(C(3), C(-2)), mn(mn(C(4), x), C(1))};
  if (n == "min_const_diff") return {mn(x, add(x, C(3))), mn(add(x, y), add(add(x, y), C(-2)))};
  if (n == "min_absorb") return {mn(x, mx(x, y))};
  if (n == "max_fold") return {mx(C(3), C(-2)), mx(mx(C(4), x), C(1))};
  if (n == "max_const_diff") return {mx(x, add(x, C(3))), mx(add(x, y), add(add(x, y), C(-2)))};
  if (n == "max_absorb") return {mx(x, mn(x, y))};
  return {};
}

}  // namespace tessel::shapes
