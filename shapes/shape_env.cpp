// ShapeEnv: creating symbols, deciding conditions cheap-first, recording guards and facts,
// and simplifying with ranges (float inputs: shape_env_floats.cpp; ranges, narrowing and
// replacements: shape_env_ranges.cpp).
#include "shapes/shape_env.h"

#include <unordered_map>
#include <unordered_set>

#include "shapes/expr.h"
#include "shapes/expr_print.h"
#include "shapes/poly_bound.h"
#include "shapes/shape_env_caches.h"
#include "shapes/solver.h"

namespace tessel::shapes {

const char* guardKindName(GuardKind k) {
  switch (k) {
    case GuardKind::Guard:
      return "guard";
    case GuardKind::Specialization:
      return "specialization";
    case GuardKind::Static:
      return "static";
    case GuardKind::Duck:
      return "duck";
    case GuardKind::Range:
      return "range";
    case GuardKind::Require:
      return "require";
    case GuardKind::RuntimeAssert:
      return "runtime_assert";
  }
  return "?";
}

ShapeEnv::ShapeEnv(ShapeEnvConfig config)
    : config_(config),
      ctx_(std::make_unique<ExprContext>(this)),
      solver_(std::make_unique<Solver>(config.solver_rlimit, &stats_)),
      caches_(std::make_unique<Caches>()) {}
ShapeEnv::~ShapeEnv() = default;

Solver& ShapeEnv::solver() {
  solver_->setRlimit(config_.solver_rlimit);
  return *solver_;
}

void ShapeEnv::log(const std::string& line) {
  if (logger) logger(line);
}

static std::string at(const SourceLoc& loc) {
  return loc.logSuffix();
}

std::string ShapeEnv::sourceText(Expr e) const {
  return exprToString(e, [this](uint32_t s) {
    const SymbolInfo& i = symbols_[s];
    return i.source.empty() ? i.name : i.source;
  });
}

std::optional<uint32_t> ShapeEnv::symbolIndex(const SymInt& v) const {
  if (!v.expr() || v.expr()->kind != ExprKind::Sym) return std::nullopt;
  return static_cast<uint32_t>(v.expr()->value);
}

// ---- symbols ---------------------------------------------------------------------------------

SymInt ShapeEnv::createSymbol(std::string source, int64_t hint, SymbolOptions opts) {
  uint32_t slot = static_cast<uint32_t>(sources_.size());
  const SourceLoc& loc = currentSourceLoc();
  if (opts.isSize && hint < 0)
    throwUserError(ErrorKind::ValueError,
                   source + ": a size cannot be negative (" + std::to_string(hint) + ")");
  bool zeroOne = opts.isSize && (hint == 0 || hint == 1) && config_.specialize_zero_one &&
                 !config_.backed_size_oblivious && !opts.markedDynamic && !opts.named;
  if (opts.dynamic == DimDynamic::Static || zeroOne) {
    sources_.push_back({source, hint, nullptr, slot});
    Guard g{nullptr,
            GuardKind::Static,
            loc,
            source + " == " + std::to_string(hint),
            static_cast<int>(slot),
            -1};
    guards_.push_back(std::move(g));
    ++stats_.guardsAdded;
    return hint;
  }
  bool userRange = opts.min || opts.max || opts.markedDynamic || opts.named;
  if (opts.dynamic == DimDynamic::Duck && config_.duck_shape && opts.isSize && !userRange) {
    for (uint32_t s = 0; s < symbols_.size(); ++s) {
      const SymbolInfo& i = symbols_[s];
      if (i.unbacked || !i.isSize || i.hint != hint || i.opts.dynamic != DimDynamic::Duck ||
          i.opts.min || i.opts.max || i.opts.markedDynamic || i.opts.named)
        continue;
      Expr e = ctx_->symbol(s);
      sources_.push_back({source, hint, e, slot});
      guards_.push_back({nullptr, GuardKind::Duck, loc, source + " == " + i.source,
                         static_cast<int>(slot), i.slot});
      ++stats_.guardsAdded;
      log("create_symbol " + i.name + " = " + std::to_string(hint) + " for " + source +
          " (duck sized with " + i.source + ")" + at(loc));
      return SymInt(e);
    }
  }
  SymbolInfo info;
  info.name = "s" + std::to_string(numBacked_++);
  info.source = source;
  info.hint = hint;
  info.isSize = opts.isSize;
  info.opts = opts;
  info.loc = loc;
  info.slot = static_cast<int>(slot);
  ValueRange r = opts.isSize ? ValueRange{0, ValueRange::kPosInf} : ValueRange::all();
  if (opts.isSize && config_.specialize_zero_one && !config_.backed_size_oblivious &&
      !opts.markedDynamic && !opts.named)
    r.lo = 2;
  if (opts.min) r.lo = std::max(r.lo, *opts.min);
  if (opts.max) r.hi = std::min(r.hi, *opts.max);
  if (!r.contains(hint))
    throwUserError(ErrorKind::ConstraintViolation,
                   source + " = " + std::to_string(hint) + " is outside its range " + r.toString());
  info.range = info.initialRange = r;
  uint32_t index = static_cast<uint32_t>(symbols_.size());
  symbols_.push_back(info);
  replacementMap_.push_back(nullptr);
  Expr e = ctx_->newSymbol(info.name, hint);
  sources_.push_back({source, hint, e, slot});
  log("create_symbol " + info.name + " = " + std::to_string(hint) + " for " + source + " " +
      r.toString() + at(loc));
  // The creation range is part of what the entry assumes, so it is checked like a guard.
  if (r.lo > (opts.isSize ? 0 : ValueRange::kNegInf))
    guards_.push_back({ctx_->le(ctx_->constant(r.lo), e), GuardKind::Range, loc,
                       source + " >= " + std::to_string(r.lo)});
  if (r.hi != ValueRange::kPosInf)
    guards_.push_back({ctx_->le(e, ctx_->constant(r.hi)), GuardKind::Range, loc,
                       source + " <= " + std::to_string(r.hi)});
  (void)index;
  ++version_;
  return SymInt(e);
}

SymInt ShapeEnv::createUnbacked(bool isSize, std::optional<int64_t> maxValue) {
  SymbolInfo info;
  info.name = "u" + std::to_string(numUnbacked_++);
  info.unbacked = true;
  info.isSize = isSize;
  info.loc = currentSourceLoc();
  ValueRange r = isSize ? ValueRange{0, ValueRange::kPosInf} : ValueRange::all();
  if (maxValue) r.hi = *maxValue;
  info.range = info.initialRange = r;
  symbols_.push_back(info);
  replacementMap_.push_back(nullptr);
  Expr e = ctx_->newSymbol(info.name, std::nullopt);
  log("create_unbacked_symbol " + info.name + " " + r.toString() + at(info.loc));
  ++version_;
  return SymInt(e);
}

// ---- deciding --------------------------------------------------------------------------------

std::optional<bool> ShapeEnv::decide(Expr e, bool so) {
  if (e->kind == ExprKind::BoolConst) return e->value != 0;
  ValueRange r = rangeOf(e, so);
  if (r.isPoint()) {
    ++stats_.decidedByRanges;
    return r.lo != 0;
  }
  Caches& c = *caches_;
  if (c.known.count(e)) return true;
  if (c.known.count(ctx_->logicalNot(e))) return false;
  auto key = std::make_pair(e, so);
  if (auto it = c.decided.find(key); it != c.decided.end()) {
    ++stats_.cacheHits;
    return it->second;
  }
  if (auto it = c.undecided.find(key); it != c.undecided.end() && it->second == version_) {
    ++stats_.cacheHits;
    return std::nullopt;
  }
  auto d = fromSamePolynomial(e);  // Note [Bounds on one polynomial]
  if (!d.settled) d.outcome = decideWithSolver(e, so);
  // A proved outcome stays proved as guards and facts only grow; "undecided" is per version.
  if (d.outcome)
    c.decided[key] = *d.outcome;
  else
    c.undecided[key] = version_;
  return d.outcome;
}

const std::vector<std::optional<PolyBound>>& ShapeEnv::guardBounds() {
  auto& bounds = caches_->guardBounds;
  for (size_t i = bounds.size(); i < guards_.size(); ++i)
    bounds.push_back(polyBound(*ctx_, guards_[i].expr));
  return bounds;
}

ShapeEnv::Decision ShapeEnv::fromSamePolynomial(Expr e) {
  auto asked = polyBound(*ctx_, e);
  if (!asked) return {};
  std::vector<PolyBound> recorded;
  for (const std::optional<PolyBound>& b : guardBounds())
    if (b && b->terms == asked->terms) recorded.push_back(*b);
  if (recorded.empty()) return {};
  ++stats_.decidedByPolynomialBounds;
  const ValueRange known = intervalOf(recorded);
  const ValueRange holds = intervalOf({*asked});
  if (known.intersect(holds) == known) return {true, true};
  if (known.intersect(holds).empty()) return {true, false};
  return {true, std::nullopt};
}

std::vector<ValueRange> ShapeEnv::solverRanges(bool so) const {
  std::vector<ValueRange> r;
  for (const SymbolInfo& i : symbols_) {
    ValueRange x = i.range;
    if (so && i.isSize && (i.unbacked || config_.backed_size_oblivious))
      x = x.intersect({2, ValueRange::kPosInf});
    r.push_back(x.empty() ? i.range : x);
  }
  return r;
}

std::optional<bool> ShapeEnv::decideWithSolver(Expr e, bool so) {
  if (config_.solver_rlimit == 0) return std::nullopt;
  // Intervals are exact for a comparison linear in one symbol when nothing else constrains
  // that symbol; then Z3 cannot add anything.
  std::vector<Expr> hard;
  bool related = false;
  auto overlaps = [&](Expr g) {
    for (uint32_t s : g->syms)
      if (std::binary_search(e->syms.begin(), e->syms.end(), s)) return true;
    return false;
  };
  for (const Guard& g : guards_)
    if (g.expr) {
      hard.push_back(g.expr);
      related |= overlaps(g.expr);
    }
  for (Expr f : facts_) {
    hard.push_back(f);
    related |= overlaps(f);
  }
  bool simple = e->syms.size() == 1 && e->kind != ExprKind::And && e->kind != ExprKind::Or &&
                e->args[0]->isLinear() && ctx_->toPoly(e->args[0]).terms.size() == 1 &&
                e->args[0]->kind != ExprKind::Mod && e->args[0]->kind != ExprKind::FloorDiv;
  if (simple && !related) return std::nullopt;
  if (refutedByPoints(e)) return std::nullopt;
  SolverQuery q;
  q.hard = hard;
  q.ranges = solverRanges(so);
  // Try to refute the hint's outcome first: for backed conditions one query usually settles it.
  bool first = e->hasHint ? e->hint != 0 : true;
  for (bool outcome : {first, !first}) {
    q.hard.resize(hard.size());
    q.hard.push_back(outcome ? ctx_->logicalNot(e) : e);
    auto r = solver().check(q);
    if (r.answer == SolverAnswer::Unsat) return outcome;
    if (e->hasHint) return std::nullopt;  // the hint is a model of `outcome`'s negation
  }
  return std::nullopt;
}

// Note [Cheap counterexamples]: the hints satisfy every guard and fact, so moving one symbol of
// e to a few probe values and re-checking the guards that mention it often finds an allowed
// assignment where e flips: then e is not implied and Z3 is not needed.
bool ShapeEnv::refutedByPoints(Expr e) {
  if (!e->hasHint || e->hasUnbacked) return false;
  std::vector<int64_t> vals;
  for (const SymbolInfo& i : symbols_) vals.push_back(i.hint.value_or(0));
  for (Expr f : facts_)
    if (f->hasUnbacked) return false;
  bool want = e->hint == 0;  // the outcome we try to reach
  for (uint32_t s : e->syms) {
    const SymbolInfo& info = symbols_[s];
    int64_t h = *info.hint;
    int64_t probes[] = {h + 1, h - 1,      info.range.lo,    info.range.hi,   h * 2,
                        h / 2, h * 10 + 7, int64_t{1} << 20, int64_t{1} << 30};
    for (int64_t v : probes) {
      if (v == h || !info.range.contains(v)) continue;
      vals[s] = v;
      auto ev = ctx_->evalInt(e, vals);
      bool ok = ev && (*ev != 0) == want;
      for (const Guard& g : guards_) {
        if (!ok) break;
        if (!g.expr || !std::binary_search(g.expr->syms.begin(), g.expr->syms.end(), s)) continue;
        auto gv = ctx_->evalInt(g.expr, vals);
        ok = gv && *gv != 0;
      }
      for (Expr f : facts_) {
        if (!ok) break;
        if (!std::binary_search(f->syms.begin(), f->syms.end(), s)) continue;
        auto fv = ctx_->evalInt(f, vals);
        ok = fv && *fv != 0;
      }
      vals[s] = h;
      if (ok) return true;
    }
  }
  return false;
}

bool ShapeEnv::evaluate(const SymBool& c) {
  if (auto k = c.maybeConstant()) return *k;
  ++stats_.evaluations;
  Expr e = applyReplacements(c.expr());
  if (auto d = decide(e, false)) {
    log("eval " + e->toString() + " == " + (*d ? "true" : "false") + " [statically known]");
    return *d;
  }
  if (!e->hasHint)
    throwUserError(ErrorKind::DataDependentError,
                   "could not guard on data-dependent expression " + sourceText(e) +
                       " (unhinted: " + e->toString() + ")" + at(currentSourceLoc()) +
                       "; add check(...) facts or avoid branching on it");
  bool v = e->hint != 0;
  recordGuard(v ? e : ctx_->logicalNot(e), GuardKind::Guard);
  return v;
}

bool ShapeEnv::evaluateSizeOblivious(const SymBool& c) {
  if (auto k = c.maybeConstant()) return *k;
  ++stats_.evaluations;
  Expr e = applyReplacements(c.expr());
  if (auto d = decide(e, true)) return *d;
  return evaluate(SymBool(e));
}

std::optional<bool> ShapeEnv::staticallyKnown(const SymBool& c) {
  if (auto k = c.maybeConstant()) return *k;
  ++stats_.evaluations;
  return decide(applyReplacements(c.expr()), false);
}

int64_t ShapeEnv::evaluateInt(const SymInt& v) {
  if (auto k = v.maybeConstant()) return *k;
  ++stats_.evaluations;
  Expr e = applyReplacements(v.expr());
  if (e->isConst()) return e->value;
  ValueRange r = rangeOf(e, false);
  if (r.isPoint()) return r.lo;
  if (!e->hasHint)
    throwUserError(ErrorKind::DataDependentError, "could not specialize data-dependent value " +
                                                      sourceText(e) + " (" + e->toString() + ")" +
                                                      at(currentSourceLoc()));
  recordGuard(ctx_->eq(e, ctx_->constant(e->hint)), GuardKind::Specialization);
  return e->hint;
}

void ShapeEnv::require(const SymBool& c, ErrorKind kind, std::string_view message) {
  if (auto k = c.maybeConstant()) {
    if (!*k) throwUserError(kind, std::string(message));
    return;
  }
  Expr e = applyReplacements(c.expr());
  // Not size-oblivious: a validity check must hold for every size. Assuming an unbacked size
  // is >= 2 dropped the runtime assert that x[-1] needs x.shape[0] >= 1 (found by
  // fuzz_compile_diff: x[-1] of an empty nonzero() result reached the kernel). Broadcasting
  // stays size-oblivious by asking evaluateSizeOblivious itself.
  auto d = decide(e, false);
  if (d == true) return;
  if (d == false) throwUserError(kind, std::string(message));
  if (e->hasUnbacked || !e->hasHint) {
    addFact(e);
    Guard& a = asserts_.emplace_back(
        Guard{e, GuardKind::RuntimeAssert, currentSourceLoc(), sourceText(e)});
    a.failKind = kind;
    a.failMessage = message;
    return;
  }
  if (!e->hint) throwUserError(kind, std::string(message));
  recordGuard(e, GuardKind::Require);
}

void ShapeEnv::check(const SymBool& c, std::string_view message) {
  std::string msg = message.empty() ? "check failed: " + c.toString() : std::string(message);
  if (auto k = c.maybeConstant()) {
    if (!*k) throwUserError(ErrorKind::AssertionError, msg);
    return;
  }
  Expr e = applyReplacements(c.expr());
  auto d = decide(e, false);
  if (d == true) return;
  if (d == false || (e->hasHint && !e->hint)) throwUserError(ErrorKind::AssertionError, msg);
  addFact(e);
  asserts_.push_back({e, GuardKind::RuntimeAssert, currentSourceLoc(), sourceText(e)});
  log("runtime_assert " + e->toString() + at(currentSourceLoc()));
}

void ShapeEnv::checkIsSize(const SymInt& v) {
  check(v >= SymInt(0));
}

void ShapeEnv::addFact(Expr e) {
  facts_.push_back(e);
  caches_->addKnown(e);
  ++version_;
  narrowFrom(e, -1);
}

void ShapeEnv::recordGuard(Expr e, GuardKind kind) {
  const SourceLoc& loc = currentSourceLoc();
  guards_.push_back({e, kind, loc, sourceText(e)});
  caches_->addKnown(e);
  ++stats_.guardsAdded;
  ++version_;
  log("eval " + e->toString() + " [guard added]" + at(loc));
  narrowFrom(e, static_cast<int>(guards_.size() - 1));
}

// ---- simplification with ranges ----------------------------------------------------------------

SymInt ShapeEnv::simplify(const SymInt& v) {
  if (v.isConstant()) return v;
  return SymInt(rangeSimplify(applyReplacements(v.expr())));
}
SymBool ShapeEnv::simplify(const SymBool& c) {
  if (c.isConstant()) return c;
  Expr e = rangeSimplify(applyReplacements(c.expr()));
  ValueRange r = rangeOf(e, false);
  return r.isPoint() ? SymBool(r.lo != 0) : SymBool(e);
}

// mod(x, k) = x and x // k = 0 when 0 <= x < k; min/max of ordered operands.
Expr ShapeEnv::rangeSimplify(Expr e) {
  if (e->syms.empty() || e->kind == ExprKind::Sym) return e;
  std::vector<Expr> a;
  bool changed = false;
  for (Expr x : e->args) {
    a.push_back(rangeSimplify(x));
    changed |= a.back() != x;
  }
  ExprContext& cx = *ctx_;
  switch (e->kind) {
    case ExprKind::Mod:
    case ExprKind::FloorDiv: {
      ValueRange x = rangeOf(a[0], false), k = rangeOf(a[1], false);
      if (x.lo >= 0 && k.lo > 0 && x.hi < k.lo)
        return e->kind == ExprKind::Mod ? a[0] : cx.constant(0);
      // A multiple of a divisor that cannot be 0 (PyTorch's u0 // u0 == 1 for a size >= 1,
      // 2*u0 // u0 == 2): a // b is the exact quotient, a % b is 0. With b == 0 possible the
      // total division of Note [Division semantics] gives 0 / a instead, so the range matters.
      if (!a[1]->isConst() && (k.lo > 0 || k.hi < 0))
        if (auto q = cx.divideExact(a[0], a[1]))
          return e->kind == ExprKind::Mod ? cx.constant(0) : *q;
      break;
    }
    case ExprKind::Min:
    case ExprKind::Max: {
      for (Expr cand : a) {
        ValueRange rc = rangeOf(cand, false);
        bool dominates = true;
        for (Expr o : a)
          if (o != cand) {
            ValueRange ro = rangeOf(o, false);
            dominates &= e->kind == ExprKind::Min ? rc.hi <= ro.lo : rc.lo >= ro.hi;
          }
        if (dominates) return cand;
      }
      break;
    }
    default:
      break;
  }
  if (!changed) return e;
  std::vector<Expr> map(ctx_->symbols().size(), nullptr);
  // Rebuild through substitute's switch by substituting nothing: reuse the constructors.
  switch (e->kind) {
    case ExprKind::Add: {
      Expr r = cx.constant(e->value);
      for (size_t i = 0; i < a.size(); ++i) r = cx.add(r, cx.scale(a[i], e->coeffs[i]));
      return r;
    }
    case ExprKind::Mul: {
      Expr r = cx.constant(1);
      for (Expr x : a) r = cx.mul(r, x);
      return r;
    }
    case ExprKind::FloorDiv:
      return cx.floorDiv(a[0], a[1]);
    case ExprKind::Mod:
      return cx.mod(a[0], a[1]);
    case ExprKind::Min:
    case ExprKind::Max: {
      Expr r = a[0];
      for (size_t i = 1; i < a.size(); ++i)
        r = e->kind == ExprKind::Min ? cx.min(r, a[i]) : cx.max(r, a[i]);
      return r;
    }
    case ExprKind::Le:
      return cx.le(a[0], cx.constant(0));
    case ExprKind::Eq:
      return cx.eq(a[0], cx.constant(0));
    case ExprKind::Ne:
      return cx.ne(a[0], cx.constant(0));
    case ExprKind::And:
    case ExprKind::Or: {
      Expr r = cx.boolConst(e->kind == ExprKind::And);
      for (Expr x : a) r = e->kind == ExprKind::And ? cx.logicalAnd(r, x) : cx.logicalOr(r, x);
      return r;
    }
    default:
      return e;
  }
}

}  // namespace tessel::shapes
