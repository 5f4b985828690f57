// Printing expressions the way users read them: "2*s0 + 1", "s0 <= 30", "s0 >= 2".
#include "shapes/expr_print.h"

#include <functional>
#include <string>

#include "shapes/expr.h"

namespace tessel::shapes {

namespace {

struct Printer {
  const SymbolNamer& name;

  std::string atom(Expr e) {
    std::string s = print(e);
    bool simple = e->kind == ExprKind::Sym || e->kind == ExprKind::Const ||
                  e->kind == ExprKind::Min || e->kind == ExprKind::Max;
    if (e->kind == ExprKind::Const && e->value < 0) simple = false;
    return simple ? s : "(" + s + ")";
  }

  std::string monomial(Expr m) {
    if (m->kind != ExprKind::Mul) return m->kind == ExprKind::Add ? "(" + print(m) + ")" : atom(m);
    std::string s;
    for (size_t i = 0; i < m->args.size();) {
      size_t j = i;
      while (j < m->args.size() && m->args[j] == m->args[i]) ++j;
      if (!s.empty()) s += "*";
      s += atom(m->args[i]);
      if (j - i > 1) s += "**" + std::to_string(j - i);
      i = j;
    }
    return s;
  }

  // Sum of terms with signs: "2*s0 - s1 + 3". negate flips every sign.
  std::string sum(Expr e, bool negate, int64_t extraConst = 0, bool dropConst = false) {
    ExprContext::Poly p = e->ctx->toPoly(e);
    std::string s;
    auto emit = [&](int64_t k, const std::string& body) {
      if (negate) k = -k;
      if (k == 0) return;
      bool neg = k < 0;
      // |k| unsigned: -INT64_MIN overflows.
      uint64_t mag = neg ? 0 - static_cast<uint64_t>(k) : static_cast<uint64_t>(k);
      std::string t =
          body.empty() ? std::to_string(mag) : (mag == 1 ? body : std::to_string(mag) + "*" + body);
      if (s.empty())
        s = neg ? "-" + t : t;
      else
        s += neg ? " - " + t : " + " + t;
    };
    for (auto& [m, k] : p.terms) {
      bool bare = m->kind == ExprKind::FloorDiv || m->kind == ExprKind::Mod;
      bool unit = k == 1 || k == -1;
      emit(k, bare && unit ? print(m) : monomial(m));
    }
    if (!dropConst) emit(p.c + extraConst, "");
    return s.empty() ? "0" : s;
  }

  // p <= 0 / p == 0 / p != 0 written as "lhs op rhs" with positive terms on the left.
  std::string cmp(Expr e) {
    Expr p = e->args[0];
    ExprContext::Poly poly = p->ctx->toPoly(p);
    bool anyPos = false, anyNeg = false;
    for (auto& t : poly.terms) (t.second > 0 ? anyPos : anyNeg) = true;
    std::string op = e->kind == ExprKind::Le ? "<=" : e->kind == ExprKind::Eq ? "==" : "!=";
    // Moving a term of INT64_MIN across would negate it, which int64 cannot hold.
    bool movable = poly.c != INT64_MIN;
    for (auto& t : poly.terms) movable &= t.second != INT64_MIN;
    if (!movable) return sum(p, false) + " " + op + " 0";
    ExprContext::Poly pos, negs;
    for (auto& t : poly.terms) (t.second > 0 ? pos : negs).terms.push_back(t);
    auto polyText = [&](ExprContext::Poly q, bool flip) {
      if (flip) {
        q.c = -q.c;
        for (auto& t : q.terms) t.second = -t.second;
      }
      return sum(p->ctx->fromPoly(q), false);
    };
    if (!anyPos && e->kind == ExprKind::Le) {  // -P + c <= 0  ->  P >= c
      ExprContext::Poly rhs;
      rhs.c = poly.c;
      return polyText(negs, true) + " >= " + polyText(rhs, false);
    }
    // P + c op N   ->   P op N - c ; "P + 1 <= N" reads better as "P < N".
    ExprContext::Poly rhs = negs;
    for (auto& t : rhs.terms) t.second = -t.second;
    if (e->kind == ExprKind::Le && poly.c == 1 && anyNeg) {
      return polyText(pos, false) + " < " + polyText(rhs, false);
    }
    rhs.c = -poly.c;
    return polyText(pos, false) + " " + op + " " + polyText(rhs, false);
  }

  std::string print(Expr e) {
    switch (e->kind) {
      case ExprKind::Const:
        return std::to_string(e->value);
      case ExprKind::BoolConst:
        return e->value ? "true" : "false";
      case ExprKind::Sym:
        return name(static_cast<uint32_t>(e->value));
      case ExprKind::Add:
        return sum(e, false);
      case ExprKind::Mul:
        return monomial(e);
      case ExprKind::FloorDiv:
        return atom(e->args[0]) + "//" + atom(e->args[1]);
      case ExprKind::Mod:
        return atom(e->args[0]) + " % " + atom(e->args[1]);
      case ExprKind::Min:
      case ExprKind::Max: {
        std::string s = e->kind == ExprKind::Min ? "min(" : "max(";
        for (size_t i = 0; i < e->args.size(); ++i) s += (i ? ", " : "") + print(e->args[i]);
        return s + ")";
      }
      case ExprKind::Le:
      case ExprKind::Eq:
      case ExprKind::Ne:
        return cmp(e);
      case ExprKind::And:
      case ExprKind::Or: {
        std::string s, sep = e->kind == ExprKind::And ? " and " : " or ";
        for (size_t i = 0; i < e->args.size(); ++i) {
          bool paren = e->args[i]->kind == ExprKind::And || e->args[i]->kind == ExprKind::Or;
          std::string t = print(e->args[i]);
          s += (i ? sep : "") + (paren ? "(" + t + ")" : t);
        }
        return s;
      }
    }
    return "?";
  }
};

}  // namespace

std::string exprToString(Expr e, const SymbolNamer& name) {
  return Printer{name}.print(e);
}

std::string ExprNode::toString() const {
  const ExprContext* cx = ctx;
  SymbolNamer n = [cx](uint32_t s) { return cx->symbols()[s].name; };
  return exprToString(this, n);
}

}  // namespace tessel::shapes
