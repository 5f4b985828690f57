// The fused tile loops of the ops of ops/elementwise.ops (cpu_fused.cpp runs them).
#pragma once

#include <cstdint>

#include "shapes/op_kind.h"

namespace tessel::graph {

/// o[k] = op's f32 formula of args[0..arity)[k], k < n.
void definedTileF(shapes::OpKind op, const float* const* args, float* o, int64_t n);
/// The same in i32 (ops whose result keeps integers); a zero divisor of an op that checks
/// them is a ZeroDivisionError, as in the eager kernel.
void definedTileI(shapes::OpKind op, const int32_t* const* args, int32_t* o, int64_t n);

}  // namespace tessel::graph
