// Subscripts and attributes in closure code: `xs[i]`, `d[k]`, tensor indexing with slices and
// ellipses, `x.name`.
#include "interp/eval/attribute_hooks.h"
#include "interp/eval/operands.h"
#include "interp/values/operators.h"
#include "interp/values/sym_value.h"
#include "interp/values/tensor_hooks.h"

namespace tessel::interp {
namespace {

// `xs[i]`, `d[k]` with one plain subscript. The object and the subscript are operands, so that
// `p["x"]` or `xs[k]` reads both in place.
struct CIndex : CExpr {
  CIndex(Expr* e, Run r) : CExpr(e, r, testValue) {}
  COperand object, index;
  mutable uint32_t hint = 0;  // a dict's entry of the last hit (DictObj::find)
};
// `object[index]` once the list and dict fast paths did not apply.
[[gnu::noinline]] Value indexOne(const CExpr& self, const Value& object, const Value& index,
                                 Engine& ev) {
  ev.at(self.src->span);
  if (object.is(Type::Tensor)) {
    std::vector<IndexItem> items(1);
    items[0].kind = Subscript::Kind::Single;
    items[0].index = index;
    return tensorHooks().index(object, items);
  }
  return getIndex(object, index);
}
template <Opnd L, Opnd R>
Value runIndex(const CExpr& self, Frame& f, Engine& ev) {
  auto& x = static_cast<const CIndex&>(self);
  Fetched<L> ot(x.object, f, ev);
  const Value& object = ot.get();
  Fetched<R> it(x.index, f, ev);
  const Value& index = it.get();
  if (object.is(Type::List) && index.is(Type::Int)) {
    const auto& items = object.as<ListObj>()->items;
    int64_t i = index.asInt(), n = static_cast<int64_t>(items.size());
    if (i < 0) i += n;
    if (i >= 0 && i < n) return items[i];
  } else if (object.is(Type::Dict) && index.is(Type::Str)) {
    if (Value* v = object.as<DictObj>()->findAt(index.as<StrObj>()->str, x.hint)) return *v;
  }
  return indexOne(self, object, index, ev);
}
template <Opnd L, Opnd R>
struct IndexRun {
  static CExpr::Run get() { return runIndex<L, R>; }
};

// Any other subscript: several of them (`x[1, 2]`), slices and ellipses.
struct CSubscripts : CExpr {
  CSubscripts(Expr* e, Run r) : CExpr(e, r, testValue) {}
  CExpr* object = nullptr;
  struct Sub {
    Subscript::Kind kind;
    CExpr* index = nullptr;  // Single
    CExpr* lo = nullptr;     // Slice bounds, each optional
    CExpr* hi = nullptr;
    CExpr* step = nullptr;
  };
  std::vector<Sub> subs;
};
std::optional<shapes::SymInt> symSliceBound(const Value& v, const char* what) {
  if (v.is(Type::None)) return std::nullopt;
  if (isIntLike(v)) return toSymInt(v);
  throwUserError(ErrorKind::TypeError, std::string("slice ") + what +
                                           " must be int or none, not '" +
                                           std::string(typeName(v.type())) + "'");
}
std::optional<int64_t> sliceBound(const Value& v, const char* what) {
  auto b = symSliceBound(v, what);
  if (!b) return std::nullopt;
  return shapes::evaluateInt(*b);  // lists and strings need the concrete bound
}
Value runOf(const CExpr* e, Frame& f, Engine& ev) {
  return e->run(*e, f, ev);
}
Value runSubscripts(const CExpr& self, Frame& f, Engine& ev) {
  auto& x = static_cast<const CSubscripts&>(self);
  auto* src = static_cast<Index*>(self.src);
  Value object = runOf(x.object, f, ev);
  if (object.is(Type::Tensor)) {
    std::vector<IndexItem> items;
    for (const CSubscripts::Sub& s : x.subs) {
      IndexItem item;
      item.kind = s.kind;
      if (s.kind == Subscript::Kind::Single) item.index = runOf(s.index, f, ev);
      if (s.kind == Subscript::Kind::Slice) {
        Value lo = s.lo ? runOf(s.lo, f, ev) : Value(), hi = s.hi ? runOf(s.hi, f, ev) : Value(),
              step = s.step ? runOf(s.step, f, ev) : Value();
        ev.at(self.src->span);
        if (s.lo) item.lo = symSliceBound(lo, "start");
        if (s.hi) item.hi = symSliceBound(hi, "stop");
        item.step = s.step ? sliceBound(step, "step") : std::nullopt;
      }
      items.push_back(std::move(item));
    }
    ev.at(self.src->span);
    return tensorHooks().index(object, items);
  }
  if (x.subs.size() != 1 || src->hasTuple)
    raise(ErrorKind::TypeError,
          "'" + std::string(typeName(object.type())) + "' takes a single index", self.src->span);
  const CSubscripts::Sub& s = x.subs[0];
  switch (s.kind) {
    case Subscript::Kind::Single: {
      Value index = runOf(s.index, f, ev);
      ev.at(self.src->span);
      return getIndex(object, index);
    }
    case Subscript::Kind::Slice: {
      Value lo = s.lo ? runOf(s.lo, f, ev) : Value(), hi = s.hi ? runOf(s.hi, f, ev) : Value(),
            step = s.step ? runOf(s.step, f, ev) : Value();
      ev.at(self.src->span);
      return getSlice(object, s.lo ? sliceBound(lo, "start") : std::nullopt,
                      s.hi ? sliceBound(hi, "stop") : std::nullopt,
                      s.step ? sliceBound(step, "step") : std::nullopt);
    }
    case Subscript::Kind::Ellipsis:
      break;
  }
  raise(ErrorKind::TypeError, "'...' indexes tensors only", self.src->span);
}

Value runAttr(const CExpr& self, Frame& f, Engine& ev) {
  auto& a = static_cast<const CPair&>(self);
  Value object = a.a->run(*a.a, f, ev);
  ev.at(self.src->span);
  return attributeHooks().get(ev.interpreter(), object, static_cast<Attr*>(self.src)->name);
}

}  // namespace

CExpr* ClosureCompiler::compileIndex(Index* x) {
  if (x->subs.size() == 1 && !x->hasTuple && x->subs[0].kind == Subscript::Kind::Single) {
    Opnd l, r;
    COperand object = operandOf(*this, x->object, l);
    COperand index = operandOf(*this, x->subs[0].index, r);
    auto* n = node<CIndex>(x, pick<IndexRun>(readFirst(l, r), r));
    n->object = std::move(object);
    n->index = std::move(index);
    return n;
  }
  auto* n = node<CSubscripts>(x, runSubscripts);
  n->object = expr(x->object);
  for (Subscript& s : x->subs) {
    CSubscripts::Sub sub{s.kind};
    if (s.index) sub.index = expr(s.index);
    if (s.lo) sub.lo = expr(s.lo);
    if (s.hi) sub.hi = expr(s.hi);
    if (s.step) sub.step = expr(s.step);
    n->subs.push_back(sub);
  }
  return n;
}

CExpr* ClosureCompiler::compileAttr(Attr* a) {
  auto* n = node<CPair>(a, runAttr);
  n->a = expr(a->object);
  return n;
}

}  // namespace tessel::interp
