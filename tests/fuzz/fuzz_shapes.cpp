// Fuzz target: the shape engine. The bytes choose a ShapeEnv (config, up
// to three sources: sizes or ints, duck/dynamic/static, user ranges, unbacked), random
// integer terms over the sources and a few decisions (evaluate, evaluateInt, staticallyKnown,
// require). Checked, with a 128-bit reference evaluator as the oracle:
//   (a) the canonical form of a term equals the term itself at sampled points, and so does
//       ShapeEnv::simplify at points that satisfy the guards;
//   (b) bounds() and maxValue() contain every value at such points, each symbol's narrowed
//       range contains its value, and every decision holds there and at the hints;
//   (c) for the first term, Z3 finds no point where the canonical form differs from the raw
//       term, simplify() from it under the guards, or it leaves bounds() (unknown is
//       accepted; symbols within +-2^62);
//   (d) the compiled guard program (pruned, merged) passes exactly the inputs that satisfy
//       every recorded guard;
//   (e) symbolic floats (Note [Symbolic floats]): random float expressions over the terms,
//       float inputs and constants equal, bit for bit (or raising the same error), a direct
//       f64 evaluation of the unsimplified tree, at the hints (the node's hint) and at every
//       point (evalFloat, float inputs sampled too); one that was specialized keeps its value
//       wherever the guards hold.
// Points where any intermediate value leaves +-2^62 are skipped (overflow is its own,
// documented behaviour). A disagreement prints the case and aborts.
// Run with tools/fuzz.sh fuzz_shapes SECONDS.
#include <fuzzer/FuzzedDataProvider.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "shapes/expr.h"
#include "shapes/guard_program.h"
#include "shapes/shape_env.h"
#include "shapes/simplify_rules.h"
#include "shapes/solver.h"
#include "shapes/sym_float.h"

namespace {

using namespace tessel::shapes;
using tessel::ErrorKind;
using tessel::UserError;
using i128 = __int128;
constexpr i128 kBig = i128{1} << 62;

// ---- the reference: exact arithmetic, Python floor semantics, total division ----------------

struct Ref {
  bool big = false;  ///< some intermediate left [-2^62, 2^62]: the point is skipped
  i128 fit(i128 v) {
    if (v > kBig || v < -kBig) {
      big = true;
      return v > 0 ? kBig : -kBig;
    }
    return v;
  }
  static i128 fdiv(i128 a, i128 b) {
    if (b == 0) return 0;
    i128 q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return q;
  }
  i128 fmod(i128 a, i128 b) { return b == 0 ? a : fit(a - b * fdiv(a, b)); }

  i128 raw(const RawTerm& t, const std::vector<int64_t>& vars) {
    if (t.op == RawTerm::Const) return fit(t.value);
    if (t.op == RawTerm::Var) return fit(vars[t.value]);
    i128 r = raw(t.args[0], vars);
    for (size_t i = 1; i < t.args.size(); ++i) r = combine(t.op, r, raw(t.args[i], vars));
    return r;
  }
  i128 combine(RawTerm::Op op, i128 a, i128 b) {
    switch (op) {
      case RawTerm::Add:
        return fit(a + b);
      case RawTerm::Mul:
        return fit(a * b);
      case RawTerm::FloorDiv:
        return fit(fdiv(a, b));
      case RawTerm::Mod:
        return fmod(a, b);
      case RawTerm::Min:
        return a < b ? a : b;
      case RawTerm::Max:
        return a > b ? a : b;
      default:
        return 0;
    }
  }

