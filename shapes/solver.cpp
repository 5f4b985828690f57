// The Z3 encoding of expressions (Python floor semantics) and the bounded queries ShapeEnv asks.
#include "shapes/solver.h"

#include <z3++.h>

#include <chrono>
#include <string>
#include <unordered_map>

#include "shapes/shape_env.h"
#include "shapes/solver_deadline.h"
#include "shapes/simplify_rules.h"

namespace tessel::shapes {

namespace {

// Note [Z3 sorts]: z3++.h aborts the process on a sort mismatch, so every operand's sort is
// checked with TESSEL_ASSERT (a Tessel bug, not user input) before a term is built.
void checkInt(const z3::expr& e) {
  TESSEL_ASSERT(e.is_int(), "Z3 encoding: Int expected");
}
void checkBool(const z3::expr& e) {
  TESSEL_ASSERT(e.is_bool(), "Z3 encoding: Bool expected");
}

z3::expr pyFloorDiv(const z3::expr& a, const z3::expr& b, std::optional<int64_t> bConst) {
  checkInt(a);
  checkInt(b);
  z3::context& c = a.ctx();
  // Z3's div is Euclidean; it equals floor division for a positive divisor. For b < 0,
  // floor(a / b) = floor(-a / -b). b == 0 gives 0 (Note [Division semantics]).
  if (bConst) {
    if (*bConst > 0) return z3::expr(c, Z3_mk_div(c, a, b));
    if (*bConst < 0) return z3::expr(c, Z3_mk_div(c, -a, -b));
    return c.int_val(0);
  }
  z3::expr pos = z3::expr(c, Z3_mk_div(c, a, b));
  z3::expr neg = z3::expr(c, Z3_mk_div(c, -a, -b));
  return z3::ite(b > 0, pos, z3::ite(b < 0, neg, c.int_val(0)));
}

}  // namespace

// One Z3 context per thread, shared by every ShapeEnv on it: making a context costs ~10 ms,
// more than a whole typical compile. Solvers keep their own expression caches, keyed by their
// ShapeEnv's nodes, so sharing the context shares nothing else. The thread and each Solver made
// on it share ownership: the context is freed when the thread has ended and its last Solver is
// gone, whichever comes later (a ShapeEnv may outlive its thread, and a static one is destroyed
// after the main thread's thread_locals), so LeakSanitizer sees nothing left (reliability.md).
std::shared_ptr<z3::context> threadContext() {
  thread_local std::shared_ptr<z3::context> ctx = std::make_shared<z3::context>();
  return ctx;
}

struct Solver::Impl {
  // Declared before every z3 object below, so the context is released after them.
  std::shared_ptr<z3::context> owner = threadContext();
  z3::context& ctx = *owner;
  std::unordered_map<Expr, z3::expr> cache;

  z3::expr sym(uint32_t s) { return ctx.int_const(("s!" + std::to_string(s)).c_str()); }

  z3::expr enc(Expr e) {
    auto it = cache.find(e);
    if (it != cache.end()) return it->second;
    z3::expr r = encodeNode(e);
    if (e->isBool)
      checkBool(r);
    else
      checkInt(r);
    cache.emplace(e, r);
    return r;
  }

  z3::expr encodeNode(Expr e) {
    switch (e->kind) {
      case ExprKind::Const:
        return ctx.int_val(static_cast<int64_t>(e->value));
      case ExprKind::BoolConst:
        return ctx.bool_val(e->value != 0);
      case ExprKind::Sym:
        return sym(static_cast<uint32_t>(e->value));
      case ExprKind::Add: {
        z3::expr r = ctx.int_val(static_cast<int64_t>(e->value));
        for (size_t i = 0; i < e->args.size(); ++i)
          r = r + ctx.int_val(static_cast<int64_t>(e->coeffs[i])) * enc(e->args[i]);
        return r;
      }
      case ExprKind::Mul: {
        z3::expr r = enc(e->args[0]);
        for (size_t i = 1; i < e->args.size(); ++i) r = r * enc(e->args[i]);
        return r;
      }
      case ExprKind::FloorDiv:
      case ExprKind::Mod: {
        z3::expr a = enc(e->args[0]), b = enc(e->args[1]);
        std::optional<int64_t> bc;
        if (e->args[1]->isConst()) bc = e->args[1]->value;
        z3::expr q = pyFloorDiv(a, b, bc);
        return e->kind == ExprKind::FloorDiv ? q : a - b * q;
      }
      case ExprKind::Min:
      case ExprKind::Max: {
        z3::expr r = enc(e->args[0]);
        for (size_t i = 1; i < e->args.size(); ++i) {
          z3::expr x = enc(e->args[i]);
          r = e->kind == ExprKind::Min ? z3::ite(x < r, x, r) : z3::ite(x > r, x, r);
        }
        return r;
      }
      case ExprKind::Le:
        return enc(e->args[0]) <= 0;
      case ExprKind::Eq:
        return enc(e->args[0]) == 0;
      case ExprKind::Ne:
        return enc(e->args[0]) != 0;
      case ExprKind::And:
      case ExprKind::Or: {
        z3::expr_vector v(ctx);
        for (Expr a : e->args) {
          z3::expr x = enc(a);
          checkBool(x);
          v.push_back(x);
        }
        return e->kind == ExprKind::And ? z3::mk_and(v) : z3::mk_or(v);
      }
    }
    TESSEL_ASSERT(false, "Z3 encoding: unknown node kind");
    return ctx.bool_val(false);
  }

