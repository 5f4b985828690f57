// Hash-consing and the canonicalizing constructors of ExprContext (Note [Canonical form]).
#include "shapes/expr.h"

#include <algorithm>
#include <deque>
#include <numeric>
#include <unordered_set>

#include "shapes/simplify_rules.h"

namespace tessel::shapes {

const char* exprKindName(ExprKind k) {
  switch (k) {
#define TESSEL_X(x) \
  case ExprKind::x: \
    return #x;
    TESSEL_SYM_EXPR_KINDS(TESSEL_X)
#undef TESSEL_X
  }
  return "?";
}

int64_t floorDivInt(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return a == INT64_MIN ? INT64_MIN : -a;  // saturate the one overflow case
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t modInt(int64_t a, int64_t b) {
  if (b == 0) return a;
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

namespace {

int64_t checked(bool overflow, int64_t v) {
  if (overflow) throwUserError(ErrorKind::OverflowError, "integer overflow in size arithmetic");
  return v;
}
int64_t addC(int64_t a, int64_t b) {
  int64_t r;
  bool ov = __builtin_add_overflow(a, b, &r);
  return checked(ov, r);
}
int64_t mulC(int64_t a, int64_t b) {
  int64_t r;
  bool ov = __builtin_mul_overflow(a, b, &r);
  return checked(ov, r);
}
int64_t negC(int64_t a) {
  return mulC(a, -1);
}
// |v| without overflow: |INT64_MIN| is 2^63.
uint64_t magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

struct NodeHash {
  size_t operator()(const ExprNode* n) const { return n->hash; }
};
struct NodeEq {
  bool operator()(const ExprNode* a, const ExprNode* b) const {
    return a->kind == b->kind && a->value == b->value && a->args == b->args &&
           a->coeffs == b->coeffs;
  }
};

size_t hashOf(const ExprNode& n) {
  size_t h = std::hash<int64_t>()(n.value) * 31 + static_cast<size_t>(n.kind);
  for (Expr a : n.args) h = h * 1000003u ^ a->id;
  for (int64_t c : n.coeffs) h = h * 1000003u ^ std::hash<int64_t>()(c);
  return h;
}

bool byId(Expr a, Expr b) {
  return a->id < b->id;
}

}  // namespace

struct ExprContext::Impl {
  std::deque<ExprNode> nodes;
  std::unordered_set<ExprNode*, NodeHash, NodeEq> table;
  Expr trueNode = nullptr, falseNode = nullptr;
};

ExprContext::ExprContext(ShapeEnv* env) : impl_(std::make_unique<Impl>()), env_(env) {
  ruleHits_.assign(simplifyRules().size(), 0);
  impl_->falseNode = boolConst(false);
  impl_->trueNode = boolConst(true);
}
ExprContext::~ExprContext() = default;
size_t ExprContext::numNodes() const {
  return impl_->nodes.size();
}

bool ExprNode::isLinear() const {
  if (kind == ExprKind::Mul) return false;
  if (kind != ExprKind::Add) return true;
  for (Expr a : args)
    if (a->kind == ExprKind::Mul) return false;
  return true;
}

// The value of a non-symbol node from its operands' values, with the semantics the guard
// program and Z3 encoding share (floor //, Python %). nullopt on 64-bit overflow. Used both to
// derive a node's hint and to evaluate an expression under concrete symbol values.
static std::optional<int64_t> applyKind(ExprKind kind, int64_t value,
                                        std::span<const int64_t> coeffs,
                                        std::span<const int64_t> v) {
  int64_t r = 0;
  bool ov = false;
  switch (kind) {
    case ExprKind::Const:
    case ExprKind::BoolConst:
      r = value;
      break;
    case ExprKind::Add:
      r = value;
      for (size_t i = 0; i < v.size(); ++i) {
        int64_t t;
        ov |= __builtin_mul_overflow(v[i], coeffs[i], &t);
        ov |= __builtin_add_overflow(r, t, &r);
      }
      break;
    case ExprKind::Mul:
      r = 1;
      for (int64_t x : v) ov |= __builtin_mul_overflow(r, x, &r);
      break;
    case ExprKind::FloorDiv:
      r = floorDivInt(v[0], v[1]);
      break;
    case ExprKind::Mod:
      r = modInt(v[0], v[1]);
      break;
    case ExprKind::Min:
      r = *std::min_element(v.begin(), v.end());
      break;
    case ExprKind::Max:
      r = *std::max_element(v.begin(), v.end());
      break;
    case ExprKind::Le:
      r = v[0] <= 0;
      break;
    case ExprKind::Eq:
      r = v[0] == 0;
      break;
    case ExprKind::Ne:
      r = v[0] != 0;
      break;
    case ExprKind::And:
      r = std::all_of(v.begin(), v.end(), [](int64_t x) { return x; });
      break;
    case ExprKind::Or:
      r = std::any_of(v.begin(), v.end(), [](int64_t x) { return x; });
      break;
    case ExprKind::Sym:
      break;
  }
  if (ov) return std::nullopt;
  return r;
}

// Computes hint / free symbols of a fresh node from its operands.
static void deriveFacts(ExprNode& n, const std::vector<SymbolDesc>& syms) {
  n.isBool = n.kind >= ExprKind::BoolConst;
  n.hasUnbacked = false;
  n.hasHint = true;
  if (n.kind == ExprKind::Sym) {
    n.syms = {static_cast<uint32_t>(n.value)};
    const auto& d = syms[n.value];
    n.hasHint = d.hint.has_value();
    n.hasUnbacked = !n.hasHint;
    n.hint = d.hint.value_or(0);
    return;
  }
  for (Expr a : n.args) {
    n.hasHint &= a->hasHint;
    n.hasUnbacked |= a->hasUnbacked;
    std::vector<uint32_t> merged;
    std::set_union(n.syms.begin(), n.syms.end(), a->syms.begin(), a->syms.end(),
                   std::back_inserter(merged));
    n.syms = std::move(merged);
  }
  if (!n.hasHint) return;
  std::vector<int64_t> vals;
  for (Expr a : n.args) vals.push_back(a->hint);
  std::optional<int64_t> r = applyKind(n.kind, n.value, n.coeffs, vals);
  n.hasHint = r.has_value();
  n.hint = r.value_or(0);
}

Expr ExprContext::intern(ExprNode&& proto) {
  proto.ctx = this;
  proto.hash = hashOf(proto);
  auto it = impl_->table.find(&proto);
  if (it != impl_->table.end()) return *it;
  proto.id = nextId_++;
  deriveFacts(proto, symbols_);
  ExprNode& n = impl_->nodes.emplace_back(std::move(proto));
  impl_->table.insert(&n);
  return &n;
}

static ExprNode proto(ExprKind k, int64_t value = 0, std::vector<Expr> args = {},
                      std::vector<int64_t> coeffs = {}) {
  ExprNode n{};
  n.kind = k;
  n.value = value;
  n.args = std::move(args);
  n.coeffs = std::move(coeffs);
  return n;
}

Expr ExprContext::constant(int64_t v) {
  return intern(proto(ExprKind::Const, v));
}
Expr ExprContext::boolConst(bool v) {
  if (impl_->trueNode && v) return impl_->trueNode;
  if (impl_->falseNode && !v) return impl_->falseNode;
  return intern(proto(ExprKind::BoolConst, v ? 1 : 0));
}

Expr ExprContext::newSymbol(std::string name, std::optional<int64_t> hint) {
  int64_t index = static_cast<int64_t>(symbols_.size());
  symbols_.push_back({std::move(name), hint});
  Expr e = intern(proto(ExprKind::Sym, index));
  symNodes_.push_back(e);
  return e;
}

// ---- polynomials ------------------------------------------------------------------------------

ExprContext::Poly ExprContext::toPoly(Expr e) {
  TESSEL_ASSERT(!e->isBool, "integer expression expected");
  Poly p;
  if (e->kind == ExprKind::Const) {
    p.c = e->value;
  } else if (e->kind == ExprKind::Add) {
    p.c = e->value;
    for (size_t i = 0; i < e->args.size(); ++i) p.terms.push_back({e->args[i], e->coeffs[i]});
  } else {
    p.terms.push_back({e, 1});
  }
  return p;
}

Expr ExprContext::fromPoly(const Poly& p) {
  if (p.terms.empty()) return constant(p.c);
  if (p.c == 0 && p.terms.size() == 1 && p.terms[0].second == 1) return p.terms[0].first;
  ExprNode n = proto(ExprKind::Add, p.c);
  for (auto& [m, k] : p.terms) {
    n.args.push_back(m);
    n.coeffs.push_back(k);
  }
  return intern(std::move(n));
}

static ExprContext::Poly polyAdd(const ExprContext::Poly& a, const ExprContext::Poly& b,
                                 int64_t kb = 1) {
  ExprContext::Poly r;
  r.c = addC(a.c, mulC(b.c, kb));
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    if (j == b.terms.size() ||
        (i < a.terms.size() && a.terms[i].first->id < b.terms[j].first->id)) {
      r.terms.push_back(a.terms[i++]);
    } else if (i == a.terms.size() || b.terms[j].first->id < a.terms[i].first->id) {
      r.terms.push_back({b.terms[j].first, mulC(b.terms[j].second, kb)});
      ++j;
    } else {
      int64_t k = addC(a.terms[i].second, mulC(b.terms[j].second, kb));
      if (k != 0) r.terms.push_back({a.terms[i].first, k});
      ++i, ++j;
    }
  }
  return r;
}

Expr ExprContext::add(Expr a, Expr b) {
  if (a->isConst() && b->isConst()) return constant(addC(a->value, b->value));
  return fromPoly(polyAdd(toPoly(a), toPoly(b)));
}
Expr ExprContext::sub(Expr a, Expr b) {
  if (a->isConst() && b->isConst()) {
    int64_t r;
    bool ov = __builtin_sub_overflow(a->value, b->value, &r);
    return constant(checked(ov, r));
  }
  return fromPoly(polyAdd(toPoly(a), toPoly(b), -1));
}
Expr ExprContext::neg(Expr a) {
  return scale(a, -1);
}
Expr ExprContext::scale(Expr a, int64_t k) {
  if (k == 0) return constant(0);
  if (k == 1) return a;
  Poly p = toPoly(a);
  p.c = mulC(p.c, k);
  for (auto& t : p.terms) t.second = mulC(t.second, k);
  return fromPoly(p);
}

// The product of two monomials: merged factor lists.
static Expr mulMonomials(ExprContext& cx, Expr a, Expr b) {
  std::vector<Expr> fa = a->kind == ExprKind::Mul ? a->args : std::vector<Expr>{a};
  std::vector<Expr> fb = b->kind == ExprKind::Mul ? b->args : std::vector<Expr>{b};
  std::vector<Expr> f;
  std::merge(fa.begin(), fa.end(), fb.begin(), fb.end(), std::back_inserter(f), byId);
  return cx.intern(proto(ExprKind::Mul, 0, std::move(f)));
}

Expr ExprContext::mul(Expr a, Expr b) {
  if (a->isConst()) return scale(b, a->value);
  if (b->isConst()) return scale(a, b->value);
  Poly pa = toPoly(a), pb = toPoly(b);
  Poly r;
  r.c = mulC(pa.c, pb.c);
  std::vector<std::pair<Expr, int64_t>> terms;
  for (auto& [m, k] : pa.terms) terms.push_back({m, mulC(k, pb.c)});
  for (auto& [m, k] : pb.terms) terms.push_back({m, mulC(k, pa.c)});
  for (auto& [ma, ka] : pa.terms)
    for (auto& [mb, kb] : pb.terms) terms.push_back({mulMonomials(*this, ma, mb), mulC(ka, kb)});
  std::sort(terms.begin(), terms.end(),
            [](const auto& x, const auto& y) { return x.first->id < y.first->id; });
  for (auto& t : terms) {
    if (!r.terms.empty() && r.terms.back().first == t.first) {
      r.terms.back().second = addC(r.terms.back().second, t.second);
      if (r.terms.back().second == 0) r.terms.pop_back();
    } else if (t.second != 0) {
      r.terms.push_back(t);
    }
  }
  return fromPoly(r);
}

Expr ExprContext::floorDiv(Expr a, Expr b) {
  Expr args[] = {a, b};
  if (auto r = applySimplifyRules(*this, ExprKind::FloorDiv, args)) return *r;
  return intern(proto(ExprKind::FloorDiv, 0, {a, b}));
}
Expr ExprContext::mod(Expr a, Expr b) {
  Expr args[] = {a, b};
  if (auto r = applySimplifyRules(*this, ExprKind::Mod, args)) return *r;
  return intern(proto(ExprKind::Mod, 0, {a, b}));
}

static Expr minMax(ExprContext& cx, ExprKind k, Expr a, Expr b) {
  // Flatten nested min/max of the same kind, sort and deduplicate (commutative, idempotent).
  std::vector<Expr> args;
  for (Expr e : {a, b}) {
    if (e->kind == k)
      args.insert(args.end(), e->args.begin(), e->args.end());
    else
      args.push_back(e);
  }
  std::sort(args.begin(), args.end(), byId);
  args.erase(std::unique(args.begin(), args.end()), args.end());
  if (args.size() == 1) return args[0];
  if (auto r = applySimplifyRules(cx, k, args)) return *r;
  return cx.intern(proto(k, 0, std::move(args)));
}
Expr ExprContext::min(Expr a, Expr b) {
  return minMax(*this, ExprKind::Min, a, b);
}
Expr ExprContext::max(Expr a, Expr b) {
  return minMax(*this, ExprKind::Max, a, b);
}

// ---- comparisons and connectives -----------------------------------------------------------

static Expr makeCmp(ExprContext& cx, ExprKind k, ExprContext::Poly p) {
  if (p.terms.empty()) {
    bool v = k == ExprKind::Le ? p.c <= 0 : k == ExprKind::Eq ? p.c == 0 : p.c != 0;
    return cx.boolConst(v);
  }
  // The gcd in unsigned arithmetic (std::gcd of INT64_MIN is undefined). When every
  // coefficient is INT64_MIN it is 2^63, which int64 cannot hold; its divisor 2^62 serves.
  uint64_t ug = 0;
  for (auto& t : p.terms) ug = std::gcd(ug, magnitude(t.second));
  int64_t g = ug > uint64_t{INT64_MAX} ? int64_t{1} << 62 : static_cast<int64_t>(ug);
  if (k != ExprKind::Le && p.c % g != 0) return cx.boolConst(k == ExprKind::Ne);
  if (g > 1) {
    for (auto& t : p.terms) t.second /= g;
    // g*q + c <= 0  <=>  q + ceil(c / g) <= 0 ; equalities divide exactly.
    p.c = k == ExprKind::Le ? floorDivInt(p.c, g) + (modInt(p.c, g) != 0) : p.c / g;
  }
  if (k != ExprKind::Le && p.terms[0].second < 0) {
    p.c = negC(p.c);
    for (auto& t : p.terms) t.second = negC(t.second);
  }
  return cx.intern(proto(k, 0, {cx.fromPoly(p)}));
}

Expr ExprContext::le(Expr a, Expr b) {
  if (a->isConst() && b->isConst()) return boolConst(a->value <= b->value);
  return makeCmp(*this, ExprKind::Le, polyAdd(toPoly(a), toPoly(b), -1));
}
Expr ExprContext::lt(Expr a, Expr b) {
  if (a->isConst() && b->isConst()) return boolConst(a->value < b->value);
  Poly p = polyAdd(toPoly(a), toPoly(b), -1);
  p.c = addC(p.c, 1);
  return makeCmp(*this, ExprKind::Le, p);
}
Expr ExprContext::eq(Expr a, Expr b) {
  if (a == b) return boolConst(true);
  if (a->isBool || b->isBool) {
    TESSEL_ASSERT(a->isBool && b->isBool, "eq: mixed bool and int operands");
    return logicalOr(logicalAnd(a, b), logicalAnd(logicalNot(a), logicalNot(b)));
  }
  return makeCmp(*this, ExprKind::Eq, polyAdd(toPoly(a), toPoly(b), -1));
}
Expr ExprContext::ne(Expr a, Expr b) {
  return logicalNot(eq(a, b));
}

Expr ExprContext::logicalNot(Expr a) {
  TESSEL_ASSERT(a->isBool, "logicalNot of an integer expression");
  switch (a->kind) {
    case ExprKind::BoolConst:
      return boolConst(!a->value);
    case ExprKind::Le: {  // !(p <= 0)  <=>  1 - p <= 0
      Poly p = toPoly(a->args[0]);
      p.c = addC(negC(p.c), 1);
      for (auto& t : p.terms) t.second = negC(t.second);
      return makeCmp(*this, ExprKind::Le, p);
    }
    case ExprKind::Eq:
      return intern(proto(ExprKind::Ne, 0, {a->args[0]}));
    case ExprKind::Ne:
      return intern(proto(ExprKind::Eq, 0, {a->args[0]}));
    case ExprKind::And:
    case ExprKind::Or: {
      Expr r = boolConst(a->kind == ExprKind::And ? false : true);
      for (Expr x : a->args)
        r = a->kind == ExprKind::And ? logicalOr(r, logicalNot(x)) : logicalAnd(r, logicalNot(x));
      return r;
    }
    default:
      TESSEL_ASSERT(false, "logicalNot: not a boolean node");
  }
  return a;
}

static Expr connective(ExprContext& cx, ExprKind k, Expr a, Expr b) {
  TESSEL_ASSERT(a->isBool && b->isBool, "connective of integer expressions");
  bool isAnd = k == ExprKind::And;
  Expr absorbing = cx.boolConst(!isAnd), neutral = cx.boolConst(isAnd);
  std::vector<Expr> args;
  for (Expr e : {a, b}) {
    if (e == absorbing) return absorbing;
    if (e == neutral) continue;
    if (e->kind == k)
      args.insert(args.end(), e->args.begin(), e->args.end());
    else
      args.push_back(e);
  }
  std::sort(args.begin(), args.end(), byId);
  args.erase(std::unique(args.begin(), args.end()), args.end());
  if (args.empty()) return neutral;
  if (args.size() == 1) return args[0];
  // x and not x: only comparisons are checked (their negation is cheap and canonical).
  for (Expr x : args) {
    if (x->kind != ExprKind::Le && x->kind != ExprKind::Eq && x->kind != ExprKind::Ne) continue;
    Expr nx = cx.logicalNot(x);
    if (std::binary_search(args.begin(), args.end(), nx, byId)) return absorbing;
  }
  return cx.intern(proto(k, 0, std::move(args)));
}
Expr ExprContext::logicalAnd(Expr a, Expr b) {
  return connective(*this, ExprKind::And, a, b);
}
Expr ExprContext::logicalOr(Expr a, Expr b) {
  return connective(*this, ExprKind::Or, a, b);
}

std::optional<Expr> ExprContext::divideExact(Expr a, Expr b) {
  Poly pb = toPoly(b);
  if (pb.terms.empty()) {
    if (pb.c == 0) return std::nullopt;
    Poly pa = toPoly(a);
    if (pa.c % pb.c != 0) return std::nullopt;
    for (auto& t : pa.terms)
      if (t.second % pb.c != 0) return std::nullopt;
    pa.c /= pb.c;
    for (auto& t : pa.terms) t.second /= pb.c;
    return fromPoly(pa);
  }
  if (pb.c != 0 || pb.terms.size() != 1) return std::nullopt;
  int64_t k = pb.terms[0].second;
  Expr m = pb.terms[0].first;
  std::vector<Expr> mf = m->kind == ExprKind::Mul ? m->args : std::vector<Expr>{m};
  Poly pa = toPoly(a), q;
  if (pa.c != 0) return std::nullopt;
  for (auto& [mono, c] : pa.terms) {
    if (c % k != 0) return std::nullopt;
    std::vector<Expr> f = mono->kind == ExprKind::Mul ? mono->args : std::vector<Expr>{mono};
    std::vector<Expr> rest;
    if (!std::includes(f.begin(), f.end(), mf.begin(), mf.end(), byId)) return std::nullopt;
    std::set_difference(f.begin(), f.end(), mf.begin(), mf.end(), std::back_inserter(rest), byId);
    Expr r = constant(c / k);
    for (Expr x : rest) r = mul(r, x);
    q = polyAdd(q, toPoly(r));
  }
  return fromPoly(q);
}

// ---- substitution and evaluation -------------------------------------------------------------

Expr ExprContext::substitute(Expr e, const std::vector<Expr>& map) {
  if (e->syms.empty()) return e;
  bool touched = false;
  for (uint32_t s : e->syms) touched |= s < map.size() && map[s] != nullptr;
  if (!touched) return e;
  if (e->kind == ExprKind::Sym) return map[e->value];
  std::vector<Expr> a;
  for (Expr x : e->args) a.push_back(substitute(x, map));
  switch (e->kind) {
    case ExprKind::Add: {
      Expr r = constant(e->value);
      for (size_t i = 0; i < a.size(); ++i) r = add(r, scale(a[i], e->coeffs[i]));
      return r;
    }
    case ExprKind::Mul: {
      Expr r = constant(1);
      for (Expr x : a) r = mul(r, x);
      return r;
    }
    case ExprKind::FloorDiv:
      return floorDiv(a[0], a[1]);
    case ExprKind::Mod:
      return mod(a[0], a[1]);
    case ExprKind::Min:
    case ExprKind::Max: {
      Expr r = a[0];
      for (size_t i = 1; i < a.size(); ++i)
        r = e->kind == ExprKind::Min ? min(r, a[i]) : max(r, a[i]);
      return r;
    }
    case ExprKind::Le:
      return le(a[0], constant(0));
    case ExprKind::Eq:
      return eq(a[0], constant(0));
    case ExprKind::Ne:
      return ne(a[0], constant(0));
    case ExprKind::And:
    case ExprKind::Or: {
      Expr r = boolConst(e->kind == ExprKind::And);
      for (Expr x : a) r = e->kind == ExprKind::And ? logicalAnd(r, x) : logicalOr(r, x);
      return r;
    }
    default:
      return e;
  }
}

std::optional<int64_t> ExprContext::evalInt(Expr e, std::span<const int64_t> sv) const {
  switch (e->kind) {
    case ExprKind::Const:
    case ExprKind::BoolConst:
      return e->value;
    case ExprKind::Sym:
      if (static_cast<size_t>(e->value) >= sv.size()) return std::nullopt;
      return sv[e->value];
    default:
      break;
  }
  std::vector<int64_t> v;
  for (Expr a : e->args) {
    auto x = evalInt(a, sv);
    if (!x) return std::nullopt;
    v.push_back(*x);
  }
  return applyKind(e->kind, e->value, e->coeffs, v);
}

}  // namespace tessel::shapes
