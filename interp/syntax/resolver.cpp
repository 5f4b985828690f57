// Scope analysis: slots, cells for captured variables, upvalues, globals.
#include "interp/syntax/resolver.h"

#include <memory>
#include <unordered_map>

#include "interp/syntax/diagnostics.h"
#include "interp/syntax/stack_guard.h"

namespace tessel::interp {
namespace {

struct LocalVar {
  uint32_t slot;
  bool captured = false;
};

// One function being resolved. The module's top-level code is a function too, whose outermost
// block binds globals instead of slots.
struct FnScope {
  FnProto* proto;
  FnScope* parent;
  bool isModule;
  std::vector<std::unordered_map<std::string, LocalVar*>> blocks;
  std::vector<std::unique_ptr<LocalVar>> vars;
  std::vector<std::pair<VarRef*, LocalVar*>> fixups;  // set once `captured` is final
  std::vector<std::pair<FnProto::Param*, LocalVar*>> paramVars;
  int loopDepth = 0;
};

class Resolver {
 public:
  explicit Resolver(const std::function<uint32_t(const std::string&)>& globalSlot)
      : globalSlot_(globalSlot) {}

  void resolveModule(FnProto* proto) {
    FnScope scope{proto, nullptr, true, {}, {}, {}, {}};
    scope.blocks.emplace_back();  // the global block (unused: top-level names are globals)
    current_ = &scope;
    for (Stmt* s : proto->body) stmt(s);
    finish(scope);
  }

 private:
  bool atModuleTop() const { return current_->isModule && current_->blocks.size() == 1; }

  LocalVar* declareLocal(const std::string& name) {
    FnScope& f = *current_;
    f.vars.push_back(std::make_unique<LocalVar>(LocalVar{f.proto->numSlots++}));
    f.proto->slotNames.push_back(name);
    LocalVar* v = f.vars.back().get();
    f.blocks.back()[name] = v;
    return v;
  }

  // Binds `name` in the current scope and points `ref` at it.
  void declare(const std::string& name, VarRef& ref) {
    if (atModuleTop()) {
      ref.kind = VarRef::Kind::Global;
      ref.index = globalSlot_(name);
      return;
    }
    current_->fixups.emplace_back(&ref, declareLocal(name));
  }

  static LocalVar* findLocal(FnScope& f, const std::string& name) {
    for (size_t i = f.blocks.size(); i-- > 0;) {
      auto it = f.blocks[i].find(name);
      if (it != f.blocks[i].end()) return it->second;
    }
    return nullptr;
  }

  // The upvalue index of `name` in function f, created on first use; -1 if it is not a local
  // of any enclosing function (then it is a global).
  int findUpvalue(FnScope& f, const std::string& name) {
    if (!f.parent) return -1;
    for (size_t i = 0; i < f.proto->upvalueNames.size(); ++i)
      if (f.proto->upvalueNames[i] == name) return static_cast<int>(i);
    UpvalueDesc desc;
    if (LocalVar* v = findLocal(*f.parent, name)) {
      v->captured = true;
      desc = {true, v->slot};
    } else {
      int up = findUpvalue(*f.parent, name);
      if (up < 0) return -1;
      desc = {false, static_cast<uint32_t>(up)};
    }
    f.proto->upvalues.push_back(desc);
    f.proto->upvalueNames.push_back(name);
    return static_cast<int>(f.proto->upvalues.size() - 1);
  }

  void use(const std::string& name, VarRef& ref) {
    if (LocalVar* v = findLocal(*current_, name)) {
      current_->fixups.emplace_back(&ref, v);
      return;
    }
    int up = findUpvalue(*current_, name);
    if (up >= 0) {
      ref.kind = VarRef::Kind::Upvalue;
      ref.index = static_cast<uint32_t>(up);
      return;
    }
    ref.kind = VarRef::Kind::Global;
    ref.index = globalSlot_(name);
  }

  static void finish(FnScope& f) {
    for (auto& [ref, var] : f.fixups) {
      ref->kind = var->captured ? VarRef::Kind::LocalCell : VarRef::Kind::Local;
      ref->index = var->slot;
    }
    for (auto& [param, var] : f.paramVars) {
      param->isCell = var->captured;
      f.proto->hasCellParams = f.proto->hasCellParams || var->captured;
    }
  }

