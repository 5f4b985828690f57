// ShapeEnv: value ranges of expressions, narrowing symbols' ranges from guards, and replacements.
#include "shapes/shape_env.h"

#include "shapes/expr.h"
#include "shapes/expr_print.h"
#include "shapes/poly_bound.h"
#include "shapes/shape_env_caches.h"
#include "shapes/solver.h"

namespace tessel::shapes {

// ---- ranges ----------------------------------------------------------------------------------

namespace {
// The interval of e given each symbol's interval (symRange).
template <class SymRange>
ValueRange rangeWith(Expr e, const SymRange& symRange) {
  switch (e->kind) {
    case ExprKind::Const:
    case ExprKind::BoolConst:
      return ValueRange::point(e->value);
    case ExprKind::Sym:
      return symRange(static_cast<uint32_t>(e->value));
    case ExprKind::Add: {
      ValueRange r = ValueRange::point(e->value);
      for (size_t i = 0; i < e->args.size(); ++i)
        r = rangeAdd(r, rangeMul(ValueRange::point(e->coeffs[i]), rangeWith(e->args[i], symRange)));
      return r;
    }
    case ExprKind::Mul: {
      ValueRange r = ValueRange::point(1);
      for (Expr a : e->args) r = rangeMul(r, rangeWith(a, symRange));
      return r;
    }
    case ExprKind::FloorDiv:
      return rangeFloorDiv(rangeWith(e->args[0], symRange), rangeWith(e->args[1], symRange));
    case ExprKind::Mod:
      return rangeMod(rangeWith(e->args[0], symRange), rangeWith(e->args[1], symRange));
    case ExprKind::Min:
    case ExprKind::Max: {
      ValueRange r = rangeWith(e->args[0], symRange);
      for (size_t i = 1; i < e->args.size(); ++i)
        r = e->kind == ExprKind::Min ? rangeMin(r, rangeWith(e->args[i], symRange))
                                     : rangeMax(r, rangeWith(e->args[i], symRange));
      return r;
    }
    case ExprKind::Le: {
      ValueRange p = rangeWith(e->args[0], symRange);
      if (p.hi <= 0) return ValueRange::point(1);
      if (p.lo > 0) return ValueRange::point(0);
      return ValueRange::boolean();
    }
    case ExprKind::Eq:
    case ExprKind::Ne: {
      ValueRange p = rangeWith(e->args[0], symRange);
      int64_t isEq = e->kind == ExprKind::Eq;
      if (p == ValueRange::point(0)) return ValueRange::point(isEq);
      if (!p.contains(0)) return ValueRange::point(1 - isEq);
      return ValueRange::boolean();
    }
    case ExprKind::And:
    case ExprKind::Or: {
      bool isAnd = e->kind == ExprKind::And;
      bool allDecided = true;
      for (Expr a : e->args) {
        ValueRange r = rangeWith(a, symRange);
        if (r == ValueRange::point(isAnd ? 0 : 1)) return r;
        allDecided &= r.isPoint();
      }
      return allDecided ? ValueRange::point(isAnd ? 1 : 0) : ValueRange::boolean();
    }
  }
  return ValueRange::all();
}
}  // namespace

ValueRange ShapeEnv::rangeOf(Expr e, bool so) {
  return rangeWith(e, [&](uint32_t s) {
    const SymbolInfo& i = symbols_[s];
    ValueRange r = i.range;
    if (so && i.isSize && (i.unbacked || config_.backed_size_oblivious))
      r = r.intersect({2, ValueRange::kPosInf});
    return r.empty() ? i.range : r;
  });
}

ValueRange ShapeEnv::rangeUnder(Expr e, const std::vector<ValueRange>& ranges) {
  return rangeWith(e, [&](uint32_t s) { return ranges[s]; });
}

ValueRange ShapeEnv::bounds(const SymInt& v) {
  if (auto c = v.maybeConstant()) return ValueRange::point(*c);
  return rangeOf(
      simplify(v).expr() ? simplify(v).expr() : ctx_->constant(*simplify(v).maybeConstant()),
      false);
}

void ShapeEnv::updateRange(uint32_t s, ValueRange r) {
  narrowSymbol(s, r, "update_range", -1);
}

void ShapeEnv::narrowSymbol(uint32_t s, ValueRange r, const std::string& reason, int guardIndex) {
  SymbolInfo& i = symbols_.at(s);
  ValueRange nr = i.range.intersect(r);
  if (nr == i.range) return;
  if (nr.empty())
    throwUserError(ErrorKind::ConstraintViolation, (i.source.empty() ? i.name : i.source) +
                                                       ": range " + i.range.toString() + " and " +
                                                       r.toString() + " are disjoint");
  i.range = nr;
  ++version_;
  log("update_range " + i.name + " = " + nr.toString());
  if (nr.isPoint() && !replacementMap_[s])
    addReplacement(s, ctx_->constant(nr.lo), reason, guardIndex);
}

void ShapeEnv::addReplacement(uint32_t s, Expr value, const std::string& reason, int guardIndex) {
  value = applyReplacements(value);
  if (value == ctx_->symbol(s)) return;
  replacementMap_[s] = value;
  // Earlier replacements that mention s now point past it.
  for (auto& r : replacements_) {
    r.value = ctx_->substitute(r.value, replacementMap_);
    replacementMap_[r.symbol] = r.value;
  }
  SourceLoc loc = guardIndex >= 0 ? guards_[guardIndex].loc : currentSourceLoc();
  replacements_.push_back({s, value, loc, reason, guardIndex});
  if (value->isConst()) {
    ++stats_.specializations;
    symbols_[s].range = symbols_[s].range.intersect(ValueRange::point(value->value));
  }
  ++version_;
  log("set_replacement " + symbols_[s].name + " = " + value->toString() + " (" + reason + ")" +
      loc.logSuffix());
}

Expr ShapeEnv::applyReplacements(Expr e) {
  if (replacements_.empty()) return e;
  return ctx_->substitute(e, replacementMap_);
}

// Learns ranges and replacements from a condition that now holds.
void ShapeEnv::narrowFrom(Expr e, int gi) {
  if (e->kind == ExprKind::And) {
    for (Expr a : e->args) narrowFrom(a, gi);
    return;
  }
  if (e->kind != ExprKind::Le && e->kind != ExprKind::Eq && e->kind != ExprKind::Ne) return;
  ExprContext::Poly p = ctx_->toPoly(e->args[0]);
  std::string why = sourceText(e);
  if (p.terms.size() == 1 && p.terms[0].first->kind == ExprKind::Sym) {
    uint32_t s = static_cast<uint32_t>(p.terms[0].first->value);
    int64_t k = p.terms[0].second, c = p.c;
    if (e->kind == ExprKind::Le) {  // k*s + c <= 0
      narrowSymbol(s, rangeOfLinearLe(k, c), why, gi);
    } else if (c == INT64_MIN) {
      // s == 2^63 holds for no int64 (-c would overflow); s != 2^63 for every one.
    } else if (e->kind == ExprKind::Eq) {  // s + c == 0 (normalized: k == 1)
      narrowSymbol(s, ValueRange::point(-c), why, gi);
      if (!replacementMap_[s]) addReplacement(s, ctx_->constant(-c), why, gi);
    } else {
      ValueRange r = symbols_[s].range;
      if (r.lo == -c && r.lo != ValueRange::kPosInf)
        narrowSymbol(s, {r.lo + 1, r.hi}, why, gi);
      else if (r.hi == -c && r.hi != ValueRange::kNegInf)
        narrowSymbol(s, {r.lo, r.hi - 1}, why, gi);
    }
    return;
  }
  // s_a - s_b == 0: replace the later (or unbacked) symbol by the other.
  if (e->kind == ExprKind::Eq && p.c == 0 && p.terms.size() == 2 &&
      p.terms[0].first->kind == ExprKind::Sym && p.terms[1].first->kind == ExprKind::Sym &&
      p.terms[0].second == -p.terms[1].second &&
      (p.terms[0].second == 1 || p.terms[0].second == -1)) {
    uint32_t a = static_cast<uint32_t>(p.terms[0].first->value);
    uint32_t b = static_cast<uint32_t>(p.terms[1].first->value);
    bool replaceA = symbols_[a].unbacked && !symbols_[b].unbacked;
    bool replaceB = symbols_[b].unbacked && !symbols_[a].unbacked;
    uint32_t from = replaceA ? a : replaceB ? b : std::max(a, b);
    uint32_t to = from == a ? b : a;
    narrowSymbol(to, symbols_[from].range, why, gi);
    if (!replacementMap_[from]) addReplacement(from, ctx_->symbol(to), why, gi);
  }
}

// Note [Bounds from relations]
// A size is bounded by a fact or guard relating it to other sizes: nonzero of an s0 x s1
// tensor gives u0 <= s0 * s1, and a guard s0 + s1 <= 10 bounds both. Intervals turn each
// k*s + rest <= 0 into s <= floor(-min(rest) / k) (or a lower bound for k < 0), repeated a few
// rounds. The stored ranges stay as they are (a backed size keeps the ranges its own guards
// gave it, so guard pruning and specialization are unchanged); maxValue() starts from these
// ranges, so the tpu gets u0 <= 25 for a 5 x 5 input at its solver's first probe. Asking Z3
// from the unbounded range instead cost a full rlimit per probe: Z3 4.8.12's QF_NIA answers
// `unknown` to u0 >= 2^62 under the product (Note [Nonlinear queries are not incremental]).
const std::vector<ValueRange>& ShapeEnv::rangesUnderRelations() {
  auto& [version, ranges] = caches_->relationRanges;
  if (version == version_ + 1) return ranges;
  version = version_ + 1;
  ranges = solverRanges(false);
  struct Term {
    uint32_t sym;
    int64_t k;
    Expr rest;
  };
  std::vector<Term> terms;
  auto collect = [&](Expr c) {
    if (!c || c->kind != ExprKind::Le) return;
    ExprContext::Poly p = ctx_->toPoly(c->args[0]);
    if (p.terms.size() < 2) return;  // one symbol alone: already its range
    for (size_t i = 0; i < p.terms.size(); ++i) {
      if (p.terms[i].first->kind != ExprKind::Sym) continue;
      ExprContext::Poly rest = p;
      rest.terms.erase(rest.terms.begin() + static_cast<std::ptrdiff_t>(i));
      terms.push_back({static_cast<uint32_t>(p.terms[i].first->value), p.terms[i].second,
                       ctx_->fromPoly(rest)});
    }
  };
  for (Expr f : facts_) collect(f);
  for (const Guard& g : guards_) collect(g.expr);
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (const Term& t : terms) {
      ValueRange rest = rangeUnder(t.rest, ranges);
      if (rest.lo == ValueRange::kNegInf) continue;
      // k*s + rest <= 0 and rest >= rest.lo give k*s + rest.lo <= 0.
      ValueRange nr = ranges[t.sym].intersect(rangeOfLinearLe(t.k, rest.lo));
      if (nr.empty() || nr == ranges[t.sym]) continue;  // empty: the facts contradict; Z3 says
      ranges[t.sym] = nr;
      changed = true;
    }
    if (!changed) break;
  }
  return ranges;
}

}  // namespace tessel::shapes