  // Range constraints for the free symbols of the given expressions.
  void addRanges(z3::solver& s, const std::vector<ValueRange>& ranges,
                 std::initializer_list<std::span<const Expr>> groups) {
    if (ranges.empty()) return;
    std::vector<bool> seen(ranges.size(), false);
    for (auto g : groups)
      for (Expr e : g)
        for (uint32_t v : e->syms) {
          if (v >= ranges.size() || seen[v]) continue;
          seen[v] = true;
          const ValueRange& r = ranges[v];
          if (r.lo != ValueRange::kNegInf) s.add(sym(v) >= ctx.int_val(static_cast<int64_t>(r.lo)));
          if (r.hi != ValueRange::kPosInf) s.add(sym(v) <= ctx.int_val(static_cast<int64_t>(r.hi)));
        }
  }

  // Note [Solver choice]: Z3's default (combined) solver costs milliseconds of setup per
  // query; the simple solver is ~10x cheaper on the linear queries that dominate. Nonlinear
  // queries keep the default solver, which was seen to honour rlimit on hard instances.
  static bool nonlinear(Expr e) {
    if (e->kind == ExprKind::Mul) return true;
    if ((e->kind == ExprKind::FloorDiv || e->kind == ExprKind::Mod) && !e->args[1]->isConst())
      return true;
    for (Expr a : e->args)
      if (nonlinear(a)) return true;
    return false;
  }
  /// Floor division or modulo by a non-constant somewhere in e.
  static bool symbolicDivision(Expr e) {
    if ((e->kind == ExprKind::FloorDiv || e->kind == ExprKind::Mod) && !e->args[1]->isConst())
      return true;
    for (Expr a : e->args)
      if (symbolicDivision(a)) return true;
    return false;
  }
  static bool anyNonlinear(std::initializer_list<std::span<const Expr>> groups) {
    for (auto g : groups)
      for (Expr e : g)
        if (nonlinear(e)) return true;
    return false;
  }

  // Every check goes through here: Note [A wall-clock net under rlimit].
  template <class Check>
  static z3::check_result bounded(z3::context& c, uint32_t rlimit, ShapeEnvStats* stats,
                                  Check&& check) {
    ScopedCheckDeadline deadline(
        [](void* ctx) { static_cast<z3::context*>(ctx)->interrupt(); }, &c,
        wallBudgetFor(rlimit));
    z3::check_result r = check();
    if (stats && deadline.fired()) ++stats->solverInterrupts;
    return r;
  }

  z3::solver makeSolver(uint32_t rlimit, bool nonlinearQuery) {
    z3::solver s = nonlinearQuery ? z3::solver(ctx) : z3::solver(ctx, z3::solver::simple());
    z3::params p(ctx);
    p.set("rlimit", rlimit);
    s.set(p);
    return s;
  }

