// Row loops of the ops of ops/elementwise.ops over contiguous operands (the eager kernels'
// contiguous path and the fused programs' tiles).
#pragma once

#include <cstdint>

#include "shapes/dtype.h"
#include "shapes/op_kind.h"

namespace tessel::backends::cpu {

/// o[k] = op's f32 formula of args[0..arity)[k], k < n.
void definedRowF(shapes::OpKind op, const float* const* args, float* o, int64_t n);
/// definedRowF of a unary op, whose rows may contract multiply-adds (Note [Unary rows contract]
/// in defined_rows_unary.cpp).
void definedUnaryRowF(shapes::OpKind op, const float* x, float* o, int64_t n);
/// A unary test (a `-> bool` op: isnan, logical_not) of contiguous x of dtype `in`, as bool
/// bytes in o.
void definedUnaryTestRow(shapes::OpKind op, shapes::DType in, const void* x, uint8_t* o, int64_t n);
/// The same in i32 (ops whose result keeps integers); a zero divisor of an op that checks
/// them is a ZeroDivisionError, as in the eager kernel.
void definedRowI(shapes::OpKind op, const int32_t* const* args, int32_t* o, int64_t n);

}  // namespace tessel::backends::cpu
