// Literals in closure code: constants, tuple, list and dict displays, comprehensions, and
// lambdas.
#include <unordered_set>

#include "interp/eval/iteration.h"
#include "interp/eval/operands.h"
#include "interp/values/format.h"
#include "interp/values/printer.h"

namespace tessel::interp {
namespace {

struct CConst : CExpr {
  CConst(Expr* e, Value v);
  Value value;
};
Value runConst(const CExpr& self, Frame&, Engine&) {
  return static_cast<const CConst&>(self).value;
}
bool testConst(const CExpr& self, Frame&, Engine& ev) {
  return ev.truthOf(static_cast<const CConst&>(self).value, self.src);
}
CConst::CConst(Expr* e, Value v) : CExpr(e, runConst, testConst), value(std::move(v)) {}

template <Value (*Make)(std::vector<Value>)>
Value runSequenceLit(const CExpr& self, Frame& f, Engine& ev) {
  auto& l = static_cast<const CList&>(self);
  std::vector<Value> items;
  items.reserve(l.elems.size());
  for (CExpr* x : l.elems) items.push_back(x->run(*x, f, ev));
  return Make(std::move(items));
}
Value runDictLit(const CExpr& self, Frame& f, Engine& ev) {
  auto& d = static_cast<const CList&>(self);
  Ref<DictObj> out = make<DictObj>();
  out->entries.reserve(d.elems.size());  // at most one allocation for the entries
  for (size_t i = 0; i < d.elems.size(); ++i) {
    Value k = d.elems[i]->run(*d.elems[i], f, ev);
    if (!k.is(Type::Str))
      raise(ErrorKind::TypeError,
            "dict keys must be str, not '" + std::string(typeName(k.type())) + "'",
            d.elems[i]->src->span);
    out->set(k.as<StrObj>()->str, d.values[i]->run(*d.values[i], f, ev));
  }
  return out.value();
}
// `{"x": x, "y": y}`: a dict literal whose keys are distinct string literals, so that each
// field is appended without looking for an earlier one.
Value runRecordLit(const CExpr& self, Frame& f, Engine& ev) {
  auto& d = static_cast<const CList&>(self);
  Ref<DictObj> out = make<DictObj>();
  out->entries.reserve(d.values.size());
  for (size_t i = 0; i < d.values.size(); ++i)
    out->insertNew(*d.recordKeys[i], d.values[i]->run(*d.values[i], f, ev));
  return out.value();
}

// The keys of a dict literal when they are distinct string literals, else empty.
std::vector<const std::string*> recordKeysOf(DictLit* d) {
  std::vector<const std::string*> keys;
  std::unordered_set<std::string_view> seen;
  for (Expr* k : d->keys) {
    if (k->kind != ExprKind::StrLit) return {};
    const std::string& key = static_cast<StrLit*>(k)->value;
    if (!seen.insert(key).second) return {};
    keys.push_back(&key);
  }
  return keys;
}


// `f"..."`: the pieces in order, each field formatted by its spec (values/format.h), errors at
// the field's expression.
struct CFString : CExpr {
  CFString(Expr* e, Run r) : CExpr(e, r, testValue) {}
  std::vector<const CExpr*> values;  // per part, null for literal text
};
Value runFString(const CExpr& self, Frame& f, Engine& ev) {
  auto& n = static_cast<const CFString&>(self);
  const auto& parts = static_cast<FString*>(self.src)->parts;
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    const FString::Part& part = parts[i];
    if (!n.values[i]) {
      out += part.literal;
      continue;
    }
    Value v = n.values[i]->run(*n.values[i], f, ev);
    ev.at(n.values[i]->src->span);
    if (part.conversion) v = makeStr(part.conversion == 'r' ? repr(v) : str(v));
    out += formatValue(v, part.spec);
  }
  return makeStr(std::move(out));
}

// `fn (x) => ...`: a closure over the running frame, its defaults evaluated now.
struct CLambda : CExpr {
  CLambda(Expr* e, Run r) : CExpr(e, r, testValue) {}
  std::vector<const CExpr*> defaults;  // one per parameter, null where it has none
};
Value runLambda(const CExpr& self, Frame& f, Engine& ev) {
  auto& l = static_cast<const CLambda&>(self);
  return ev.makeClosure(static_cast<Lambda*>(self.src)->proto, l.defaults, f);
}

// `[elem for t in xs if c ...]`, `{k: v for ...}`: the clauses nest left to right, like the
// for loops and ifs they stand for; each item is a step, as a loop iteration is.
struct CComprehension : CExpr {
  CComprehension(Expr* e, Run r) : CExpr(e, r, testValue) {}
  struct Clause {
    const CompClause* src;
    const CExpr* iterable;
    std::vector<const CExpr*> conds;
  };
  const CExpr* elem = nullptr;
  const CExpr* value = nullptr;  // a dict's
  std::vector<Clause> clauses;
};
void runClauses(const CComprehension& c, size_t i, Frame& f, Engine& ev, std::vector<Value>* list,
                DictObj* dict) {
  if (i == c.clauses.size()) {
    Value k = c.elem->run(*c.elem, f, ev);
    if (list) return list->push_back(std::move(k));
    if (!k.is(Type::Str))
      raise(ErrorKind::TypeError,
            "dict keys must be str, not '" + std::string(typeName(k.type())) + "'",
            c.elem->src->span);
    dict->set(k.as<StrObj>()->str, c.value->run(*c.value, f, ev));
    return;
  }
  const CComprehension::Clause& clause = c.clauses[i];
  Value items = clause.iterable->run(*clause.iterable, f, ev);
  ev.eachItem(items, clause.src->iterable->span, [&](Value item) {
    ev.countLoopStep(clause.src->span);
    ev.bind(clause.src->target, std::move(item), f);
    for (const CExpr* cond : clause.conds)
      if (!cond->test(*cond, f, ev)) return Flow::Normal;
    runClauses(c, i + 1, f, ev, list, dict);
    return Flow::Normal;
  });
}
Value runListComprehension(const CExpr& self, Frame& f, Engine& ev) {
  std::vector<Value> items;
  runClauses(static_cast<const CComprehension&>(self), 0, f, ev, &items, nullptr);
  return makeList(std::move(items));
}
Value runDictComprehension(const CExpr& self, Frame& f, Engine& ev) {
  Ref<DictObj> out = make<DictObj>();
  runClauses(static_cast<const CComprehension&>(self), 0, f, ev, nullptr, out.get());
  return out.value();
}

}  // namespace