  // Note [Nonlinear queries are not incremental]
  // Debian's Z3 4.8.12 can ignore rlimit in its incremental arithmetic core on nonlinear
  // queries (after push/pop or with assumption literals): fuzz_shapes found
  // maximize(s0 // min(s0, s0 // 1000)) running for minutes at any rlimit, and so did a fresh
  // simple solver. The QF_NIA tactic (what the default solver runs when used once, without
  // push/pop or assumptions) honours rlimit, and made fresh it costs about a millisecond, a
  // fifth of a fresh default solver. So a nonlinear query gets a fresh QF_NIA solver per
  // check, with every constraint asserted outright; unsat cores are then found by deletion
  // (Solver::check). maximize() does so only for queries with floor division or modulo by a
  // symbol: on products alone QF_NIA answered `unknown` to probes the incremental core refutes
  // at once (the tpu's bound of nonzero, u0 <= s0 * s1, failed TpuParity), so those keep one
  // incremental solver. (A wall-clock `timeout` is no way out: Z3 4.8.12's timer thread
  // deadlocked the tpu suite.)
  //
  // One such check: the asserted groups and `extra`, with the ranges of every symbol they and
  // `mentioned` use.
  SolverAnswer checkOnce(uint32_t rlimit, const std::vector<ValueRange>& ranges,
                         std::initializer_list<std::span<const Expr>> groups,
                         std::span<const Expr> mentioned, const std::vector<z3::expr>& extra,
                         ShapeEnvStats* stats, z3::model* model = nullptr) {
    z3::solver s = z3::tactic(ctx, "qfnia").mk_solver();
    z3::params p(ctx);
    p.set("rlimit", rlimit);
    s.set(p);
    addRanges(s, ranges, groups);
    addRanges(s, ranges, {mentioned});
    for (auto g : groups)
      for (Expr e : g) s.add(enc(e));
    for (const z3::expr& x : extra) s.add(x);
    if (stats) ++stats->solverQueries;
    z3::check_result cr = bounded(ctx, rlimit, stats, [&] { return s.check(); });
    SolverAnswer r = cr == z3::sat     ? SolverAnswer::Sat
                     : cr == z3::unsat ? SolverAnswer::Unsat
                                       : SolverAnswer::Unknown;
    if (r == SolverAnswer::Unknown && stats) ++stats->solverUnknowns;
    if (r == SolverAnswer::Sat && model) *model = s.get_model();
    return r;
  }
};

namespace {
struct Timer {
  ShapeEnvStats* stats;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  ~Timer() {
    if (stats)
      stats->solverNanos += std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::steady_clock::now() - t0)
                                .count();
  }
};
SolverAnswer answerOf(z3::check_result r) {
  return r == z3::sat     ? SolverAnswer::Sat
         : r == z3::unsat ? SolverAnswer::Unsat
                          : SolverAnswer::Unknown;
}
}  // namespace

// The Z3 context is made on the first query: creating one costs ~15 ms, and most compiles
// (static shapes, conditions decided by ranges) never ask the solver anything.
Solver::Solver(uint32_t rlimit, ShapeEnvStats* stats) : rlimit_(rlimit), stats_(stats) {}
Solver::~Solver() = default;

Solver::Impl& Solver::impl() {
  if (!impl_) impl_ = std::make_unique<Impl>();
  return *impl_;
}

SolverResult Solver::check(const SolverQuery& q) {
  Timer t{stats_};
  Impl& I = impl();
  bool nonlinear = Impl::anyNonlinear({q.hard, q.tracked});
  auto readModel = [&](z3::model& m, SolverResult& res) {
    for (uint32_t v : q.modelSyms) {
      z3::expr val = m.eval(I.sym(v), true);
      int64_t x = 0;
      res.model.push_back(val.is_numeral_i64(x) ? x : 0);
    }
  };
  if (nonlinear && !q.tracked.empty()) {
    // Note [Nonlinear queries are not incremental]: no assumption literals; the core is found
    // by leaving each tracked constraint out in turn (kept when the rest is not unsat).
    std::vector<Expr> kept(q.tracked.begin(), q.tracked.end());
    std::vector<size_t> index(kept.size());
    for (size_t i = 0; i < index.size(); ++i) index[i] = i;
    SolverResult res;
    z3::model m(I.ctx);
    res.answer = I.checkOnce(rlimit_, q.ranges, {q.hard, kept}, {}, {}, stats_, &m);
    if (res.answer == SolverAnswer::Sat) readModel(m, res);
    if (res.answer != SolverAnswer::Unsat) return res;
    for (size_t i = 0; i < kept.size();) {
      std::vector<Expr> rest = kept;
      rest.erase(rest.begin() + i);
      if (I.checkOnce(rlimit_, q.ranges, {q.hard, rest}, {}, {}, stats_) == SolverAnswer::Unsat) {
        kept = std::move(rest);
        index.erase(index.begin() + i);
      } else {
        ++i;
      }
    }
    res.core = index;
    return res;
  }
  z3::solver s = I.makeSolver(rlimit_, nonlinear);
  I.addRanges(s, q.ranges, {q.hard, q.tracked});
  for (Expr e : q.hard) s.add(I.enc(e));
  z3::expr_vector lits(I.ctx);
  for (size_t i = 0; i < q.tracked.size(); ++i) {
    z3::expr b = I.ctx.bool_const(("t!" + std::to_string(i)).c_str());
    s.add(z3::implies(b, I.enc(q.tracked[i])));
    lits.push_back(b);
  }
  SolverResult res;
  if (stats_) ++stats_->solverQueries;
  res.answer = answerOf(Impl::bounded(I.ctx, rlimit_, stats_, [&] {
    return lits.empty() ? s.check() : s.check(lits);
  }));
  if (res.answer == SolverAnswer::Unknown && stats_) ++stats_->solverUnknowns;
  if (res.answer == SolverAnswer::Sat) {
    z3::model m = s.get_model();
    readModel(m, res);
  } else if (res.answer == SolverAnswer::Unsat) {
    z3::expr_vector core = s.unsat_core();
    for (unsigned k = 0; k < core.size(); ++k) {
      std::string n = core[k].decl().name().str();
      if (n.rfind("t!", 0) == 0) res.core.push_back(std::stoul(n.substr(2)));
    }
  }
  return res;
}