  // The fns of a block are declared before any statement of it, as in Python's function
  // scopes, so local fns can call each other whatever their order (mutual recursion).
  void hoistFns(Block& b) {
    if (atModuleTop()) return;  // module-level fns are globals: found by name already
    for (Stmt* s : b)
      if (s->kind == StmtKind::FnDecl) {
        auto* n = static_cast<FnDecl*>(s);
        declare(n->proto->name, n->ref);
        n->hoisted = true;
      }
  }

  void block(Block& b) {
    current_->blocks.emplace_back();
    hoistFns(b);
    for (Stmt* s : b) stmt(s);
    current_->blocks.pop_back();
  }

  void pattern(Pattern* p) {
    if (!p->isSeq) {
      declare(p->name, p->ref);
      return;
    }
    for (Pattern* e : p->elems) pattern(e);
  }

  void function(FnProto* proto) {
    // Defaults, annotations' where-clauses and decorators run in the enclosing scope.
    for (auto& param : proto->params)
      if (param.defaultValue) expr(param.defaultValue);
    FnScope scope{proto, current_, false, {}, {}, {}, {}};
    scope.blocks.emplace_back();
    FnScope* saved = current_;
    current_ = &scope;
    for (auto& param : proto->params)
      scope.paramVars.emplace_back(&param, declareLocal(param.name));
    declareDims(proto);
    for (Expr* w : proto->where) expr(w);
    hoistFns(proto->body);
    for (Stmt* s : proto->body) stmt(s);
    current_ = saved;
    finish(scope);
  }

  // Named dimensions become locals, in order of first appearance in the signature.
  void declareDims(FnProto* proto) {
    auto addDims = [&](TypeAnn* t) {
      if (!t) return;
      proto->hasSignature = true;
      for (auto& d : t->dims) {
        if (!d.isName || d.name == "_") continue;
        bool seen = false;
        for (auto& v : proto->dimVars) seen = seen || v.name == d.name;
        if (seen) continue;
        for (auto& p : proto->params)
          if (p.name == d.name)
            raise(ErrorKind::NameError, "dimension '" + d.name + "' has the name of a parameter",
                  t->span);
        proto->dimVars.push_back({d.name, {}});
      }
    };
    for (auto& p : proto->params) addDims(p.type);
    addDims(proto->result);
    if (!proto->where.empty()) proto->hasSignature = true;
    for (auto& v : proto->dimVars) current_->fixups.emplace_back(&v.ref, declareLocal(v.name));
  }

  void stmt(Stmt* s) {
    checkStack(s->span);
    switch (s->kind) {
      case StmtKind::Let: {
        auto* n = static_cast<Let*>(s);
        expr(n->value);  // `let x = x + 1` reads the outer x
        pattern(n->target);
        break;
      }
      case StmtKind::Assign: {
        auto* n = static_cast<Assign*>(s);
        expr(n->value);
        expr(n->target);
        break;
      }
      case StmtKind::ExprStmt:
        expr(static_cast<ExprStmt*>(s)->expr);
        break;
      case StmtKind::FnDecl: {
        auto* n = static_cast<FnDecl*>(s);
        for (Expr* d : n->decorators) expr(d);
        if (!n->hoisted) declare(n->proto->name, n->ref);  // before the body: it may call itself
        function(n->proto);
        break;
      }
      case StmtKind::If: {
        auto* n = static_cast<If*>(s);
        for (Expr* c : n->conds) expr(c);
        for (Block& b : n->blocks) block(b);
        break;
      }
      case StmtKind::While: {
        auto* n = static_cast<While*>(s);
        expr(n->cond);
        ++current_->loopDepth;
        block(n->body);
        --current_->loopDepth;
        break;
      }
      case StmtKind::For: {
        auto* n = static_cast<For*>(s);
        expr(n->iterable);
        current_->blocks.emplace_back();  // the loop variables' scope
        pattern(n->target);
        ++current_->loopDepth;
        block(n->body);
        --current_->loopDepth;
        current_->blocks.pop_back();
        break;
      }
      case StmtKind::Return:
        if (auto* v = static_cast<Return*>(s)->value) expr(v);
        break;
      case StmtKind::Try: {
        auto* n = static_cast<Try*>(s);
        block(n->body);
        for (Try::Handler& h : n->handlers) {
          current_->blocks.emplace_back();  // `as e` is the handler's own
          if (h.name) pattern(h.name);
          block(h.body);
          current_->blocks.pop_back();
        }
        if (n->hasFinally) block(n->finally);
        break;
      }
      case StmtKind::Raise:
        if (auto* v = static_cast<Raise*>(s)->value) expr(v);
        break;
      case StmtKind::Assert: {
        auto* n = static_cast<Assert*>(s);
        expr(n->cond);
        if (n->message) expr(n->message);
        break;
      }
      case StmtKind::Import: {
        auto* n = static_cast<Import*>(s);
        declare(n->alias, n->ref);
        break;
      }
      case StmtKind::Break:
      case StmtKind::Continue:
        if (current_->loopDepth == 0)
          raise(ErrorKind::SyntaxError,
                std::string("'") + (s->kind == StmtKind::Break ? "break" : "continue") +
                    "' outside a loop",
                s->span);
        break;
    }
  }