  i128 expr(Expr e, const std::vector<int64_t>& syms) {
    switch (e->kind) {
      case ExprKind::Const:
      case ExprKind::BoolConst:
        return fit(e->value);
      case ExprKind::Sym:
        return fit(syms.at(e->value));
      case ExprKind::Add: {
        i128 r = fit(e->value);
        for (size_t i = 0; i < e->args.size(); ++i)
          r = fit(r + fit(i128{e->coeffs[i]} * expr(e->args[i], syms)));
        return r;
      }
      case ExprKind::Mul: {
        i128 r = 1;
        for (Expr a : e->args) r = fit(r * expr(a, syms));
        return r;
      }
      case ExprKind::FloorDiv:
        return fit(fdiv(expr(e->args[0], syms), expr(e->args[1], syms)));
      case ExprKind::Mod:
        return fmod(expr(e->args[0], syms), expr(e->args[1], syms));
      case ExprKind::Min:
      case ExprKind::Max: {
        i128 r = expr(e->args[0], syms);
        for (size_t i = 1; i < e->args.size(); ++i) {
          i128 x = expr(e->args[i], syms);
          r = (e->kind == ExprKind::Min) == (x < r) ? x : r;
        }
        return r;
      }
      case ExprKind::Le:
        return expr(e->args[0], syms) <= 0;
      case ExprKind::Eq:
        return expr(e->args[0], syms) == 0;
      case ExprKind::Ne:
        return expr(e->args[0], syms) != 0;
      case ExprKind::And:
      case ExprKind::Or: {
        bool isAnd = e->kind == ExprKind::And, r = isAnd;
        for (Expr a : e->args) r = isAnd ? (expr(a, syms) != 0 && r) : (expr(a, syms) != 0 || r);
        return r;
      }
    }
    return 0;
  }
};

std::string str(i128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  std::string s;
  for (i128 x = neg ? -v : v; x > 0; x /= 10) s.insert(s.begin(), char('0' + int(x % 10)));
  return neg ? "-" + s : s;
}

std::string rawText(const RawTerm& t) {
  static const char* names[] = {"", "", "+", "*", "//", "%", "min", "max"};
  if (t.op == RawTerm::Const) return std::to_string(t.value);
  if (t.op == RawTerm::Var) return "v" + std::to_string(t.value);
  std::string a = rawText(t.args[0]), b = rawText(t.args[1]);
  if (t.op == RawTerm::Min || t.op == RawTerm::Max)
    return std::string(names[t.op]) + "(" + a + ", " + b + ")";
  return "(" + a + " " + names[t.op] + " " + b + ")";
}

// ---- symbolic floats: the tree as generated, and its direct evaluation ------------------------

struct RawFloat {
  FloatOp op = FloatOp::Const;
  double value = 0;     ///< Const
  size_t term = 0;      ///< OfInt: which term
  uint32_t input = 0;   ///< Input
  std::vector<RawFloat> args;
};

/// A value, an error kind, or "skip" (an integer leaf left +-2^62).
struct FloatResult {
  double v = 0;
  std::optional<ErrorKind> error;
  bool skip = false;
};

FloatResult refFloat(const RawFloat& f, const std::vector<RawTerm>& terms,
                     const std::vector<int64_t>& vars, std::span<const double> inputs) {
  FloatResult r;
  switch (f.op) {
    case FloatOp::Const:
      r.v = f.value;
      return r;
    case FloatOp::OfInt: {
      Ref ref;
      i128 v = ref.raw(terms[f.term], vars);
      r.skip = ref.big;
      r.v = static_cast<double>(static_cast<int64_t>(v));
      return r;
    }
    case FloatOp::Input:
      r.v = inputs[f.input];
      return r;
    default:
      break;
  }
  FloatResult a = refFloat(f.args[0], terms, vars, inputs);
  if (a.skip || a.error) return a;
  FloatResult b;
  if (f.args.size() > 1) {
    b = refFloat(f.args[1], terms, vars, inputs);
    if (b.skip || b.error) return b;
  }
  try {
    r.v = f.args.size() > 1 ? applyFloatOp(f.op, a.v, b.v) : applyFloatOp(f.op, a.v);
  } catch (const UserError& e) {
    r.error = e.kind();
  }
  return r;
}

bool sameFloat(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;  // -0.0 and 0.0 print differently: bit for bit
}

std::string floatText(double v) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// ---- the generated case -----------------------------------------------------------------------

struct Decision {
  enum Kind { Evaluate, EvaluateInt, StaticallyKnown, Require } kind;
  Expr expr;        ///< the condition (bool) or the int (EvaluateInt)
  int64_t outcome;  ///< what the env answered
  std::string text;
};

struct Case {
  FuzzedDataProvider& in;
  ShapeEnv env;
  std::vector<SymInt> vars;  ///< per source index: what createSymbol returned
  std::vector<RawTerm> terms;
  std::vector<Expr> canon;  ///< per term: the canonical expression (nullptr: a constant)
  std::vector<Decision> decisions;
  std::string log;
  // Symbolic floats: per expression, the generated tree and what the engine built from it
  // (nullptr: building raised, as eager code would), and whether evaluateFloat specialized it.
  std::vector<RawFloat> rawFloats;
  std::vector<FloatExpr> floats;
  std::vector<std::optional<double>> specialized;
  std::vector<double> floatHints;

  Case(FuzzedDataProvider& in, ShapeEnvConfig cfg) : in(in), env(cfg) {}

