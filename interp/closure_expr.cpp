// Closure code for expressions (Note [Closure code] in closure_code.h): the node handlers, and
// the compiler that picks one for each expression. Each handler attaches errors where its
// tree-walk counterpart in eval_expr.cpp / eval_call.cpp does (Note [Spans]).
#include <unordered_set>

#include "interp/attributes.h"
#include "interp/closure_code.h"
#include "interp/diagnostics.h"
#include "interp/interpreter.h"
#include "interp/ops.h"

namespace tessel::interp {
namespace {

// Anything not specialized below: the tree walk evaluates it.
Value runTree(const CExpr& self, Frame& f, Evaluator& ev) {
  return ev.eval(self.src, f);
}
bool testTree(const CExpr& self, Frame& f, Evaluator& ev) {
  return ev.conditionTree(self.src, f);
}
// The truth of a compiled expression's value, as conditionSlow gives it.
bool testValue(const CExpr& self, Frame& f, Evaluator& ev) {
  return ev.truthOf(self.run(self, f, ev), self.src);
}

struct CConst : CExpr {
  CConst(Expr* e, Value v);
  Value value;
};
Value runConst(const CExpr& self, Frame&, Evaluator&) {
  return static_cast<const CConst&>(self).value;
}
bool testConst(const CExpr& self, Frame&, Evaluator& ev) {
  return ev.truthOf(static_cast<const CConst&>(self).value, self.src);
}
CConst::CConst(Expr* e, Value v) : CExpr(e, runConst, testConst), value(std::move(v)) {}

// Note [Built-in slots]
// A global that the module does not define is a built-in (`len`, `str`, `abs`), which the
// tree walk looks up by name in the prelude at every read. The prelude's slots never move
// (ModuleObj::slotOf only appends), so a global's node keeps the prelude slot found at its
// first such read and reads that slot from then on. The module's own global is still checked
// first (a later definition shadows the built-in, as in the tree walk) and the prelude's value
// is read each time, so the cache holds no value that could go stale.
struct CSlot : CExpr {
  CSlot(Expr* e, Run r, uint32_t s) : CExpr(e, r, testValue), slot(s) {}
  uint32_t slot;
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  mutable const ModuleObj* prelude = nullptr;  // whose slot builtinSlot is
  mutable uint32_t builtinSlot = kNoSlot;
};
// The built-in a global names when its module does not define it, or nullptr.
const Value* builtinOf(const CSlot& s, Evaluator& ev) {
  ModuleObj& prelude = ev.interpreter().prelude();
  if (s.prelude != &prelude) {
    auto it = prelude.globalIndex.find(static_cast<Name*>(s.src)->name);
    if (it == prelude.globalIndex.end()) return nullptr;
    s.prelude = &prelude;
    s.builtinSlot = it->second;
  }
  const Value& b = prelude.globals[s.builtinSlot];
  return b.is(Type::Undefined) ? nullptr : &b;
}
Value runLocal(const CExpr& self, Frame& f, Evaluator& ev) {
  const Value& v = f.slots[static_cast<const CSlot&>(self).slot];
  if (!v.is(Type::Undefined)) [[likely]]
    return v;
  return ev.eval(self.src, f);  // the NameError
}
// A global its module does not define (kept out of runGlobal: Note [Frameless fast paths]).
[[gnu::noinline]] Value runUndefinedGlobal(const CExpr& self, Frame& f, Evaluator& ev) {
  if (const Value* b = builtinOf(static_cast<const CSlot&>(self), ev)) return *b;
  return ev.eval(self.src, f);  // the NameError
}
Value runGlobal(const CExpr& self, Frame& f, Evaluator& ev) {
  const Value& v = f.module->globals[static_cast<const CSlot&>(self).slot];
  if (!v.is(Type::Undefined)) [[likely]]
    return v;
  return runUndefinedGlobal(self, f, ev);
}

// An operand of a binary operator or a comparison, read without a call where the AST says
// what it is: a local or global slot (by reference), a literal (kept as a Value), or anything
// else. Globals are what top-level loops read.
enum class Opnd : uint8_t { Any, Local, Global, Const };
struct COperand {
  CExpr* node = nullptr;  // Any; for a slot, what raises when it is unassigned (or a built-in)
  uint32_t slot = 0;      // Local, Global
  Value value;            // Const
};

// An operand's value, in hand: a slot or the constant by reference, or what the operand's code
// returned, built in place (no temporary moved into a second Value).
template <Opnd K>
class Fetched {
 public:
  [[gnu::always_inline]] Fetched(const COperand& o, Frame& f, Evaluator& ev)
      : own_(K == Opnd::Any ? o.node->run(*o.node, f, ev) : Value()), ref_(locate(o, f, ev)) {}
  const Value& get() const { return *ref_; }

