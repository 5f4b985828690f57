// Operands of operators, comparisons and subscripts in closure code: read in place where the
// AST says what they are (Note [Operands]). Private to interp/eval/.
#pragma once

#include "interp/eval/engine.h"

namespace tessel::interp {

// Note [Operands]
// An operand of a binary operator, a comparison or a subscript is read without a call where
// the AST says what it is: a local or global slot (by reference), a literal (kept as a Value),
// or anything else (its node's code). Globals are what top-level loops read. The traced form
// reads globals through their node, which reports the read to the tracer.
enum class Opnd : uint8_t { Any, Local, Global, Const };
struct COperand {
  CExpr* node = nullptr;  // Any; for a slot, what raises when it is unassigned (or a built-in)
  uint32_t slot = 0;      // Local, Global
  Value value;            // Const
};

/// The operand for `e`, and its kind.
COperand operandOf(ClosureCompiler& cc, Expr* e, Opnd& kind);

/// How a left operand of kind l is read when the right one is of kind r. A global read by
/// reference would see what the right operand's code assigns to it, and could dangle if that
/// code defined new globals (the module's slots would move): before an operand that runs
/// code, a global is read as a value. A local cannot change under its frame, nor move.
inline Opnd readFirst(Opnd l, Opnd r) {
  return l == Opnd::Global && r == Opnd::Any ? Opnd::Any : l;
}

// An operand's value, in hand: a slot or the constant by reference, or what the operand's code
// returned, built in place (no temporary moved into a second Value).
template <Opnd K>
class Fetched {
 public:
  [[gnu::always_inline]] Fetched(const COperand& o, Frame& f, Engine& ev)
      : own_(K == Opnd::Any ? o.node->run(*o.node, f, ev) : Value()), ref_(locate(o, f, ev)) {}
  const Value& get() const { return *ref_; }

 private:
  [[gnu::always_inline]] const Value* locate(const COperand& o, Frame& f, Engine& ev) {
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

// A slot or a constant operand, read without a call (Note [Frameless fast paths] in
// operators.cpp).
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

/// Several values of a node, run and kept: a list's elements, a dict's keys and values.
struct CList : CExpr {
  CList(Expr* e, Run r) : CExpr(e, r, testValue) {}
  std::vector<CExpr*> elems;
  std::vector<CExpr*> values;                  // a dict's
  std::vector<const std::string*> recordKeys;  // a record's (runRecordLit)
};
/// Up to three operand nodes (a ternary's condition and branches, an attribute's object).
struct CPair : CExpr {
  CPair(Expr* e, Run r, Test t = testValue) : CExpr(e, r, t) {}
  CExpr* a = nullptr;
  CExpr* b = nullptr;
  CExpr* c = nullptr;
};

}  // namespace tessel::interp