  int64_t constant() {
    static const int64_t edges[] = {16,
                                    31,
                                    64,
                                    1000,
                                    int64_t{1} << 31,
                                    int64_t{1} << 40,
                                    int64_t{1} << 62,
                                    INT64_MAX,
                                    INT64_MIN,
                                    -(int64_t{1} << 31)};
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0)
      return edges[in.ConsumeIntegralInRange<size_t>(0, std::size(edges) - 1)];
    return in.ConsumeIntegralInRange<int64_t>(-8, 8);
  }
  RawTerm term(int depth) {
    int k = in.ConsumeIntegralInRange<int>(0, depth > 0 ? 9 : 1);
    auto two = [&](RawTerm::Op op, RawTerm b) {
      return RawTerm{op, 0, {term(depth - 1), std::move(b)}};
    };
    switch (k) {
      case 0:
        return {RawTerm::Const, constant(), {}};
      case 1:
        return {RawTerm::Var, in.ConsumeIntegralInRange<int64_t>(0, vars.size() - 1), {}};
      case 2:
        return two(RawTerm::Add, term(depth - 1));
      case 3:  // a - b
        return two(RawTerm::Add, {RawTerm::Mul, 0, {{RawTerm::Const, -1, {}}, term(depth - 1)}});
      case 4:
        return two(RawTerm::Mul, term(depth - 1));
      case 5:
      case 6: {  // mostly a constant divisor, as shapes have
        RawTerm d = in.ConsumeBool() ? RawTerm{RawTerm::Const, constant(), {}} : term(depth - 1);
        return two(k == 5 ? RawTerm::FloorDiv : RawTerm::Mod, std::move(d));
      }
      case 7:
        return two(RawTerm::Min, term(depth - 1));
      case 8:
        return two(RawTerm::Max, term(depth - 1));
      default:
        return two(RawTerm::Mul, {RawTerm::Const, constant(), {}});
    }
  }

  Expr build(const RawTerm& t) {
    ExprContext& cx = env.ctx();
    if (t.op == RawTerm::Const) return cx.constant(t.value);
    if (t.op == RawTerm::Var) {
      const SymInt& v = vars[t.value];
      return v.isConstant() ? cx.constant(v.constant()) : v.expr();
    }
    Expr a = build(t.args[0]), b = build(t.args[1]);
    switch (t.op) {
      case RawTerm::Add:
        return cx.add(a, b);
      case RawTerm::Mul:
        return cx.mul(a, b);
      case RawTerm::FloorDiv:
        return cx.floorDiv(a, b);
      case RawTerm::Mod:
        return cx.mod(a, b);
      case RawTerm::Min:
        return cx.min(a, b);
      default:
        return cx.max(a, b);
    }
  }
  // The term over Z3's variables x0..x2 (= symbol indices); static sources become constants.
  RawTerm overSymbols(const RawTerm& t) {
    if (t.op == RawTerm::Var) {
      const SymInt& v = vars[t.value];
      if (v.isConstant()) return {RawTerm::Const, v.constant(), {}};
      return {RawTerm::Var, static_cast<int64_t>(v.expr()->value), {}};
    }
    RawTerm r{t.op, t.value, {}};
    for (const RawTerm& a : t.args) r.args.push_back(overSymbols(a));
    return r;
  }

  void makeSources() {
    int n = in.ConsumeIntegralInRange<int>(1, 3);
    for (int i = 0; i < n; ++i) {
      std::string name = "v" + std::to_string(i);
      int kind = in.ConsumeIntegralInRange<int>(0, 7);
      if (kind == 7) {  // unbacked (a .item() or nonzero size)
        bool isSize = in.ConsumeBool();
        std::optional<int64_t> maxValue;
        if (in.ConsumeBool()) maxValue = in.ConsumeIntegralInRange<int64_t>(isSize ? 0 : -50, 100);
        vars.push_back(env.createUnbacked(isSize, maxValue));
        log += name + " = " + vars.back().toString() + " unbacked" + (isSize ? " size" : "") +
               (maxValue ? " max " + std::to_string(*maxValue) : "") + "\n";
        continue;
      }
      SymbolOptions o;
      o.isSize = kind < 5;
      o.dynamic = kind % 3 == 0   ? DimDynamic::Duck
                  : kind % 3 == 1 ? DimDynamic::Dynamic
                                  : DimDynamic::Static;
      int64_t hint = in.ConsumeIntegralInRange<int>(0, 9) == 0
                         ? in.ConsumeIntegralInRange<int64_t>(0, int64_t{1} << 40)
                         : in.ConsumeIntegralInRange<int64_t>(o.isSize ? 0 : -20, 40);
      if (in.ConsumeIntegralInRange<int>(0, 3) == 0)
        o.min = hint - in.ConsumeIntegralInRange<int>(0, 10);
      if (in.ConsumeIntegralInRange<int>(0, 3) == 0)
        o.max = hint + in.ConsumeIntegralInRange<int>(0, 10);
      vars.push_back(env.createSymbol(name, hint, o));
      log += name + " = " + vars.back().toString() + " hint " + std::to_string(hint) +
             (o.isSize ? " size" : " int") + (o.min ? " min " + std::to_string(*o.min) : "") +
             (o.max ? " max " + std::to_string(*o.max) : "") + "\n";
    }
  }

