// Calls in closure code: `f(args)` of a global fn (the common call, with its plain and
// step-argument fast paths), of any other value, and `object.method(args)`.
#include "interp/eval/operands.h"
#include "interp/eval/session.h"

namespace tessel::interp {
namespace {

struct CCall : CExpr {
  CCall(Expr* e, Run r) : CExpr(e, r, testValue) {}
  CExpr* callee = nullptr;  // the receiver for a method call
  uint32_t slot = 0;        // a global callee's
  std::vector<const CExpr*> args;
  int64_t arity = -2;  // the FnProto::plainArity a plain call matches; -2 (none) with keywords
};
// A native called with a few positional arguments (`len(xs)`, `xs.append(v)`): they are
// evaluated into a buffer here and the native called with `self` (a method's receiver, a
// built-in's bound value), errors at the call: what callValue and methodCall do, without
// their ArgBuffer and layers.
constexpr size_t kInlineNativeArgs = 4;
bool takesInlineNativeArgs(const CCall& c) {
  return c.arity >= 0 && c.args.size() <= kInlineNativeArgs;
}
// Only the n arguments are constructed and destroyed (a Value array of kInlineNativeArgs was a
// quarter of the cost of `len(xs)` in objects.dsl).
struct InlineNativeArgs {
  alignas(Value) unsigned char bytes[kInlineNativeArgs * sizeof(Value)];
  size_t built = 0;
  Value* data() { return reinterpret_cast<Value*>(bytes); }
  void push(Value v) { new (data() + built++) Value(std::move(v)); }
  ~InlineNativeArgs() {
    for (size_t i = 0; i < built; ++i) data()[i].~Value();
  }
};
[[gnu::always_inline]] inline Value callNativeInline(NativeFn fn, Value self, const CCall& c,
                                                    Frame& f, Engine& ev) {
  InlineNativeArgs args;
  size_t n = c.args.size();
  for (size_t i = 0; i < n; ++i) args.push(c.args[i]->run(*c.args[i], f, ev));
  CallArgs ca{std::span<Value>(args.data(), n), {}, {}, std::move(self), c.src->span};
  ev.at(c.src->span);
  return fn(ev.interpreter(), ca);
}
// runCallGlobal's calls other than plain ones, out of its way (a small frame for plain
// calls): built-ins in line (`len(xs)`), the rest the generic way.
[[gnu::noinline]] Value callGlobalOther(const CCall& c, const Value& g, Frame& f,
                                        Engine& ev) {
  // A copy: the arguments' code may assign the global, or move the module's slots.
  Value callee = g.is(Type::Undefined) ? c.callee->run(*c.callee, f, ev) : g;
  if (callee.is(Type::Builtin) && takesInlineNativeArgs(c)) {
    auto* b = callee.as<BuiltinObj>();
    return callNativeInline(b->fn, b->self, c, f, ev);
  }
  return ev.callCompiled(static_cast<Call*>(c.src), std::move(callee), c.args.data(), f);
}
// `f(...)` with `f` a global: the common call. A global the module does not
// define is a built-in's name (Note [Built-in slots]). `pushArgs` evaluates the arguments of
// a plain call.
template <class PushArgs>
[[gnu::always_inline]] inline Value callGlobal(const CCall& c, Frame& f, Engine& ev,
                                               PushArgs&& pushArgs) {
  const Value& g = f.module->globals[c.slot];
  if (g.is(Type::Function)) {
    auto* fn = g.as<FunctionObj>();
    if (fn->proto->plainArity == c.arity)  // so c.arity is the number of arguments
      return ev.callPlain(fn, c.src->span, pushArgs);
  }
  return callGlobalOther(c, g, f, ev);
}
Value runCallGlobal(const CExpr& self, Frame& f, Engine& ev) {
  auto& c = static_cast<const CCall&>(self);
  return callGlobal(c, f, ev, [&] {
    for (const CExpr* const* a = c.args.data(), *const* end = a + c.arity; a != end; ++a)
      ev.pushArgument((*a)->run(**a, f, ev));
  });
}
// Note [Step arguments]
// `fib(n - 1)`, `walk(i + 1)`: a recursive call's one argument is usually a local plus or minus
// an int literal. Such a call has a handler of its own that computes the argument in line
// when the local holds an int and the sum does not overflow, instead of calling the
// argument's handler (a call, and a Value returned through memory and copied into the slot);
// anything else (another type, overflow, an unassigned local) runs that handler, which decides
// or raises as before. `n - k` is kept as `n + (-k)`: the same sum, overflowing for the same n.
// Calls with other arguments keep runCallGlobal, whose loop pays nothing for this.
struct CStepCall : CCall {
  CStepCall(Expr* e, Run r) : CCall(e, r) {}
  uint32_t local = 0;
  int64_t addend = 0;
};
Value runCallGlobalStep(const CExpr& self, Frame& f, Engine& ev) {
  auto& c = static_cast<const CStepCall&>(self);
  return callGlobal(c, f, ev, [&] {
    const Value& x = f.slots[c.local];
    int64_t r;
    if (x.is(Type::Int) && !__builtin_add_overflow(x.asInt(), c.addend, &r)) [[likely]]
      ev.pushArgument(Value::integer(r));
    else
      ev.pushArgument(c.args[0]->run(*c.args[0], f, ev));
  });
}
// Whether `e` is a local plus or minus an int literal (Note [Step arguments]).
bool isStepArgument(Expr* e, uint32_t& local, int64_t& addend) {
  if (e->kind != ExprKind::Binary) return false;
  auto* b = static_cast<Binary*>(e);
  if ((b->op != BinaryOp::Add && b->op != BinaryOp::Sub) || b->lhs->kind != ExprKind::Name ||
      b->rhs->kind != ExprKind::IntLit)
    return false;
  const VarRef& ref = static_cast<Name*>(b->lhs)->ref;
  int64_t k = static_cast<IntLit*>(b->rhs)->value;
  if (ref.kind != VarRef::Kind::Local || (b->op == BinaryOp::Sub && k == INT64_MIN)) return false;
  local = ref.index;
  addend = b->op == BinaryOp::Add ? k : -k;
  return true;
}
Value runCallAny(const CExpr& self, Frame& f, Engine& ev) {
  auto& c = static_cast<const CCall&>(self);
  return ev.callCompiled(static_cast<Call*>(self.src), c.callee->run(*c.callee, f, ev),
                         c.args.data(), f);
}
// `xs.append(v)`, `d.get(k, 0)`: when the receiver's type is the one this call found its
// native for before (Call::cachedType), the native is called in line (callNativeInline).
Value runCallMethod(const CExpr& self, Frame& f, Engine& ev) {
  auto& c = static_cast<const CCall&>(self);
  auto* call = static_cast<Call*>(self.src);
  Value object = c.callee->run(*c.callee, f, ev);
  if (object.type() == call->cachedType && takesInlineNativeArgs(c)) [[likely]]
    return callNativeInline(call->cachedMethod, std::move(object), c, f, ev);
  return ev.callMethodCompiled(call, std::move(object), c.args.data(), f);
}


}  // namespace

CExpr* ClosureCompiler::compileCall(Call* c) {
  CCall* n;
  if (c->callee->kind == ExprKind::Attr) {
    n = node<CCall>(c, runCallMethod);
    n->callee = expr(static_cast<Attr*>(c->callee)->object);
  } else {
    auto* name = c->callee->kind == ExprKind::Name ? static_cast<Name*>(c->callee) : nullptr;
    // The traced form reads a global callee through its node, which reports the read.
    bool global = name && name->ref.kind == VarRef::Kind::Global && !traced();
    uint32_t local;
    int64_t addend;
    if (global && c->args.size() == 1 && c->kwNames.empty() &&
        isStepArgument(c->args[0], local, addend)) {
      auto* s = node<CStepCall>(c, runCallGlobalStep);
      s->local = local;
      s->addend = addend;
      n = s;
    } else {
      n = node<CCall>(c, global ? runCallGlobal : runCallAny);
    }
    n->callee = expr(c->callee);
    if (global) n->slot = name->ref.index;
  }
  for (Expr* a : c->args) n->args.push_back(expr(a));
  if (c->kwNames.empty()) n->arity = static_cast<int64_t>(c->args.size());
  return n;
}

}  // namespace tessel::interp