CExpr* ClosureCompiler::compileComprehension(Comprehension* e) {
  auto* n = node<CComprehension>(e, e->value ? runDictComprehension : runListComprehension);
  n->elem = expr(e->elem);
  if (e->value) n->value = expr(e->value);
  for (const CompClause& k : e->clauses) {
    CComprehension::Clause clause{&k, expr(k.iterable), {}};
    for (Expr* c : k.conds) clause.conds.push_back(expr(c));
    n->clauses.push_back(std::move(clause));
  }
  return n;
}

CExpr* ClosureCompiler::compileIntLit(IntLit* e) {
  return node<CConst>(e, Value::integer(e->value));
}
CExpr* ClosureCompiler::compileFloatLit(FloatLit* e) {
  return node<CConst>(e, Value::real(e->value));
}
CExpr* ClosureCompiler::compileStrLit(StrLit* e) {
  return node<CConst>(e, makeStr(e->value));  // made once, when compiled
}
CExpr* ClosureCompiler::compileBoolLit(BoolLit* e) {
  return node<CConst>(e, Value::boolean(e->value));
}
CExpr* ClosureCompiler::compileNoneLit(NoneLit* e) {
  return node<CConst>(e, Value::none());
}

CExpr* ClosureCompiler::compileListLit(ListLit* e) {
  auto* n = node<CList>(e, runSequenceLit<makeList>);
  for (Expr* x : e->elems) n->elems.push_back(expr(x));
  return n;
}
CExpr* ClosureCompiler::compileTupleLit(TupleLit* e) {
  auto* n = node<CList>(e, runSequenceLit<makeTuple>);
  for (Expr* x : e->elems) n->elems.push_back(expr(x));
  return n;
}
CExpr* ClosureCompiler::compileDictLit(DictLit* d) {
  auto* n = node<CList>(d, runDictLit);
  n->recordKeys = recordKeysOf(d);
  if (!n->recordKeys.empty()) n->run = runRecordLit;
  for (size_t i = 0; i < d->keys.size(); ++i) {
    n->elems.push_back(expr(d->keys[i]));
    n->values.push_back(expr(d->values[i]));
  }
  return n;
}

std::vector<const CExpr*> defaultsOf(ClosureCompiler& cc, FnProto& proto) {
  std::vector<const CExpr*> out;
  for (auto& p : proto.params) out.push_back(p.defaultValue ? cc.expr(p.defaultValue) : nullptr);
  return out;
}

CExpr* ClosureCompiler::compileFString(FString* e) {
  auto* n = node<CFString>(e, runFString);
  for (FString::Part& part : e->parts) n->values.push_back(part.value ? expr(part.value) : nullptr);
  return n;
}

CExpr* ClosureCompiler::compileLambda(Lambda* e) {
  auto* n = node<CLambda>(e, runLambda);
  n->defaults = defaultsOf(*this, *e->proto);
  return n;
}

}  // namespace tessel::interp