  Expr condition() {
    ExprContext& cx = env.ctx();
    Expr a = build(term(2)), b = build(term(2));
    int op = in.ConsumeIntegralInRange<int>(0, 5);
    Expr c = op == 0   ? cx.le(a, b)
             : op == 1 ? cx.lt(a, b)
             : op == 2 ? cx.eq(a, b)
             : op == 3 ? cx.ne(a, b)
             : op == 4 ? cx.le(b, a)
                       : cx.lt(b, a);
    if (in.ConsumeIntegralInRange<int>(0, 3) == 0) {
      Expr d = cx.le(build(term(1)), build(term(1)));
      c = in.ConsumeBool() ? cx.logicalAnd(c, d) : cx.logicalOr(c, cx.logicalNot(d));
    }
    return c;
  }

  void decide() {
    int n = in.ConsumeIntegralInRange<int>(0, 4);
    for (int i = 0; i < n; ++i) {
      int k = in.ConsumeIntegralInRange<int>(0, 3);
      try {
        if (k == Decision::EvaluateInt) {
          Expr e = build(term(2));
          if (e->isConst()) continue;
          int64_t v = evaluateInt(SymInt(e));
          decisions.push_back({Decision::EvaluateInt, e, v, "evaluateInt(" + e->toString() + ")"});
          continue;
        }
        Expr c = condition();
        if (c->kind == ExprKind::BoolConst) continue;
        std::string text = c->toString();
        if (k == Decision::Evaluate) {
          decisions.push_back(
              {Decision::Evaluate, c, evaluate(SymBool(c)), "evaluate(" + text + ")"});
        } else if (k == Decision::StaticallyKnown) {
          if (auto v = staticallyKnown(SymBool(c)))
            decisions.push_back(
                {Decision::StaticallyKnown, c, *v, "staticallyKnown(" + text + ")"});
        } else if (!c->hasUnbacked) {  // require on unbacked adds facts: not checked here
          require(SymBool(c), ErrorKind::ValueError, "fuzz require");
          decisions.push_back({Decision::Require, c, 1, "require(" + text + ")"});
        }
      } catch (const UserError& e) {
        // DataDependentError on unbacked, a false require, overflow: answers, not bugs.
        log += "decision raised " + std::string(errorKindName(e.kind())) + ": " + e.what() + "\n";
      }
    }
  }

  RawFloat floatTerm(int depth) {
    static const double consts[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 0.9, 1e-8, 1e300, -3.25};
    static const FloatOp unaries[] = {FloatOp::Neg, FloatOp::Sqrt, FloatOp::Exp, FloatOp::Log,
                                      FloatOp::Abs, FloatOp::Sin, FloatOp::Cos, FloatOp::Tanh};
    static const FloatOp binaries[] = {FloatOp::Add, FloatOp::Sub, FloatOp::Mul, FloatOp::Div,
                                       FloatOp::Pow, FloatOp::Min, FloatOp::Max};
    RawFloat f;
    int k = in.ConsumeIntegralInRange<int>(0, depth > 0 ? 5 : 2);
    if (k == 0) {
      f.value = consts[in.ConsumeIntegralInRange<size_t>(0, std::size(consts) - 1)];
    } else if (k == 1) {
      f.op = FloatOp::OfInt;
      f.term = in.ConsumeIntegralInRange<size_t>(0, terms.size() - 1);
    } else if (k == 2) {
      f.op = FloatOp::Input;
      f.input = in.ConsumeIntegralInRange<uint32_t>(0, floatHints.size() - 1);
    } else if (k == 3) {
      f.op = unaries[in.ConsumeIntegralInRange<size_t>(0, std::size(unaries) - 1)];
      f.args.push_back(floatTerm(depth - 1));
    } else {
      f.op = binaries[in.ConsumeIntegralInRange<size_t>(0, std::size(binaries) - 1)];
      f.args.push_back(floatTerm(depth - 1));
      f.args.push_back(floatTerm(depth - 1));
    }
    return f;
  }
  /// What the tracer does with the tree: SymFloat arithmetic (folding, identities, hints).
  SymFloat buildFloat(const RawFloat& f, const std::vector<SymFloat>& inputs) {
    switch (f.op) {
      case FloatOp::Const:
        return SymFloat(f.value);
      case FloatOp::OfInt:
        return SymFloat::ofInt(canon[f.term] ? SymInt(canon[f.term]) : SymInt(0));
      case FloatOp::Input:
        return inputs[f.input];
      default:
        break;
    }
    SymFloat a = buildFloat(f.args[0], inputs);
    if (f.args.size() == 1) return unary(f.op, a);
    return binary(f.op, a, buildFloat(f.args[1], inputs));
  }
  void makeFloats() {
    int n = in.ConsumeIntegralInRange<int>(0, 3);
    if (n == 0) return;
    std::vector<SymFloat> inputs;
    int numInputs = in.ConsumeIntegralInRange<int>(1, 2);
    for (int i = 0; i < numInputs; ++i) {
      static const double hints[] = {0.001, 0.9, 0.999, -2.5, 0.0, 3.0, 1e-30};
      double h = hints[in.ConsumeIntegralInRange<size_t>(0, std::size(hints) - 1)];
      floatHints.push_back(h);
      inputs.push_back(env.createFloatInput("f" + std::to_string(i), h));
    }
    for (int i = 0; i < n; ++i) {
      RawFloat f = floatTerm(in.ConsumeIntegralInRange<int>(1, 3));
      // A term whose canonical form overflowed has no integer leaf to give: skip the tree.
      bool usable = true;
      std::function<void(const RawFloat&)> scan = [&](const RawFloat& r) {
        if (r.op == FloatOp::OfInt && !canon[r.term]) usable = false;
        for (const RawFloat& a : r.args) scan(a);
      };
      scan(f);
      if (!usable) continue;
      FloatExpr built;
      try {
        built = buildFloat(f, inputs).expr();
      } catch (const UserError& e) {
        // Raised at the hints while building, as eager code raises: the reference must too.
        built = nullptr;
        log += "float " + std::to_string(floats.size()) + " raised " +
               std::string(errorKindName(e.kind())) + " while built\n";
      }
      std::optional<double> value;
      if (built && built->hint && in.ConsumeIntegralInRange<int>(0, 3) == 0) {
        try {
          value = evaluateFloat(SymFloat(built));
        } catch (const UserError& e) {
          fail(std::string("evaluateFloat raised ") + e.what());
        }
      }
      rawFloats.push_back(std::move(f));
      floats.push_back(built);
      specialized.push_back(value);
    }
  }

