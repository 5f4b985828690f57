// Operators in closure code: binary operators, comparisons (single and chained), unary minus
// and plus, `not`, `and`/`or` and the ternary; their handlers and the compile function of each
// kind (Note [Closure code] in code.h).
#include "interp/eval/operands.h"
#include "interp/values/operators.h"
#include "interp/values/sym_value.h"
#include "interp/values/tensor_hooks.h"

namespace tessel::interp {
namespace {

struct CBinary : CExpr {
  CBinary(Expr* e, Run r) : CExpr(e, r, testValue) {}
  BinaryOp op;
  COperand lhs, rhs;
};

// The generic operator, errors at the node (Note [Spans] in engine.h).
Value applyBinary(const CExpr& b, const Value& lhs, const Value& rhs, Engine& ev) {
  ev.at(b.src->span);
  return binaryOp(static_cast<Binary*>(b.src)->op, lhs, rhs);
}

// Note [Frameless fast paths]
// A handler that may call out (to an operand's node, to the generic operator) saves registers
// and builds a stack frame on entry, which costs about as much as `n - 1` itself. When both
// operands are locals or constants, the int case needs no call, so it is tested in a handler
// of its own that needs no frame, and everything else is a tail call of the full handler
// (noinline, so that it stays a call and the fast path stays frameless). An unassigned local
// or global is Undefined, not Int, so the full handler raises its NameError (or reads the
// built-in), as before.

// An operand that is neither a local nor a constant leaves no fast path to try first: such
// pairs run the full handler directly.
constexpr bool hasFastPath(Opnd l, Opnd r) {
  return l != Opnd::Any && r != Opnd::Any;
}

// The generic binary operator once the int fast path did not apply: floats inline,
// everything else through binaryOp.
[[gnu::noinline]] Value binaryNotInts(const CBinary& b, const Value& lhs, const Value& rhs,
                                      Engine& ev) {
  if (lhs.is(Type::Float) && rhs.is(Type::Float)) {
    double r;
    if (floatArith(b.op, lhs.asFloat(), rhs.asFloat(), r)) return Value::real(r);
  }
  return applyBinary(b, lhs, rhs, ev);
}
// A binary operator: ints and floats inline, everything else through the generic operator.
template <Opnd L, Opnd R>
[[gnu::noinline]] Value runBinaryFull(const CExpr& self, Frame& f, Engine& ev) {
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
Value runBinary(const CExpr& self, Frame& f, Engine& ev) {
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

// The generic comparison: any types; a chain (`a < b <= c`, operands.size() > 2) is evaluated
// left to right and stopped at the first false, its later operands run from `rest`.
Value compareChain(Expr* src, Frame& f, Engine& ev, Value lhs, Value rhs,
                   const CExpr* const* rest = nullptr) {
  auto* c = static_cast<Compare*>(src);
  ev.at(c->span);
  for (size_t i = 0;; ++i) {
    if (i > 0) {
      rhs = rest[i - 1]->run(*rest[i - 1], f, ev);
      ev.at(c->span);
    }
    bool holds, ok;
    if (lhs.is(Type::Int) && rhs.is(Type::Int) &&
        (holds = compareInts(c->ops[i], lhs.asInt(), rhs.asInt(), ok), ok)) {
    } else if ((lhs.is(Type::SymInt) || rhs.is(Type::SymInt)) && c->ops.size() == 1 &&
               c->ops[0] != CompareOp::In && c->ops[0] != CompareOp::NotIn) {
      // A comparison of sizes stays symbolic until a branch needs its truth (a guard).
      return symCompare(c->ops[0], lhs, rhs);
    } else if (lhs.is(Type::Tensor) || rhs.is(Type::Tensor)) {
      // Tensor comparisons are elementwise and give a bool tensor; they do not chain.
      if (c->ops.size() > 1)
        raise(ErrorKind::TypeError, "chained comparisons are not supported on tensors", c->span);
      return tensorHooks().compare(c->ops[i], lhs, rhs);
    } else {
      holds = compareValues(c->ops[i], lhs, rhs);
    }
    if (!holds) return Value::boolean(false);
    if (i + 1 == c->ops.size()) return Value::boolean(true);
    lhs = std::move(rhs);
  }
}

struct CCompare : CExpr {
  CCompare(Expr* e, Run r, Test t) : CExpr(e, r, t) {}
  CompareOp op;
  COperand lhs, rhs;
};

// One comparison, as a value and as a branch condition (chains: runCompareChain), with
// frameless fast paths for locals and constants (Note [Frameless fast paths]).
template <Opnd L, Opnd R>
[[gnu::noinline]] Value runCompareFull(const CExpr& self, Frame& f, Engine& ev) {
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
  return compareChain(c.src, f, ev, lhs, rhs);
}
template <Opnd L, Opnd R>
[[gnu::noinline]] bool testCompareFull(const CExpr& self, Frame& f, Engine& ev) {
  return ev.truthOf(runCompareFull<L, R>(self, f, ev), self.src);
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
Value runCompare(const CExpr& self, Frame& f, Engine& ev) {
  if constexpr (hasFastPath(L, R)) {
    bool ok;
    bool holds = compareFast<L, R>(static_cast<const CCompare&>(self), f, ok);
    if (ok) [[likely]]
      return Value::boolean(holds);
  }
  return runCompareFull<L, R>(self, f, ev);
}
template <Opnd L, Opnd R>
bool testCompare(const CExpr& self, Frame& f, Engine& ev) {
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
Value runIntBinary(const CExpr& self, Frame& f, Engine& ev) {
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
Value runIntBinaryFetched(const CExpr& self, Frame& f, Engine& ev) {
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
bool testIntCompare(const CExpr& self, Frame& f, Engine& ev) {
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


// `a < b <= c`: the chain, its operands past the first two run only as far as it goes.
struct CChain : CExpr {
  CChain(Expr* e, Run r) : CExpr(e, r, testValue) {}
  CExpr* first = nullptr;
  CExpr* second = nullptr;
  std::vector<const CExpr*> rest;
};
Value runCompareChain(const CExpr& self, Frame& f, Engine& ev) {
  auto& c = static_cast<const CChain&>(self);
  Value lhs = c.first->run(*c.first, f, ev);
  Value rhs = c.second->run(*c.second, f, ev);
  return compareChain(self.src, f, ev, std::move(lhs), std::move(rhs), c.rest.data());
}

Value runUnary(const CExpr& self, Frame& f, Engine& ev) {
  auto& u = static_cast<const CPair&>(self);
  Value v = u.a->run(*u.a, f, ev);
  ev.at(self.src->span);
  return unaryOp(static_cast<Unary*>(self.src)->op, v);
}
Value runNot(const CExpr& self, Frame& f, Engine& ev) {
  auto& n = static_cast<const CPair&>(self);
  Value v = n.a->run(*n.a, f, ev);
  ev.at(self.src->span);
  return Value::boolean(!truthy(v));
}
Value runLogical(const CExpr& self, Frame& f, Engine& ev) {
  auto& l = static_cast<const CPair&>(self);
  // `and`/`or` return an operand, like Python: `x or default`.
  Value lhs = l.a->run(*l.a, f, ev);
  ev.at(self.src->span);
  bool t = truthy(lhs);
  if (static_cast<Logical*>(self.src)->isAnd ? !t : t) return lhs;
  return l.b->run(*l.b, f, ev);
}
Value runTernary(const CExpr& self, Frame& f, Engine& ev) {
  auto& t = static_cast<const CPair&>(self);
  Value cond = t.a->run(*t.a, f, ev);
  ev.at(self.src->span);
  return truthy(cond) ? t.b->run(*t.b, f, ev) : t.c->run(*t.c, f, ev);
}

}  // namespace

CExpr* ClosureCompiler::compileBinary(Binary* b) {
  Opnd l, r;
  COperand lhs = operandOf(*this, b->lhs, l);
  COperand rhs = operandOf(*this, b->rhs, r);
  l = readFirst(l, r);
  auto* n = node<CBinary>(b, takesIntHandler(l, lhs, r, rhs, b->op) ? pickOp<IntBinaryRun>(l, r, b->op)
                                                                     : pick<BinaryRun>(l, r));
  n->op = b->op;
  n->lhs = std::move(lhs);
  n->rhs = std::move(rhs);
  return n;
}

CExpr* ClosureCompiler::compileCompare(Compare* c) {
  if (c->ops.size() != 1) {
    auto* n = node<CChain>(c, runCompareChain);
    n->first = expr(c->operands[0]);
    n->second = expr(c->operands[1]);
    for (size_t i = 2; i < c->operands.size(); ++i) n->rest.push_back(expr(c->operands[i]));
    return n;
  }
  Opnd l, r;
  COperand lhs = operandOf(*this, c->operands[0], l);
  COperand rhs = operandOf(*this, c->operands[1], r);
  l = readFirst(l, r);
  auto* n = node<CCompare>(c, pick<CompareRun>(l, r),
                           takesIntHandler(l, lhs, r, rhs, c->ops[0])
                               ? pickOp<IntCompareTest>(l, r, c->ops[0])
                               : pick<CompareTest>(l, r));
  n->op = c->ops[0];
  n->lhs = std::move(lhs);
  n->rhs = std::move(rhs);
  return n;
}

CExpr* ClosureCompiler::compileUnary(Unary* u) {
  auto* n = node<CPair>(u, runUnary);
  n->a = expr(u->operand);
  return n;
}

CExpr* ClosureCompiler::compileNot(Not* e) {
  auto* n = node<CPair>(e, runNot);
  n->a = expr(e->operand);
  return n;
}

CExpr* ClosureCompiler::compileLogical(Logical* l) {
  auto* n = node<CPair>(l, runLogical);
  n->a = expr(l->lhs);
  n->b = expr(l->rhs);
  return n;
}

CExpr* ClosureCompiler::compileTernary(Ternary* t) {
  auto* n = node<CPair>(t, runTernary);
  n->a = expr(t->cond);
  n->b = expr(t->then);
  n->c = expr(t->otherwise);
  return n;
}

}  // namespace tessel::interp