 private:
  [[gnu::always_inline]] const Value* locate(const COperand& o, Frame& f, Evaluator& ev) {
    if constexpr (K == Opnd::Const) {
      return &o.value;
    } else if constexpr (K == Opnd::Any) {
      return &own_;
    } else {
      const Value& v = K == Opnd::Local ? f.slots[o.slot] : f.module->globals[o.slot];
      if (!v.is(Type::Undefined)) [[likely]]
        return &v;
      own_ = o.node->run(*o.node, f, ev);  // the NameError, or a global's built-in
      return &own_;
    }
  }
  Value own_;
  const Value* ref_;
};

struct CBinary : CExpr {
  CBinary(Expr* e, Run r) : CExpr(e, r, testValue) {}
  BinaryOp op;
  COperand lhs, rhs;
};

// Note [Frameless fast paths]
// A handler that may call out (to an operand's node, to the generic operator) saves registers
// and builds a stack frame on entry, which costs about as much as `n - 1` itself. When both
// operands are locals or constants, the int case needs no call, so it is tested in a handler
// of its own that needs no frame, and everything else is a tail call of the full handler
// (noinline, so that it stays a call and the fast path stays frameless). An unassigned local
// or global is Undefined, not Int, so the full handler raises its NameError (or reads the
// built-in), as before.
template <Opnd K>
[[gnu::always_inline]] inline const Value& peek(const COperand& o, Frame& f) {
  static_assert(K != Opnd::Any);
  if constexpr (K == Opnd::Const)
    return o.value;
  else if constexpr (K == Opnd::Local)
    return f.slots[o.slot];
  else
    return f.module->globals[o.slot];
}

// An operand that is neither a local nor a constant leaves no fast path to try first: such
// pairs run the full handler directly.
constexpr bool hasFastPath(Opnd l, Opnd r) {
  return l != Opnd::Any && r != Opnd::Any;
}

// evalBinary once the int fast path did not apply: floats inline, everything else through the
// generic operator.
[[gnu::noinline]] Value binaryNotInts(const CBinary& b, const Value& lhs, const Value& rhs,
                                      Evaluator& ev) {
  if (lhs.is(Type::Float) && rhs.is(Type::Float)) {
    double r;
    if (floatArith(b.op, lhs.asFloat(), rhs.asFloat(), r)) return Value::real(r);
  }
  return ev.applyBinary(static_cast<Binary*>(b.src), lhs, rhs);
}
// evalBinary: ints and floats inline, everything else through the generic operator.
template <Opnd L, Opnd R>
[[gnu::noinline]] Value runBinaryFull(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& b = static_cast<const CBinary&>(self);
  Fetched<L> lt(b.lhs, f, ev);
  const Value& lhs = lt.get();
  Fetched<R> rt(b.rhs, f, ev);
  const Value& rhs = rt.get();
  int64_t r;
  if (lhs.is(Type::Int) && rhs.is(Type::Int) && intArith(b.op, lhs.asInt(), rhs.asInt(), r))
    return Value::integer(r);
  return binaryNotInts(b, lhs, rhs, ev);
}
template <Opnd L, Opnd R>
Value runBinary(const CExpr& self, Frame& f, Evaluator& ev) {
  if constexpr (hasFastPath(L, R)) {
    auto& b = static_cast<const CBinary&>(self);
    const Value& lhs = peek<L>(b.lhs, f);
    const Value& rhs = peek<R>(b.rhs, f);
    int64_t r;
    if (lhs.is(Type::Int) && rhs.is(Type::Int) && intArith(b.op, lhs.asInt(), rhs.asInt(), r))
      [[likely]]
      return Value::integer(r);
  }
  return runBinaryFull<L, R>(self, f, ev);
}

struct CCompare : CExpr {
  CCompare(Expr* e, Run r, Test t) : CExpr(e, r, t) {}
  CompareOp op;
  COperand lhs, rhs;
};

// evalCompare and conditionSlow for one comparison (chains go to the tree walk), with
// frameless fast paths for locals and constants (Note [Frameless fast paths]).
template <Opnd L, Opnd R>
[[gnu::noinline]] Value runCompareFull(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& c = static_cast<const CCompare&>(self);
  Fetched<L> lt(c.lhs, f, ev);
  const Value& lhs = lt.get();
  Fetched<R> rt(c.rhs, f, ev);
  const Value& rhs = rt.get();
  if (lhs.is(Type::Int) && rhs.is(Type::Int)) {
    bool ok;
    bool holds = compareInts(c.op, lhs.asInt(), rhs.asInt(), ok);
    if (ok) return Value::boolean(holds);
  }
  return ev.applyCompare(static_cast<Compare*>(self.src), f, lhs, rhs);
}
template <Opnd L, Opnd R>
[[gnu::noinline]] bool testCompareFull(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& c = static_cast<const CCompare&>(self);
  Fetched<L> lt(c.lhs, f, ev);
  const Value& lhs = lt.get();
  Fetched<R> rt(c.rhs, f, ev);
  const Value& rhs = rt.get();
  if (lhs.is(Type::Int) && rhs.is(Type::Int)) {
    bool ok;
    bool holds = compareInts(c.op, lhs.asInt(), rhs.asInt(), ok);
    if (ok) return holds;
  }
  return ev.truthOf(ev.applyCompare(static_cast<Compare*>(self.src), f, lhs, rhs), self.src);
}
// Whether both operands are ints that compare as c.op says; ok is false when they are not ints
// (or the operator needs more than the ints, as `in` does).
template <Opnd L, Opnd R>
[[gnu::always_inline]] inline bool compareFast(const CCompare& c, Frame& f, bool& ok) {
  const Value& lhs = peek<L>(c.lhs, f);
  const Value& rhs = peek<R>(c.rhs, f);
  ok = false;
  if (!lhs.is(Type::Int) || !rhs.is(Type::Int)) return false;
  return compareInts(c.op, lhs.asInt(), rhs.asInt(), ok);
}
template <Opnd L, Opnd R>
Value runCompare(const CExpr& self, Frame& f, Evaluator& ev) {
  if constexpr (hasFastPath(L, R)) {
    bool ok;
    bool holds = compareFast<L, R>(static_cast<const CCompare&>(self), f, ok);
    if (ok) [[likely]]
      return Value::boolean(holds);
  }
  return runCompareFull<L, R>(self, f, ev);
}
template <Opnd L, Opnd R>
bool testCompare(const CExpr& self, Frame& f, Evaluator& ev) {
  if constexpr (hasFastPath(L, R)) {
    bool ok;
    bool holds = compareFast<L, R>(static_cast<const CCompare&>(self), f, ok);
    if (ok) [[likely]]
      return holds;
  }
  return testCompareFull<L, R>(self, f, ev);
}

// One handler per pair of operand kinds (the kinds are template arguments, so that the reads
// compile to direct loads).
template <template <Opnd, Opnd> class Pick, Opnd L>
auto pickRight(Opnd r) {
  switch (r) {
    case Opnd::Local:
      return Pick<L, Opnd::Local>::get();
    case Opnd::Global:
      return Pick<L, Opnd::Global>::get();
    case Opnd::Const:
      return Pick<L, Opnd::Const>::get();
    default:
      return Pick<L, Opnd::Any>::get();
  }
}
template <template <Opnd, Opnd> class Pick>
auto pick(Opnd l, Opnd r) {
  switch (l) {
    case Opnd::Local:
      return pickRight<Pick, Opnd::Local>(r);
    case Opnd::Global:
      return pickRight<Pick, Opnd::Global>(r);
    case Opnd::Const:
      return pickRight<Pick, Opnd::Const>(r);
    default:
      return pickRight<Pick, Opnd::Any>(r);
  }
}
template <Opnd L, Opnd R>
struct BinaryRun {
  static CExpr::Run get() { return hasFastPath(L, R) ? runBinary<L, R> : runBinaryFull<L, R>; }
};
template <Opnd L, Opnd R>
struct CompareRun {
  static CExpr::Run get() { return hasFastPath(L, R) ? runCompare<L, R> : runCompareFull<L, R>; }
};
template <Opnd L, Opnd R>
struct CompareTest {
  static CExpr::Test get() {
    return hasFastPath(L, R) ? testCompare<L, R> : testCompareFull<L, R>;
  }
};

// Note [Int operator handlers]
// runBinary's and testCompare's fast paths decide the operator at each run (intArith's and
// compareInts' switches: a jump through a table) and test a literal operand's type, which is
// most of their cost for `n - 1` or `n < 2`. When both operands are slots or int literals and
// the operator is one that the int fast paths compute, the handler is also specialized on the
// operator, and an int literal's type is known when the handler is picked. Everything else
// (a slot not holding an int, overflow, a non-positive divisor) still goes to the full
// handler, which decides as before.
constexpr bool isIntFastOp(BinaryOp op) {
  return op == BinaryOp::Add || op == BinaryOp::Sub || op == BinaryOp::Mul ||
         op == BinaryOp::FloorDiv || op == BinaryOp::Mod;
}
constexpr bool isIntFastOp(CompareOp op) {
  return op != CompareOp::In && op != CompareOp::NotIn;
}
template <Opnd K>
[[gnu::always_inline]] inline bool holdsInt(const Value& v) {
  return K == Opnd::Const || v.is(Type::Int);  // a Const operand here is an int literal
}
template <Opnd L, Opnd R, BinaryOp Op>
Value runIntBinary(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& b = static_cast<const CBinary&>(self);
  const Value& lhs = peek<L>(b.lhs, f);
  const Value& rhs = peek<R>(b.rhs, f);
  int64_t r;
  if (holdsInt<L>(lhs) && holdsInt<R>(rhs) && intArith(Op, lhs.asInt(), rhs.asInt(), r))
    [[likely]]
    return Value::integer(r);
  return runBinaryFull<L, R>(self, f, ev);
}
// The same for operands that run code (`fib(n - 1) + fib(n - 2)`): their values are fetched
// first, as runBinaryFull fetches them.
template <Opnd L, Opnd R, BinaryOp Op>
Value runIntBinaryFetched(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& b = static_cast<const CBinary&>(self);
  if constexpr (L == Opnd::Any && R == Opnd::Any) {  // the values themselves, no references
    Value lhs = b.lhs.node->run(*b.lhs.node, f, ev);
    Value rhs = b.rhs.node->run(*b.rhs.node, f, ev);
    int64_t r;
    if (lhs.is(Type::Int) && rhs.is(Type::Int) && intArith(Op, lhs.asInt(), rhs.asInt(), r))
      [[likely]]
      return Value::integer(r);
    return binaryNotInts(b, lhs, rhs, ev);
  } else {
    Fetched<L> lt(b.lhs, f, ev);
    const Value& lhs = lt.get();
    Fetched<R> rt(b.rhs, f, ev);
    const Value& rhs = rt.get();
    int64_t r;
    if (lhs.is(Type::Int) && rhs.is(Type::Int) && intArith(Op, lhs.asInt(), rhs.asInt(), r))
      [[likely]]
      return Value::integer(r);
    return binaryNotInts(b, lhs, rhs, ev);
  }
}
template <Opnd L, Opnd R, CompareOp Op>
bool testIntCompare(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& c = static_cast<const CCompare&>(self);
  const Value& lhs = peek<L>(c.lhs, f);
  const Value& rhs = peek<R>(c.rhs, f);
  bool ok;
  if (holdsInt<L>(lhs) && holdsInt<R>(rhs)) [[likely]]
    return compareInts(Op, lhs.asInt(), rhs.asInt(), ok);
  return testCompareFull<L, R>(self, f, ev);
}
template <Opnd L, Opnd R, BinaryOp Op>
struct IntBinaryRun {
  static CExpr::Run get() {
    if constexpr (hasFastPath(L, R))
      return runIntBinary<L, R, Op>;
    else
      return runIntBinaryFetched<L, R, Op>;
  }
};
template <Opnd L, Opnd R, CompareOp Op>
struct IntCompareTest {
  static CExpr::Test get() { return testIntCompare<L, R, Op>; }
};
// The handler for operands of kinds l and r (slots or int literals, not both literals) and
// the operator op (one of isIntFastOp's).
template <template <Opnd, Opnd, auto> class Pick, Opnd L, Opnd R, class Op>
auto pickOp(Op op) {
  if constexpr (std::is_same_v<Op, BinaryOp>) {
    switch (op) {
      case BinaryOp::Add:
        return Pick<L, R, BinaryOp::Add>::get();
      case BinaryOp::Sub:
        return Pick<L, R, BinaryOp::Sub>::get();
      case BinaryOp::Mul:
        return Pick<L, R, BinaryOp::Mul>::get();
      case BinaryOp::FloorDiv:
        return Pick<L, R, BinaryOp::FloorDiv>::get();
      default:
        return Pick<L, R, BinaryOp::Mod>::get();
    }
  } else {
    switch (op) {
      case CompareOp::Eq:
        return Pick<L, R, CompareOp::Eq>::get();
      case CompareOp::Ne:
        return Pick<L, R, CompareOp::Ne>::get();
      case CompareOp::Lt:
        return Pick<L, R, CompareOp::Lt>::get();
      case CompareOp::Le:
        return Pick<L, R, CompareOp::Le>::get();
      case CompareOp::Gt:
        return Pick<L, R, CompareOp::Gt>::get();
      default:
        return Pick<L, R, CompareOp::Ge>::get();
    }
  }
}
// Kinds that only binary operators take with the operator as a template argument: operands
// that run code (Any). Comparisons are specialized only for slots and literals.
template <Opnd K, class Op>
constexpr bool kindTakesOp() {
  return K != Opnd::Any || std::is_same_v<Op, BinaryOp>;
}
template <template <Opnd, Opnd, auto> class Pick, Opnd L, class Op>
auto pickOpRight(Opnd r, Op op) {
  switch (r) {
    case Opnd::Local:
      return pickOp<Pick, L, Opnd::Local>(op);
    case Opnd::Global:
      return pickOp<Pick, L, Opnd::Global>(op);
    case Opnd::Const:
      return pickOp<Pick, L, Opnd::Const>(op);
    default:
      if constexpr (kindTakesOp<Opnd::Any, Op>() && L != Opnd::Any)
        return pickOp<Pick, L, Opnd::Any>(op);
      else
        return pickOp<Pick, L, Opnd::Local>(op);  // not picked (takesIntHandler)
  }
}
template <template <Opnd, Opnd, auto> class Pick, class Op>
auto pickOp(Opnd l, Opnd r, Op op) {
  switch (l) {
    case Opnd::Local:
      return pickOpRight<Pick, Opnd::Local>(r, op);
    case Opnd::Global:
      return pickOpRight<Pick, Opnd::Global>(r, op);
    case Opnd::Const:  // r is not a literal (takesIntHandler)
      return pickOpRight<Pick, Opnd::Const>(r, op);
    default:
      if constexpr (kindTakesOp<Opnd::Any, Op>()) {
        switch (r) {  // Any with Any: the one pair pickOpRight leaves out
          case Opnd::Any:
            return pickOp<Pick, Opnd::Any, Opnd::Any>(op);
          default:
            return pickOpRight<Pick, Opnd::Any>(r, op);
        }
      } else {
        return pickOpRight<Pick, Opnd::Local>(r, op);  // not picked (takesIntHandler)
      }
  }
}
// Whether an operand of kind k may be an int: a slot, an int literal, or (for a binary
// operator) code.
template <class Op>
bool isIntOperand(Opnd k, const COperand& o) {
  if (k == Opnd::Any) return kindTakesOp<Opnd::Any, Op>();
  return k != Opnd::Const || o.value.is(Type::Int);
}
template <class Op>
bool takesIntHandler(Opnd l, const COperand& lhs, Opnd r, const COperand& rhs, Op op) {
  return isIntFastOp(op) && isIntOperand<Op>(l, lhs) && isIntOperand<Op>(r, rhs) &&
         !(l == Opnd::Const && r == Opnd::Const);
}

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
// their ArgBuffer and layers. The arguments' own errors pass through, as there.
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
                                                    Frame& f, Evaluator& ev) {
  InlineNativeArgs args;
  size_t n = c.args.size();
  for (size_t i = 0; i < n; ++i) args.push(c.args[i]->run(*c.args[i], f, ev));
  CallArgs ca{std::span<Value>(args.data(), n), {}, {}, std::move(self), c.src->span};
  return atSpan(c.src->span, [&] { return fn(ev.interpreter(), ca); });
}
// runCallGlobal's calls other than plain ones, out of its way (a small frame for plain
// calls): built-ins in line (`len(xs)`), the rest the generic way.
[[gnu::noinline]] Value callGlobalOther(const CCall& c, const Value& g, Frame& f,
                                        Evaluator& ev) {
  // A copy: the arguments' code may assign the global, or move the module's slots.
  Value callee = g.is(Type::Undefined) ? c.callee->run(*c.callee, f, ev) : g;
  if (callee.is(Type::Builtin) && takesInlineNativeArgs(c)) {
    auto* b = callee.as<BuiltinObj>();
    return callNativeInline(b->fn, b->self, c, f, ev);
  }
  return ev.callCompiled(static_cast<Call*>(c.src), std::move(callee), c.args.data(), f);
}
// `f(...)` with `f` a global: the common call (evalCall). A global the module does not
// define is a built-in's name (Note [Built-in slots]). `pushArgs` evaluates the arguments of
// a plain call.
template <class PushArgs>
[[gnu::always_inline]] inline Value callGlobal(const CCall& c, Frame& f, Evaluator& ev,
                                               PushArgs&& pushArgs) {
  const Value& g = f.module->globals[c.slot];
  if (g.is(Type::Function)) {
    auto* fn = g.as<FunctionObj>();
    if (fn->proto->plainArity == c.arity)  // so c.arity is the number of arguments
      return ev.callPlain(fn, f, c.src->span, pushArgs);
  }
  return callGlobalOther(c, g, f, ev);
}
Value runCallGlobal(const CExpr& self, Frame& f, Evaluator& ev) {
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
Value runCallGlobalStep(const CExpr& self, Frame& f, Evaluator& ev) {
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
Value runCallAny(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& c = static_cast<const CCall&>(self);
  return ev.callCompiled(static_cast<Call*>(self.src), c.callee->run(*c.callee, f, ev),
                         c.args.data(), f);
}
// `xs.append(v)`, `d.get(k, 0)`: when the receiver's type is the one this call found its
// native for before (Call::cachedType), the native is called in line (callNativeInline).
Value runCallMethod(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& c = static_cast<const CCall&>(self);
  auto* call = static_cast<Call*>(self.src);
  Value object = c.callee->run(*c.callee, f, ev);
  if (object.type() == call->cachedType && takesInlineNativeArgs(c)) [[likely]]
    return callNativeInline(call->cachedMethod, std::move(object), c, f, ev);
  return ev.callMethodCompiled(call, std::move(object), c.args.data(), f);
}

struct CPair : CExpr {
  CPair(Expr* e, Run r, Test t = testValue) : CExpr(e, r, t) {}
  CExpr* a = nullptr;
  CExpr* b = nullptr;
  CExpr* c = nullptr;
};
// `xs[i]`, `d[k]` with one plain subscript (evalIndex; errors at the Index, as in evalNode).
// The object and the subscript are operands, so that `p["x"]` or `xs[k]` reads both in place.
struct CIndex : CExpr {
  CIndex(Expr* e, Run r) : CExpr(e, r, testValue) {}
  COperand object, index;
  mutable uint32_t hint = 0;  // a dict's entry of the last hit (DictObj::find)
};
template <Opnd L, Opnd R>
Value runIndex(const CExpr& self, Frame& f, Evaluator& ev) {
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
  return ev.indexOp(static_cast<Index*>(self.src), object, index);
}
template <Opnd L, Opnd R>
struct IndexRun {
  static CExpr::Run get() { return runIndex<L, R>; }
};

// The nodes below, like evalNode, turn a UserError into a ScriptError at the node (atSpan).
Value runAttr(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& a = static_cast<const CPair&>(self);
  return atSpan(self.src->span, [&] {
    return getAttribute(ev.interpreter(), a.a->run(*a.a, f, ev),
                        static_cast<Attr*>(self.src)->name);
  });
}
Value runNot(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& n = static_cast<const CPair&>(self);
  return atSpan(self.src->span, [&] { return Value::boolean(!truthy(n.a->run(*n.a, f, ev))); });
}
Value runLogical(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& l = static_cast<const CPair&>(self);
  return atSpan(self.src->span, [&] {
    // `and`/`or` return an operand, like Python: `x or default`.
    Value lhs = l.a->run(*l.a, f, ev);
    bool t = truthy(lhs);
    if (static_cast<Logical*>(self.src)->isAnd ? !t : t) return lhs;
    return l.b->run(*l.b, f, ev);
  });
}
Value runTernary(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& t = static_cast<const CPair&>(self);
  return atSpan(self.src->span, [&] {
    return truthy(t.a->run(*t.a, f, ev)) ? t.b->run(*t.b, f, ev) : t.c->run(*t.c, f, ev);
  });
}

struct CList : CExpr {
  CList(Expr* e, Run r) : CExpr(e, r, testValue) {}
  std::vector<CExpr*> elems;
  std::vector<CExpr*> values;  // a dict's
  std::vector<const std::string*> recordKeys;  // a record's (runRecordLit)
};
Value runListLit(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& l = static_cast<const CList&>(self);
  return atSpan(self.src->span, [&] {
    std::vector<Value> items;
    items.reserve(l.elems.size());
    for (CExpr* x : l.elems) items.push_back(x->run(*x, f, ev));
    return makeList(std::move(items));
  });
}
Value runTupleLit(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& l = static_cast<const CList&>(self);
  return atSpan(self.src->span, [&] {
    std::vector<Value> items;
    items.reserve(l.elems.size());
    for (CExpr* x : l.elems) items.push_back(x->run(*x, f, ev));
    return makeTuple(std::move(items));
  });
}
Value runDictLit(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& d = static_cast<const CList&>(self);
  return atSpan(self.src->span, [&] {
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
  });
}
// `{"x": x, "y": y}`: a dict literal whose keys are distinct string literals, so that each
// field is appended without looking for an earlier one.
Value runRecordLit(const CExpr& self, Frame& f, Evaluator& ev) {
  auto& d = static_cast<const CList&>(self);
  return atSpan(self.src->span, [&] {
    Ref<DictObj> out = make<DictObj>();
    out->entries.reserve(d.values.size());
    for (size_t i = 0; i < d.values.size(); ++i)
      out->insertNew(*d.recordKeys[i], d.values[i]->run(*d.values[i], f, ev));
    return out.value();
  });
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

}  // namespace

namespace {

// How a left operand of kind l is read when the right one is of kind r. A global read by
// reference would see what the right operand's code assigns to it, and could dangle if that
// code defined new globals (the module's slots would move): before an operand that runs
// code, a global is read as a value, as the tree walk reads it. A local cannot change under
// its frame, nor move.
Opnd readFirst(Opnd l, Opnd r) {
  return l == Opnd::Global && r == Opnd::Any ? Opnd::Any : l;
}

COperand operandOf(ClosureCompiler& cc, Expr* e, Opnd& kind) {
  COperand o;
  switch (e->kind) {
    case ExprKind::IntLit:
      kind = Opnd::Const;
      o.value = Value::integer(static_cast<IntLit*>(e)->value);
      return o;
    case ExprKind::FloatLit:
      kind = Opnd::Const;
      o.value = Value::real(static_cast<FloatLit*>(e)->value);
      return o;
    case ExprKind::StrLit:
      kind = Opnd::Const;
      o.value = static_cast<StrLit*>(e)->cached;
      return o;
    default:
      break;
  }
  o.node = cc.expr(e);
  kind = Opnd::Any;
  if (e->kind == ExprKind::Name) {
    const VarRef& ref = static_cast<Name*>(e)->ref;
    if (ref.kind == VarRef::Kind::Local || ref.kind == VarRef::Kind::Global) {
      kind = ref.kind == VarRef::Kind::Local ? Opnd::Local : Opnd::Global;
      o.slot = ref.index;
    }
  }
  return o;
}

}  // namespace

CExpr* ClosureCompiler::expr(Expr* e) {
  switch (e->kind) {
    case ExprKind::IntLit:
      return node<CConst>(e, Value::integer(static_cast<IntLit*>(e)->value));
    case ExprKind::FloatLit:
      return node<CConst>(e, Value::real(static_cast<FloatLit*>(e)->value));
    case ExprKind::StrLit:
      return node<CConst>(e, static_cast<StrLit*>(e)->cached);
    case ExprKind::BoolLit:
      return node<CConst>(e, Value::boolean(static_cast<BoolLit*>(e)->value));
    case ExprKind::NoneLit:
      return node<CConst>(e, Value::none());
    case ExprKind::Name: {
      const VarRef& ref = static_cast<Name*>(e)->ref;
      if (ref.kind == VarRef::Kind::Local) return node<CSlot>(e, runLocal, ref.index);
      if (ref.kind == VarRef::Kind::Global) return node<CSlot>(e, runGlobal, ref.index);
      break;
    }
    case ExprKind::Binary: {
      auto* b = static_cast<Binary*>(e);
      Opnd l, r;
      COperand lhs = operandOf(*this, b->lhs, l);
      COperand rhs = operandOf(*this, b->rhs, r);
      l = readFirst(l, r);
      auto* n = node<CBinary>(e, takesIntHandler(l, lhs, r, rhs, b->op)
                                     ? pickOp<IntBinaryRun>(l, r, b->op)
                                     : pick<BinaryRun>(l, r));
      n->op = b->op;
      n->lhs = std::move(lhs);
      n->rhs = std::move(rhs);
      return n;
    }
    case ExprKind::Compare: {
      auto* c = static_cast<Compare*>(e);
      if (c->ops.size() != 1) break;
      Opnd l, r;
      COperand lhs = operandOf(*this, c->operands[0], l);
      COperand rhs = operandOf(*this, c->operands[1], r);
      l = readFirst(l, r);
      auto* n = node<CCompare>(e, pick<CompareRun>(l, r),
                               takesIntHandler(l, lhs, r, rhs, c->ops[0])
                                   ? pickOp<IntCompareTest>(l, r, c->ops[0])
                                   : pick<CompareTest>(l, r));
      n->op = c->ops[0];
      n->lhs = std::move(lhs);
      n->rhs = std::move(rhs);
      return n;
    }
    case ExprKind::Call: {
      auto* c = static_cast<Call*>(e);
      CCall* n;
      if (c->callee->kind == ExprKind::Attr) {
        n = node<CCall>(e, runCallMethod);
        n->callee = expr(static_cast<Attr*>(c->callee)->object);
      } else {
        auto* name = c->callee->kind == ExprKind::Name ? static_cast<Name*>(c->callee) : nullptr;
        bool global = name && name->ref.kind == VarRef::Kind::Global;
        uint32_t local;
        int64_t addend;
        if (global && c->args.size() == 1 && c->kwNames.empty() &&
            isStepArgument(c->args[0], local, addend)) {
          auto* s = node<CStepCall>(e, runCallGlobalStep);
          s->local = local;
          s->addend = addend;
          n = s;
        } else {
          n = node<CCall>(e, global ? runCallGlobal : runCallAny);
        }
        n->callee = expr(c->callee);
        if (global) n->slot = name->ref.index;
      }
      for (Expr* a : c->args) n->args.push_back(expr(a));
      if (c->kwNames.empty()) n->arity = static_cast<int64_t>(c->args.size());
      return n;
    }
    case ExprKind::Index: {
      auto* x = static_cast<Index*>(e);
      if (x->subs.size() != 1 || x->hasTuple || x->subs[0].kind != Subscript::Kind::Single) break;
      Opnd l, r;
      COperand object = operandOf(*this, x->object, l);
      COperand index = operandOf(*this, x->subs[0].index, r);
      auto* n = node<CIndex>(e, pick<IndexRun>(readFirst(l, r), r));
      n->object = std::move(object);
      n->index = std::move(index);
      return n;
    }
    case ExprKind::Attr: {
      auto* n = node<CPair>(e, runAttr);
      n->a = expr(static_cast<Attr*>(e)->object);
      return n;
    }
    case ExprKind::Not: {
      auto* n = node<CPair>(e, runNot);
      n->a = expr(static_cast<Not*>(e)->operand);
      return n;
    }
    case ExprKind::Logical: {
      auto* l = static_cast<Logical*>(e);
      auto* n = node<CPair>(e, runLogical);
      n->a = expr(l->lhs);
      n->b = expr(l->rhs);
      return n;
    }
    case ExprKind::Ternary: {
      auto* t = static_cast<Ternary*>(e);
      auto* n = node<CPair>(e, runTernary);
      n->a = expr(t->cond);
      n->b = expr(t->then);
      n->c = expr(t->otherwise);
      return n;
    }
    case ExprKind::ListLit:
    case ExprKind::TupleLit: {
      auto& elems = e->kind == ExprKind::ListLit ? static_cast<ListLit*>(e)->elems
                                                 : static_cast<TupleLit*>(e)->elems;
      auto* n = node<CList>(e, e->kind == ExprKind::ListLit ? runListLit : runTupleLit);
      for (Expr* x : elems) n->elems.push_back(expr(x));
      return n;
    }
    case ExprKind::DictLit: {
      auto* d = static_cast<DictLit*>(e);
      auto* n = node<CList>(e, runDictLit);
      n->recordKeys = recordKeysOf(d);
      if (!n->recordKeys.empty()) n->run = runRecordLit;
      for (size_t i = 0; i < d->keys.size(); ++i) {
        n->elems.push_back(expr(d->keys[i]));
        n->values.push_back(expr(d->values[i]));
      }
      return n;
    }
    default:
      break;
  }
  return node<CExpr>(e, runTree, testTree);
}

}  // namespace tessel::interp