  [[noreturn]] void fail(const std::string& what) {
    std::string s = "fuzz_shapes: " + what + "\n-- sources\n" + log + "-- terms\n";
    for (size_t i = 0; i < terms.size(); ++i)
      s += "t" + std::to_string(i) + " = " + rawText(terms[i]) + "  canonical " +
           (canon[i] ? canon[i]->toString() : "?") + "\n";
    s += "-- guards\n";
    for (const Guard& g : env.guards()) s += "  " + g.text + " [" + guardKindName(g.kind) + "]\n";
    for (const Decision& d : decisions)
      s += "  " + d.text + " -> " + std::to_string(d.outcome) + "\n";
    fputs(s.c_str(), stderr);
    abort();
  }

  std::string point(const std::vector<int64_t>& in, const std::vector<int64_t>& syms) {
    std::string s = "inputs [";
    for (size_t i = 0; i < in.size(); ++i) s += (i ? ", " : "") + std::to_string(in[i]);
    s += "] symbols [";
    for (size_t i = 0; i < syms.size(); ++i) s += (i ? ", " : "") + std::to_string(syms[i]);
    return s + "]";
  }
};

bool linear(Expr e) {
  if (e->kind == ExprKind::Mul) return false;
  if ((e->kind == ExprKind::FloorDiv || e->kind == ExprKind::Mod) && !e->args[1]->isConst())
    return false;
  for (Expr a : e->args)
    if (!linear(a)) return false;
  return true;
}

// Directly: does the guard hold for these inputs (nullopt: overflow, skip).
std::optional<bool> holds(const Guard& g, const ShapeEnv& env, const std::vector<int64_t>& in,
                          const std::vector<int64_t>& syms) {
  if (g.kind == GuardKind::Static) return in[g.slot] == env.sources()[g.slot].hint;
  if (g.kind == GuardKind::Duck) return in[g.slot] == in[g.slot2];
  Ref r;
  i128 v = r.expr(g.expr, syms);
  if (r.big) return std::nullopt;
  return v != 0;
}

int64_t sample(FuzzedDataProvider& in, int64_t hint, const ValueRange& range, bool isSize) {
  int64_t lo = range.lo == ValueRange::kNegInf ? -(int64_t{1} << 40) : range.lo;
  int64_t hi = range.hi == ValueRange::kPosInf ? int64_t{1} << 40 : range.hi;
  int64_t v = hint;
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      break;
    case 1:
      v = hint + in.ConsumeIntegralInRange<int>(-3, 3);
      break;
    case 2:
      v = lo + in.ConsumeIntegralInRange<int>(-1, 1);
      break;
    case 3:
      v = hi + in.ConsumeIntegralInRange<int>(-1, 1);
      break;
    case 4:
      v = in.ConsumeIntegralInRange<int64_t>(-64, 64);
      break;
    case 5:
      v = in.ConsumeIntegralInRange<int64_t>(lo, hi);
      break;
    case 6:
      v = hint * in.ConsumeIntegralInRange<int>(0, 4);
      break;
    default:
      v = in.ConsumeIntegralInRange<int64_t>(-(int64_t{1} << 62), int64_t{1} << 62);
      break;
  }
  return isSize && v < 0 ? -v : v;  // sizes are never negative at a call
}