std::vector<bool> Solver::implied(std::span<const Expr> cands, std::span<const Expr> hard,
                                  const std::vector<ValueRange>& ranges) {
  Timer t{stats_};
  Impl& I = impl();
  std::vector<bool> implied(cands.size(), false);
  if (Impl::anyNonlinear({hard, cands})) {  // Note [Nonlinear queries are not incremental]
    for (size_t i = 0; i < cands.size(); ++i) {
      std::vector<Expr> others;
      for (size_t j = 0; j < cands.size(); ++j)
        if (j != i && !implied[j]) others.push_back(cands[j]);
      implied[i] = I.checkOnce(rlimit_, ranges, {hard, others}, cands.subspan(i, 1),
                               {!I.enc(cands[i])}, stats_) == SolverAnswer::Unsat;
    }
    return implied;
  }
  z3::solver s = I.makeSolver(rlimit_, false);
  I.addRanges(s, ranges, {hard, cands});
  for (Expr e : hard) s.add(I.enc(e));
  std::vector<z3::expr> lits;
  for (size_t i = 0; i < cands.size(); ++i) {
    z3::expr b = I.ctx.bool_const(("g!" + std::to_string(i)).c_str());
    s.add(z3::implies(b, I.enc(cands[i])));
    lits.push_back(b);
  }
  for (size_t i = 0; i < cands.size(); ++i) {
    z3::expr_vector assume(I.ctx);
    for (size_t j = 0; j < cands.size(); ++j)
      if (j != i && !implied[j]) assume.push_back(lits[j]);
    s.push();
    s.add(!I.enc(cands[i]));
    if (stats_) ++stats_->solverQueries;
    auto r = Impl::bounded(I.ctx, rlimit_, stats_, [&] { return s.check(assume); });
    s.pop();
    if (r == z3::unknown && stats_) ++stats_->solverUnknowns;
    implied[i] = r == z3::unsat;
  }
  return implied;
}

