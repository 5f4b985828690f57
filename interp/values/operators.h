// Operators on Values: arithmetic with Python semantics (exact 64-bit ints with overflow
// errors, floor division and modulo), comparisons, membership, truthiness and indexing.
// Errors are thrown as UserErrors; the evaluator adds the span.
#pragma once

#include <optional>

#include "interp/syntax/ast.h"
#include "interp/values/value.h"

namespace tessel::interp {

Value binaryOp(BinaryOp op, const Value& a, const Value& b);
Value unaryOp(UnaryOp op, const Value& a);
bool valuesEqual(const Value& a, const Value& b);
/// Whether a compiled entry specialized on float `a` serves `b`: the same value, NaN matching
/// NaN (`==` never holds for it) and -0.0 apart from 0.0 (1 / x tells them apart).
bool sameFloat(double a, double b);
/// <, <=, >, >= (Eq/Ne/In/NotIn too, for completeness).
bool compareValues(CompareOp op, const Value& a, const Value& b);
bool truthy(const Value& v);
bool contains(const Value& container, const Value& item);

/// Python-style index normalization: negative counts from the end; IndexError when outside.
int64_t normalizeIndex(int64_t index, int64_t size, const char* what);

Value getIndex(const Value& object, const Value& index);
/// object[lo:hi:step] for lists, tuples and strings; missing bounds are nullopt.
Value getSlice(const Value& object, std::optional<int64_t> lo, std::optional<int64_t> hi,
               std::optional<int64_t> step);
void setIndex(const Value& object, const Value& index, Value v);

/// 64-bit arithmetic that reports overflow as an OverflowError.
int64_t checkedAdd(int64_t a, int64_t b);
int64_t checkedSub(int64_t a, int64_t b);
int64_t checkedMul(int64_t a, int64_t b);
int64_t floorDiv(int64_t a, int64_t b);
int64_t floorMod(int64_t a, int64_t b);

/// Python's slice.indices: resolves optional bounds against a length.
struct SliceBounds {
  int64_t start, stop, step, length;
};
SliceBounds resolveSlice(std::optional<int64_t> lo, std::optional<int64_t> hi,
                         std::optional<int64_t> step, int64_t size);

}  // namespace tessel::interp