  void expr(Expr* e) {
    checkStack(e->span);
    switch (e->kind) {
      case ExprKind::IntLit:
      case ExprKind::FloatLit:
      case ExprKind::StrLit:
      case ExprKind::BoolLit:
      case ExprKind::NoneLit:
        break;
      case ExprKind::Name: {
        auto* n = static_cast<Name*>(e);
        use(n->name, n->ref);
        break;
      }
      case ExprKind::TupleLit:
        for (Expr* x : static_cast<TupleLit*>(e)->elems) expr(x);
        break;
      case ExprKind::ListLit:
        for (Expr* x : static_cast<ListLit*>(e)->elems) expr(x);
        break;
      case ExprKind::DictLit: {
        auto* d = static_cast<DictLit*>(e);
        for (size_t i = 0; i < d->keys.size(); ++i) {
          expr(d->keys[i]);
          expr(d->values[i]);
        }
        break;
      }
      case ExprKind::Unary:
        expr(static_cast<Unary*>(e)->operand);
        break;
      case ExprKind::Binary: {
        auto* b = static_cast<Binary*>(e);
        expr(b->lhs);
        expr(b->rhs);
        break;
      }
      case ExprKind::Compare:
        for (Expr* x : static_cast<Compare*>(e)->operands) expr(x);
        break;
      case ExprKind::Logical: {
        auto* b = static_cast<Logical*>(e);
        expr(b->lhs);
        expr(b->rhs);
        break;
      }
      case ExprKind::Not:
        expr(static_cast<Not*>(e)->operand);
        break;
      case ExprKind::Ternary: {
        auto* t = static_cast<Ternary*>(e);
        expr(t->cond);
        expr(t->then);
        expr(t->otherwise);
        break;
      }
      case ExprKind::Call: {
        auto* c = static_cast<Call*>(e);
        expr(c->callee);
        for (Expr* a : c->args) expr(a);
        break;
      }
      case ExprKind::Index: {
        auto* x = static_cast<Index*>(e);
        expr(x->object);
        for (Subscript& s : x->subs)
          for (Expr* part : {s.index, s.lo, s.hi, s.step})
            if (part) expr(part);
        break;
      }
      case ExprKind::Attr:
        expr(static_cast<Attr*>(e)->object);
        break;
      case ExprKind::Lambda:
        function(static_cast<Lambda*>(e)->proto);
        break;
      case ExprKind::FString:
        for (FString::Part& part : static_cast<FString*>(e)->parts)
          if (part.value) expr(part.value);
        break;
      case ExprKind::Comprehension: {
        // Each clause's targets are local to the comprehension (Python 3); a clause's iterable
        // and conditions see the targets of the clauses before it.
        auto* c = static_cast<Comprehension*>(e);
        for (CompClause& clause : c->clauses) {
          expr(clause.iterable);
          current_->blocks.emplace_back();
          pattern(clause.target);
          for (Expr* cond : clause.conds) expr(cond);
        }
        expr(c->elem);
        if (c->value) expr(c->value);
        for (size_t i = 0; i < c->clauses.size(); ++i) current_->blocks.pop_back();
        break;
      }
    }
  }

  const std::function<uint32_t(const std::string&)>& globalSlot_;
  FnScope* current_ = nullptr;
};

}  // namespace

void resolveProgram(Program& program,
                    const std::function<uint32_t(const std::string&)>& globalSlot) {
  Resolver(globalSlot).resolveModule(program.proto);
}

}  // namespace tessel::interp