std::optional<int64_t> Solver::maximize(Expr e, std::span<const Expr> hard,
                                        const std::vector<ValueRange>& ranges, int64_t lo,
                                        int64_t hi) {
  Timer t{stats_};
  Impl& I = impl();
  Expr one[] = {e};
  // Note [Nonlinear queries are not incremental]: a nonlinear probe is first a fresh QF_NIA
  // check, which honours rlimit. Where it answers `unknown` on products alone (the tpu's
  // u0 <= s0 * s1 under nonzero: its probes near 2^62) the incremental core, which refutes
  // those at once, is asked next; with floor division or modulo by a symbol it is not, as it
  // can run past rlimit there.
  const bool nonlinear = Impl::anyNonlinear({hard, one});
  bool divides = Impl::symbolicDivision(e);
  for (Expr h : hard) divides = divides || Impl::symbolicDivision(h);
  std::optional<z3::solver> incremental;
  auto incrementalSolver = [&]() -> z3::solver& {
    if (!incremental) {
      incremental.emplace(I.makeSolver(rlimit_, nonlinear));
      I.addRanges(*incremental, ranges, {hard, one});
      for (Expr h : hard) incremental->add(I.enc(h));
    }
    return *incremental;
  };
  z3::expr x = I.enc(e);
  // Unbounded above (or beyond what int64 sizes can be): refuse the bound.
  constexpr int64_t kHuge = int64_t{1} << 62;
  if (hi == ValueRange::kPosInf || hi > kHuge) hi = kHuge;
  auto atLeast = [&](int64_t v, int64_t* model) -> SolverAnswer {
    if (nonlinear) {
      z3::model mo(I.ctx);
      auto r = I.checkOnce(rlimit_, ranges, {hard}, one, {x >= I.ctx.int_val(v)}, stats_, &mo);
      int64_t val = v;
      if (r == SolverAnswer::Sat) *model = mo.eval(x, true).is_numeral_i64(val) ? val : v;
      if (r != SolverAnswer::Unknown || divides) return r;
    }
    z3::solver& s = incrementalSolver();
    s.push();
    s.add(x >= I.ctx.int_val(static_cast<int64_t>(v)));
    if (stats_) ++stats_->solverQueries;
    auto r = answerOf(Impl::bounded(I.ctx, rlimit_, stats_, [&] { return s.check(); }));
    if (r == SolverAnswer::Sat) {
      int64_t m = v;
      if (s.get_model().eval(x, true).is_numeral_i64(m))
        *model = m;
      else
        *model = v;
    }
    if (r == SolverAnswer::Unknown && stats_) ++stats_->solverUnknowns;
    s.pop();
    return r;
  };
  int64_t m = 0;
  auto top = atLeast(hi, &m);
  if (top == SolverAnswer::Sat) return hi == kHuge ? std::nullopt : std::optional(hi);
  if (top == SolverAnswer::Unknown) return std::nullopt;
  // Invariant: e can reach lo, e cannot reach hi + 1 (after the first step). Gallop up from lo
  // (steps 1, 2, 4, ...) until a step fails, then bisect: a maximum near the hint, the common
  // case, takes a few queries rather than the ~62 of bisecting down from 2^62 (each one a
  // fresh solver when nonlinear). hi - lo can pass INT64_MAX (lo is -2^62 for an unhinted e),
  // hence the unsigned distances.
  hi = hi - 1;
  bool galloping = true;
  uint64_t step = 1;
  while (lo < hi) {
    uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    uint64_t d = galloping ? std::min(step, span) : span - span / 2;
    int64_t mid = static_cast<int64_t>(static_cast<uint64_t>(lo) + d);
    auto r = atLeast(mid, &m);
    if (r == SolverAnswer::Unknown) return std::nullopt;
    if (r == SolverAnswer::Sat) {
      lo = std::max(mid, m);
      step *= 2;
    } else {
      hi = mid - 1;
      galloping = false;
    }
  }
  return lo;
}

// ---- rule checking (simplify_rules.h) ----

namespace {
z3::expr encodeRaw(z3::context& c, const RawTerm& t) {
  switch (t.op) {
    case RawTerm::Const:
      return c.int_val(static_cast<int64_t>(t.value));
    case RawTerm::Var:
      return c.int_const(("s!" + std::to_string(t.value)).c_str());
    default:
      break;
  }
  z3::expr r = encodeRaw(c, t.args[0]);
  for (size_t i = 1; i < t.args.size(); ++i) {
    z3::expr b = encodeRaw(c, t.args[i]);
    std::optional<int64_t> bc;
    if (t.args[i].op == RawTerm::Const) bc = t.args[i].value;
    switch (t.op) {
      case RawTerm::Add:
        r = r + b;
        break;
      case RawTerm::Mul:
        r = r * b;
        break;
      case RawTerm::FloorDiv:
        r = pyFloorDiv(r, b, bc);
        break;
      case RawTerm::Mod:
        r = r - b * pyFloorDiv(r, b, bc);
        break;
      case RawTerm::Min:
        r = z3::ite(b < r, b, r);
        break;
      case RawTerm::Max:
        r = z3::ite(b > r, b, r);
        break;
      default:
        break;
    }
  }
  return r;
}
RuleCheck proveEqual(z3::context& c, const z3::expr& a, const z3::expr& b, uint32_t rlimit) {
  z3::solver s(c);
  z3::params p(c);
  p.set("rlimit", rlimit);
  s.set(p);
  s.add(a != b);
  auto r = Solver::Impl::bounded(c, rlimit, nullptr, [&] { return s.check(); });
  return r == z3::unsat ? RuleCheck::Equivalent
         : r == z3::sat ? RuleCheck::NotEquivalent
                        : RuleCheck::Unknown;
}
}  // namespace

RuleCheck checkRuleWithZ3(const RawTerm& t, uint32_t rlimit) {
  ExprContext cx;
  for (int i = 0; i < 3; ++i) cx.newSymbol("x" + std::to_string(i), 0);
  Expr simplified = buildRaw(cx, t);
  Solver::Impl impl;
  return proveEqual(impl.ctx, encodeRaw(impl.ctx, t), impl.enc(simplified), rlimit);
}

RuleCheck checkEquivalentWithZ3(ExprContext& cx, Expr a, Expr b, uint32_t rlimit) {
  TESSEL_ASSERT(a->isBool == b->isBool, "checkEquivalent: sort mismatch");
  Solver::Impl impl;
  return proveEqual(impl.ctx, impl.enc(a), impl.enc(b), rlimit);
}

}  // namespace tessel::shapes