constexpr uint32_t kRlimit = 100'000;

// FUZZ_VERBOSE=1 prints each step with its time (to see what a slow input spends it on).
void step(const Case& c, const std::string& what) {
  static const bool verbose = getenv("FUZZ_VERBOSE") != nullptr;
  static auto t0 = std::chrono::steady_clock::now();
  if (!verbose) return;
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  fprintf(stderr, "[%6lld ms] %s\n", static_cast<long long>(ms), what.c_str());
  if (what == "terms") fputs(c.log.c_str(), stderr);
}

void run(FuzzedDataProvider& in) {
  ShapeEnvConfig cfg;
  uint8_t flags = in.ConsumeIntegral<uint8_t>();
  cfg.duck_shape = flags & 1;
  cfg.specialize_zero_one = !(flags & 2);
  cfg.backed_size_oblivious = (flags & 12) == 12;
  cfg.prune_guards = !(flags & 16);
  cfg.solver_rlimit = (flags & 96) == 96 ? 0 : kRlimit;
  Case c(in, cfg);
  ShapeEnv& env = c.env;
  ExprContext& cx = env.ctx();
  try {
    c.makeSources();
  } catch (const UserError&) {
    return;  // a hint outside its user range: rejected, as mark_dynamic would be
  }
  int numTerms = in.ConsumeIntegralInRange<int>(1, 3);
  for (int i = 0; i < numTerms; ++i) {
    c.terms.push_back(c.term(in.ConsumeIntegralInRange<int>(1, 4)));
    try {
      c.canon.push_back(c.build(c.terms.back()));
    } catch (const UserError& e) {
      if (e.kind() != ErrorKind::OverflowError) c.fail(std::string("building raised ") + e.what());
      c.canon.push_back(nullptr);  // constants overflowed while folding: documented
    }
  }
  step(c, "terms");
  for (size_t i = 0; i < c.terms.size(); ++i)
    step(c, "t" + std::to_string(i) + " = " + rawText(c.terms[i]));
  c.decide();
  c.makeFloats();
  step(c, "decisions");
  step(c, std::to_string(c.floats.size()) + " float expressions");
  for (const Decision& d : c.decisions) step(c, d.text);

  // Hints satisfy every guard, so each decision must agree with direct evaluation at them.
  std::vector<int64_t> hints, hintSyms(env.numSymbols(), 0);
  for (const Source& s : env.sources()) hints.push_back(s.hint);
  for (uint32_t s = 0; s < env.numSymbols(); ++s)
    if (env.symbol(s).hint) hintSyms[s] = *env.symbol(s).hint;

  // Per term: the range-simplified form, bounds and (for the first) the maximum.
  std::vector<Expr> simplified(c.terms.size(), nullptr);
  std::vector<ValueRange> bounds(c.terms.size());
  std::optional<int64_t> maxOfFirst;
  for (size_t i = 0; i < c.terms.size(); ++i) {
    if (!c.canon[i]) continue;
    try {
      SymInt s = env.simplify(SymInt(c.canon[i]));
      simplified[i] = s.isConstant() ? cx.constant(s.constant()) : s.expr();
      bounds[i] = env.bounds(SymInt(c.canon[i]));
      // A nonlinear maximum is a binary search of fresh solvers (up to 63 of them): rarely.
      if (i == 0 && (linear(c.canon[i]) || (flags & 128)))
        maxOfFirst = env.maxValue(SymInt(c.canon[i]));
    } catch (const UserError& e) {
      if (e.kind() != ErrorKind::OverflowError) c.fail(std::string("simplify raised ") + e.what());
      c.canon[i] = nullptr;
    }
  }

  step(c, "simplified");
  GuardProgram program = env.compileGuards();
  step(c, "guards compiled");
  const std::vector<Guard>& guards = env.guards();

  // (e) at the hints: a tree that raised while built raises in the reference, and a node's
  // hint is the reference's value.
  for (size_t f = 0; f < c.floats.size(); ++f) {
    std::vector<int64_t> hintVars;
    bool backed = true;
    for (const SymInt& v : c.vars) {
      if (!v.isConstant() && env.symbol(v.expr()->value).unbacked) backed = false;
      hintVars.push_back(v.isConstant() ? v.constant() : hintSyms[v.expr()->value]);
    }
    if (!backed) continue;
    FloatResult want = refFloat(c.rawFloats[f], c.terms, hintVars, c.floatHints);
    if (want.skip) continue;
    const std::string name = "float " + std::to_string(f);
    if (!c.floats[f]) {
      if (!want.error) c.fail(name + " raised while built; directly it is " + floatText(want.v));
      continue;
    }
    if (want.error)
      c.fail(name + " = " + SymFloat(c.floats[f]).toString() +
             " built without the error its hints raise directly");
    if (!c.floats[f]->hint || !sameFloat(*c.floats[f]->hint, want.v))
      c.fail(name + " = " + SymFloat(c.floats[f]).toString() + ": hint " +
             (c.floats[f]->hint ? floatText(*c.floats[f]->hint) : "none") + ", directly " +
             floatText(want.v));
  }

  int samples = in.ConsumeIntegralInRange<int>(4, 24);
  for (int k = 0; k < samples; ++k) {
    std::vector<int64_t> inputs = hints, syms = hintSyms;
    if (k > 0) {
      for (size_t s = 0; s < inputs.size(); ++s) {
        const Source& src = env.sources()[s];
        bool isSize = !src.symbol || env.symbol(src.symbol->value).isSize;
        ValueRange r = src.symbol ? env.symbol(src.symbol->value).initialRange : ValueRange{};
        inputs[s] = sample(in, src.hint, r, isSize);
      }
    }
    for (uint32_t s = 0; s < env.numSymbols(); ++s) {  // unbacked: any value in its range
      const SymbolInfo& info = env.symbol(s);
      if (!info.unbacked) {
        syms[s] = inputs[info.slot];
        continue;
      }
      const ValueRange& r = info.initialRange;
      int64_t v = k > 0 ? sample(in, 0, r, false) : 0;
      syms[s] = v < r.lo ? r.lo : v > r.hi ? r.hi : v;
    }
    std::vector<int64_t> varVals;
    for (const SymInt& v : c.vars)
      varVals.push_back(v.isConstant() ? v.constant() : syms[v.expr()->value]);

    // (a) the canonical form is the term, at any point.
    for (size_t i = 0; i < c.terms.size(); ++i) {
      if (!c.canon[i]) continue;
      Ref r;
      i128 want = r.raw(c.terms[i], varVals), got = r.expr(c.canon[i], syms);
      if (r.big) continue;
      if (want != got)
        c.fail("canonical form of t" + std::to_string(i) + " gives " + str(got) + ", the term " +
               str(want) + " at " + c.point(inputs, syms));
      auto fast = cx.evalInt(c.canon[i], syms);
      if (!fast || *fast != want)
        c.fail("ExprContext::evalInt of t" + std::to_string(i) + " disagrees at " +
               c.point(inputs, syms));
    }

    // (d) the guard program against direct evaluation of every recorded guard.
    bool valid = true, skip = false;
    for (const Guard& g : guards) {
      auto h = holds(g, env, inputs, syms);
      if (!h)
        skip = true;
      else
        valid &= *h;
    }
    if (skip) continue;
    if (k == 0 && !valid) c.fail("a guard fails at the hints");
    int failed = program.check(inputs);
    if ((failed < 0) != valid)
      c.fail(std::string("guard program ") + (failed < 0 ? "passes" : "fails") +
             " but the guards " + (valid ? "hold" : "do not hold") + " at " +
             c.point(inputs, syms) +
             (failed >= 0 ? " (" + program.failureReason(failed, inputs) + ")" : "") +
             "\n-- program guards\n" + [&] {
               std::string s;
               for (const Guard& g : program.guards()) s += "  " + g.text + "\n";
               return s;
             }());
    if (!valid) continue;

    // (b) at a point the guards allow: ranges, simplify, bounds, maxValue and decisions.
    for (uint32_t s = 0; s < env.numSymbols(); ++s)
      if (!env.symbol(s).range.contains(syms[s]))
        c.fail(env.symbol(s).name + " = " + std::to_string(syms[s]) + " is outside its range " +
               env.symbol(s).range.toString() + " at " + c.point(inputs, syms));
    for (size_t i = 0; i < c.terms.size(); ++i) {
      if (!c.canon[i]) continue;
      Ref r;
      i128 want = r.expr(c.canon[i], syms), simp = r.expr(simplified[i], syms);
      if (r.big) continue;
      std::string t = "t" + std::to_string(i);
      if (simp != want)
        c.fail("simplify(" + t + ") = " + simplified[i]->toString() + " gives " + str(simp) +
               ", not " + str(want) + ", at " + c.point(inputs, syms));
      if (want < bounds[i].lo || want > bounds[i].hi)
        c.fail("bounds(" + t + ") = " + bounds[i].toString() + " misses " + str(want) + " at " +
               c.point(inputs, syms));
      if (i == 0 && maxOfFirst && want > *maxOfFirst)
        c.fail("maxValue(t0) = " + std::to_string(*maxOfFirst) + " but t0 = " + str(want) + " at " +
               c.point(inputs, syms));
    }
    for (const Decision& d : c.decisions) {
      Ref r;
      i128 v = r.expr(d.expr, syms);
      if (r.big) continue;
      if (v != d.outcome)
        c.fail(d.text + " answered " + std::to_string(d.outcome) + " but is " + str(v) + " at " +
               c.point(inputs, syms));
    }
    // (e) evalFloat at this point against the reference, float inputs sampled as well; a
    // specialized float keeps its value at the float inputs' hints.
    std::vector<double> floatVals = c.floatHints;
    for (double& v : floatVals)
      if (in.ConsumeBool()) v = in.ConsumeFloatingPointInRange<double>(-4.0, 4.0);
    auto intValue = [&](const SymInt& i) -> int64_t {
      if (i.isConstant()) return i.constant();
      auto v = cx.evalInt(i.expr(), syms);
      if (!v) throwUserError(ErrorKind::OverflowError, "overflow");
      return *v;
    };
    for (size_t f = 0; f < c.floats.size(); ++f) {
      if (!c.floats[f]) continue;
      for (int atHints = 0; atHints < 2; ++atHints) {
        if (atHints && !c.specialized[f]) continue;
        std::span<const double> fin = atHints ? c.floatHints : floatVals;
        FloatResult want = refFloat(c.rawFloats[f], c.terms, varVals, fin);
        if (want.skip) continue;
        FloatResult got;
        try {
          got.v = evalFloat(c.floats[f], intValue, fin);
        } catch (const UserError& e) {
          if (e.kind() == ErrorKind::OverflowError) continue;
          got.error = e.kind();
        }
        const std::string name = "float " + std::to_string(f) + " = " +
                                 SymFloat(c.floats[f]).toString() + " at " +
                                 c.point(inputs, syms);
        if (got.error != want.error || (!got.error && !sameFloat(got.v, want.v)))
          c.fail(name + ": evalFloat " +
                 (got.error ? std::string(errorKindName(*got.error)) : floatText(got.v)) + ", directly " +
                 (want.error ? std::string(errorKindName(*want.error)) : floatText(want.v)));
        if (atHints && !got.error && !sameFloat(got.v, *c.specialized[f]))
          c.fail(name + ": specialized to " + floatText(*c.specialized[f]) +
                 " but the guards hold and it is " + floatText(got.v));
      }
    }
  }

  step(c, "points checked");
  // (c) Z3, on the first term only: each check is a fresh solver, up to its whole rlimit, and
  // these checks are most of the target's time.
  if (cfg.solver_rlimit == 0 || !c.canon[0] || c.canon[0]->syms.empty()) return;
  Expr t0 = c.canon[0];
  if (checkRuleWithZ3(c.overSymbols(c.terms[0]), kRlimit) == RuleCheck::NotEquivalent)
    c.fail("Z3: the canonical form of t0 differs from the term");
  SolverQuery q;
  for (const Guard& g : guards)
    if (g.expr) q.hard.push_back(g.expr);
  // Within +-2^62 like the sampled points: ValueRange reads INT64_MIN/MAX as infinities.
  for (uint32_t s = 0; s < env.numSymbols(); ++s)
    q.ranges.push_back(
        env.symbol(s).initialRange.intersect({-(int64_t{1} << 62), int64_t{1} << 62}));
  size_t base = q.hard.size();
  try {
    q.hard.push_back(cx.ne(t0, simplified[0]));
    if (env.solver().check(q).answer == SolverAnswer::Sat)
      c.fail("Z3: simplify(t0) = " + simplified[0]->toString() + " differs under the guards");
    q.hard.resize(base);
    Expr out = cx.boolConst(false);
    if (bounds[0].lo != ValueRange::kNegInf)
      out = cx.logicalOr(out, cx.lt(t0, cx.constant(bounds[0].lo)));
    if (bounds[0].hi != ValueRange::kPosInf)
      out = cx.logicalOr(out, cx.lt(cx.constant(bounds[0].hi), t0));
    q.hard.push_back(out);
    if (env.solver().check(q).answer == SolverAnswer::Sat)
      c.fail("Z3: t0 leaves bounds " + bounds[0].toString() + " under the guards");
  } catch (const UserError& e) {
    if (e.kind() != ErrorKind::OverflowError) c.fail(std::string("Z3 check raised ") + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  run(in);
  return 0;
}
