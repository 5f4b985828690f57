// SymbolValues: a graph's symbolic sizes under concrete symbol values (ExprContext::evalInt).
#include "backends/graph/sym_eval.h"

#include <algorithm>
#include <string>

#include "shapes/expr.h"
#include "shapes/shape_env.h"
#include "shapes/user_error.h"

namespace tessel::graph {

using shapes::SymInt;

std::vector<uint32_t> freeSymbols(const SymInt& v) {
  if (v.isConstant()) return {};
  return v.expr()->syms;
}

std::vector<uint32_t> unbackedSymbolsOf(const shapes::SymShape& shape) {
  std::vector<uint32_t> out;
  for (const SymInt& d : shape) {
    if (!d.hasUnbacked()) continue;
    shapes::ShapeEnv* env = d.env();
    for (uint32_t s : d.expr()->syms)
      if (!env || env->symbol(s).unbacked) out.push_back(s);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {
template <class F>
void forEachAttrSymInt(const shapes::OpAttrs& a, F f) {
  for (const SymInt& d : a.shape) f(d);
  if (a.start) f(*a.start);
  if (a.stop) f(*a.stop);
  f(a.step);
  f(a.index);
}
}  // namespace

std::vector<uint32_t> attrSymbols(const shapes::OpAttrs& attrs) {
  std::vector<uint32_t> out;
  forEachAttrSymInt(attrs, [&](const SymInt& v) {
    for (uint32_t s : freeSymbols(v)) out.push_back(s);
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool attrsAreConstant(const shapes::OpAttrs& attrs) {
  bool constant = true;
  forEachAttrSymInt(attrs, [&](const SymInt& v) { constant = constant && v.isConstant(); });
  return constant;
}

bool isConstantShape(const shapes::SymShape& shape) {
  return std::all_of(shape.begin(), shape.end(), [](const SymInt& d) { return d.isConstant(); });
}

void SymbolValues::reset(size_t n) {
  values_.assign(n, 0);
  bound_.assign(n, 0);
}

void SymbolValues::bind(uint32_t s, int64_t v) {
  TESSEL_ASSERT(s < values_.size(), "binding a symbol beyond the graph's symbol table");
  values_[s] = v;
  bound_[s] = 1;
}

namespace {
int64_t evalExpr(shapes::Expr e, std::span<const int64_t> values,
                 const std::vector<uint8_t>& bound) {
  for (uint32_t s : e->syms)
    TESSEL_ASSERT(s < bound.size() && bound[s],
                  "graph size " + e->toString() + " read before its symbols were bound");
  std::optional<int64_t> r = e->ctx->evalInt(e, values);
  if (!r) throwUserError(ErrorKind::OverflowError, "size " + e->toString() + " overflows int64");
  return *r;
}
}  // namespace

int64_t SymbolValues::eval(const SymInt& v) const {
  if (v.isConstant()) return v.constant();
  return evalExpr(v.expr(), values_, bound_);
}

bool SymbolValues::eval(const shapes::SymBool& c) const {
  if (c.isConstant()) return c.constant();
  return evalExpr(c.expr(), values_, bound_) != 0;
}

backends::Dims SymbolValues::evalShape(const shapes::SymShape& shape) const {
  backends::Dims d(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) d[i] = eval(shape[i]);
  return d;
}

shapes::OpAttrs SymbolValues::evalAttrs(const shapes::OpAttrs& attrs) const {
  shapes::OpAttrs a = attrs;
  for (SymInt& d : a.shape) d = eval(d);
  if (a.start) a.start = SymInt(eval(*a.start));
  if (a.stop) a.stop = SymInt(eval(*a.stop));
  a.step = eval(a.step);
  a.index = eval(a.index);
  return a;
}

}  // namespace tessel::graph
