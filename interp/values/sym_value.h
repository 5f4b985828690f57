// Symbolic ints and bools as interpreter values. While a @compile function is traced, sizes of
// its inputs are symbols with hints (compiler.md, "Tracing"): `x.shape[0] * 2` stays `2*s0`,
// and a condition becomes a concrete bool only where the program needs one, which records a
// guard through the shape engine. Outside tracing these values never exist.
#pragma once

#include <memory>

#include "interp/syntax/ast.h"
#include "interp/values/objects.h"
#include "shapes/sym_float.h"
#include "shapes/sym_int.h"

namespace tessel::backends::tpu {
class Segment;  // backends/tpu/lazy.h: the program a bounded size belongs to
}  // namespace tessel::backends::tpu

namespace tessel::interp {

struct SymIntObj : Object {
  explicit SymIntObj(shapes::SymInt v) : Object(Type::SymInt), value(std::move(v)) {}
  shapes::SymInt value;
  /// Set for a bounded size of a tpu tensor (backends.md, "tpu"): prints `<=N`, keeps its
  /// bound through + - * // %, and gives its real value to int(), comparisons and branches.
  std::shared_ptr<backends::tpu::Segment> segment;
};

struct SymBoolObj : Object {
  explicit SymBoolObj(shapes::SymBool v) : Object(Type::SymBool), value(std::move(v)) {}
  shapes::SymBool value;
};

/// A float computed from symbols while tracing (Note [Symbolic floats] in shapes/sym_float.h):
/// `b1 ** t` of a symbolic step count, `lr * 0.5` of a float input.
struct SymFloatObj : Object {
  explicit SymFloatObj(shapes::SymFloat v) : Object(Type::SymFloat), value(std::move(v)) {}
  shapes::SymFloat value;
};

/// True for a bounded size of a tpu tensor (a SymInt value with its segment).
inline bool isBounded(const Value& v) {
  return v.is(Type::SymInt) && v.as<SymIntObj>()->segment != nullptr;
}

/// A SymInt as a value: a plain int when it is a constant.
Value makeSymInt(const shapes::SymInt& v);
Value makeSymBool(const shapes::SymBool& v);
/// A bounded size of a tpu tensor as a value (a plain int when it is a constant).
Value makeBoundedSize(const shapes::SymInt& v, std::shared_ptr<backends::tpu::Segment> segment);
/// `<=N` for a bounded size of `segment` (a constant prints as itself).
std::string boundedSizeText(const shapes::SymInt& v,
                            const std::shared_ptr<backends::tpu::Segment>& segment);

/// A SymFloat as a value: a plain float when it is a constant.
Value makeSymFloat(const shapes::SymFloat& v);

/// True for int, bool and symbolic int values.
inline bool isIntLike(const Value& v) {
  return v.is(Type::Int) || v.is(Type::Bool) || v.is(Type::SymInt);
}
/// The value as a SymInt (constant for ints and bools). Requires isIntLike(v).
shapes::SymInt toSymInt(const Value& v);

/// True for numbers, bools and symbolic ints and floats.
inline bool isScalarLike(const Value& v) {
  return isIntLike(v) || v.is(Type::Float) || v.is(Type::SymFloat);
}
/// The value as a SymFloat. Requires isScalarLike(v).
shapes::SymFloat toSymFloat(const Value& v);

/// Arithmetic and comparisons where an operand is symbolic; the other is int-like or float.
/// Float arithmetic stays symbolic (a SymFloat); comparisons with a float need its value.
Value symBinary(BinaryOp op, const Value& a, const Value& b);
Value symCompare(CompareOp op, const Value& a, const Value& b);
/// The concrete value a program needs: guards through the shape engine.
int64_t concreteInt(const Value& v);
bool concreteBool(const Value& v);
/// The value of a number, symbolic or not (a symbolic float is specialized: guards, logged).
double concreteFloat(const Value& v);
/// A math function of one number (sqrt, exp, log, ...) that keeps a symbolic operand symbolic.
Value symUnaryFloat(shapes::FloatOp op, const Value& a);

}  // namespace tessel::interp
