// ShapeEnv's end-of-trace questions: the pruned guard set, specialization detection,
// constraint violations and bound maximization.
#include <algorithm>
#include <limits>
#include <map>

#include "shapes/expr.h"
#include "shapes/shape_env_caches.h"
#include "shapes/guard_program.h"
#include "shapes/poly_bound.h"
#include "shapes/shape_env.h"
#include "shapes/solver.h"

namespace tessel::shapes {

namespace {

// Note [Exact interval maxima]: e is built from symbols, constants, sums, products, min and
// max, with no symbol twice (collected in `seen`).
bool eachSymbolOnce(Expr e, std::vector<uint32_t>& seen) {
  switch (e->kind) {
    case ExprKind::Const:
      return true;
    case ExprKind::Sym: {
      uint32_t s = static_cast<uint32_t>(e->value);
      if (std::find(seen.begin(), seen.end(), s) != seen.end()) return false;
      seen.push_back(s);
      return true;
    }
    case ExprKind::Add:
    case ExprKind::Mul:
    case ExprKind::Min:
    case ExprKind::Max:
      for (Expr a : e->args)
        if (!eachSymbolOnce(a, seen)) return false;
      return true;
    default:
      return false;
  }
}
}  // namespace

// Note [Pruning guards]
// Ranges narrowed by guards cannot be used to prune those same guards (that would be
// circular), so pruning starts from the guard list itself: (1) per non-constant part (a
// symbol, or a polynomial such as s0*s1: Note [Bounds on one polynomial]) only the tightest
// lower and upper bounds are kept (bound merging); (2) the rest is asked of Z3 greedily: a
// guard implied by the facts and the guards still kept is dropped. Unknown keeps the guard.
// Static and Duck guards have no expression and are always kept.
std::vector<Guard> ShapeEnv::finalGuards() {
  std::vector<bool> drop(guards_.size(), false);
  using Terms = std::vector<std::pair<Expr, int64_t>>;
  std::map<std::pair<Terms, bool>, std::pair<size_t, int64_t>> best;  // -> (guard, bound)
  const std::vector<std::optional<PolyBound>>& bounds = guardBounds();
  for (size_t i = 0; i < guards_.size(); ++i) {
    const std::optional<PolyBound>& b = bounds[i];
    if (!b) continue;
    auto [it, first] = best.try_emplace({b->terms, b->upper}, i, b->value);
    if (first) continue;
    auto& [kept, old] = it->second;
    bool tighter = b->upper ? b->value < old : b->value > old;
    if (tighter) {
      drop[kept] = true;
      kept = i;
      old = b->value;
    } else {
      drop[i] = true;
    }
  }
  // A symbol pinned by an equality guard needs no bounds.
  for (size_t i = 0; i < guards_.size(); ++i) {
    Expr e = guards_[i].expr;
    if (!e || e->kind != ExprKind::Eq || e->syms.size() != 1) continue;
    auto p = ctx_->toPoly(e->args[0]);
    if (p.terms.size() != 1 || p.terms[0].first->kind != ExprKind::Sym) continue;
    for (auto& [key, kept] : best)
      if (key.first.size() == 1 && key.first[0].first == p.terms[0].first) drop[kept.first] = true;
  }
  // Exact duplicates (the same canonical guard recorded twice).
  for (size_t i = 0; i < guards_.size(); ++i)
    for (size_t j = 0; j < i && !drop[i]; ++j)
      if (!drop[j] && guards_[j].expr && guards_[j].expr == guards_[i].expr) drop[i] = true;

  std::vector<size_t> cand;
  for (size_t i = 0; i < guards_.size(); ++i)
    if (!drop[i] && guards_[i].expr) cand.push_back(i);
  if (config_.prune_guards && config_.solver_rlimit > 0 && cand.size() > 1) {
    std::vector<Expr> exprs;
    for (size_t i : cand) exprs.push_back(guards_[i].expr);
    // Backed symbols: only what every call satisfies anyway (sizes are >= 0).
    std::vector<ValueRange> ranges;
    for (const SymbolInfo& s : symbols_)
      ranges.push_back(s.unbacked ? s.range
                       : s.isSize ? ValueRange{0, ValueRange::kPosInf}
                                  : ValueRange::all());
    auto implied = solver().implied(exprs, facts_, ranges);
    for (size_t k = 0; k < cand.size(); ++k)
      if (implied[k]) drop[cand[k]] = true;
  }
  std::vector<Guard> out;
  for (size_t i = 0; i < guards_.size(); ++i) {
    if (drop[i])
      ++stats_.guardsPruned;
    else
      out.push_back(guards_[i]);
  }
  return out;
}

SpecializationCheck ShapeEnv::checkSpecialization(uint32_t s) {
  SpecializationCheck res;
  const SymbolInfo& info = symbols_.at(s);
  if (!info.hint) return res;
  for (const Replacement& r : replacements_) {
    if (r.symbol != s || !r.value->isConst()) continue;
    res.forced = true;
    if (r.guardIndex >= 0) res.forcingGuards.push_back(r.guardIndex);
    res.loc = r.loc;
    return res;
  }
  std::vector<size_t> idx;
  SolverQuery q;
  for (size_t i = 0; i < guards_.size(); ++i)
    if (guards_[i].expr && guards_[i].kind != GuardKind::Range) {
      q.tracked.push_back(guards_[i].expr);
      idx.push_back(i);
    }
  q.hard = facts_;
  q.hard.push_back(ctx_->ne(ctx_->symbol(s), ctx_->constant(*info.hint)));
  for (const SymbolInfo& x : symbols_) q.ranges.push_back(x.unbacked ? x.range : x.initialRange);
  q.modelSyms = {s};
  if (config_.solver_rlimit == 0) {
    res.unknown = !info.range.isPoint();
    res.forced = info.range.isPoint();
    return res;
  }
  auto r = solver().check(q);
  if (r.answer == SolverAnswer::Sat) {
    res.counterexample = r.model[0];
  } else if (r.answer == SolverAnswer::Unsat) {
    res.forced = true;
    for (size_t c : r.core) res.forcingGuards.push_back(idx[c]);
    std::sort(res.forcingGuards.begin(), res.forcingGuards.end());
    if (!res.forcingGuards.empty()) res.loc = guards_[res.forcingGuards.back()].loc;
  } else {
    res.unknown = true;
  }
  return res;
}

void ShapeEnv::checkConstraints() {
  for (uint32_t s = 0; s < symbols_.size(); ++s) {
    const SymbolInfo& i = symbols_[s];
    if (!i.opts.markedDynamic) continue;
    SpecializationCheck sc = checkSpecialization(s);
    if (!sc.forced) continue;
    std::string why;
    for (size_t g : sc.forcingGuards) why += (why.empty() ? "" : ", ") + guards_[g].text;
    std::string msg = "Constraints violated (" + i.source + ")! " + i.source +
                      " was marked dynamic but tracing specialized it to " +
                      std::to_string(*i.hint);
    if (!why.empty()) msg += " by " + why;
    if (sc.loc.known()) {
      msg += " at " + sc.loc.toString();
      if (!sc.loc.lineText.empty()) msg += ": " + sc.loc.lineText;
    }
    msg += ". Suggested fix: use maybe_mark_dynamic, or mark_static if " + i.source +
           " is always " + std::to_string(*i.hint) + ".";
    throwUserError(ErrorKind::ConstraintViolation, msg);
  }
}

std::optional<int64_t> ShapeEnv::maxValue(const SymInt& v) {
  if (auto c = v.maybeConstant()) return *c;
  SymInt sv = simplify(v);
  if (auto c = sv.maybeConstant()) return *c;
  Expr e = sv.expr();
  auto& cached = caches_->maxima[e];
  if (cached.first == version_ + 1) return cached.second;  // +1: 0 means "never asked"
  // c*s + k with c > 0 is largest where s is: one solver query for s serves every such size
  // of a tensor (u0, 2*u0, 10*u0 + 4, ...), and each query costs a fresh solver.
  if (e->kind == ExprKind::Add && e->args.size() == 1 && e->args[0]->kind == ExprKind::Sym &&
      e->coeffs[0] > 0) {
    std::optional<int64_t> m = maxValue(SymInt(e->args[0]));
    std::optional<int64_t> result;
    if (m && *m <= (std::numeric_limits<int64_t>::max() - std::max<int64_t>(e->value, 0)) /
                       e->coeffs[0])
      result = e->coeffs[0] * *m + e->value;
    caches_->maxima[e] = {version_ + 1, result};
    return result;
  }
  const std::vector<ValueRange>& ranges = rangesUnderRelations();
  ValueRange r = rangeUnder(e, ranges);
  std::optional<int64_t> result = r.hi == ValueRange::kPosInf ? std::nullopt : std::optional(r.hi);
  // Note [Exact interval maxima]
  // Where each symbol of e occurs once in sums, products, min and max, and nothing relates
  // its symbols beyond their own bounds (a fact or guard on one symbol alone is already its
  // range), the symbols vary independently and the top of e's interval is reached at a corner
  // of their ranges: no solver needed. That is every tpu buffer of a bounded input (s0*s1 with
  // s0, s1 in [2, 64]), where Z3's QF_NIA took half a second to find s0*s1 >= 4096 satisfiable.
  auto boundsOneSymbol = [&](Expr f) {
    auto b = polyBound(*ctx_, f);
    return b && b->terms.size() == 1 && b->terms[0].first->kind == ExprKind::Sym;
  };
  auto constrains = [&](Expr f, uint32_t s) {
    return f && std::binary_search(f->syms.begin(), f->syms.end(), s) && !boundsOneSymbol(f);
  };
  auto related = [&](uint32_t s) {
    for (Expr f : facts_)
      if (constrains(f, s)) return true;
    for (const Guard& g : guards_)
      if (constrains(g.expr, s)) return true;
    return false;
  };
  std::vector<uint32_t> seen;
  bool settled = r.hi != ValueRange::kPosInf && eachSymbolOnce(e, seen);
  for (uint32_t s : seen) settled = settled && !related(s);
  if (config_.solver_rlimit != 0 && !settled) {
    std::vector<Expr> hard = facts_;
    for (const Guard& g : guards_)
      if (g.expr) hard.push_back(g.expr);
    int64_t lo =
        e->hasHint ? e->hint : (r.lo == ValueRange::kNegInf ? -(int64_t{1} << 62) : r.lo);
    if (auto m = solver().maximize(e, hard, ranges, lo, r.hi))
      result = std::min(*m, r.hi);
  }
  cached = {version_ + 1, result};
  return result;
}

GuardProgram ShapeEnv::compileGuards() {
  return GuardProgram(finalGuards(), *this);
}

}  // namespace tessel::shapes
