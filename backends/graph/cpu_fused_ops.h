// The op rows of the fused cpu tile loop (cpu_fused.cpp) for shapes/op_list.def's own
// elementwise ops: o[k] = op(a[k] (, b[k])) for k < n, as each op's eager kernel computes it.
#pragma once

#include <cstdint>

#include "shapes/op_kind.h"

namespace tessel::graph {

/// Comparisons and logical and/or: 0/1 in o.
void fusedCompareF(shapes::OpKind op, const float* a, const float* b, int32_t* o, int64_t n);
void fusedCompareI(shapes::OpKind op, const int32_t* a, const int32_t* b, int32_t* o, int64_t n);
/// `bIsTwo`: the exponent of pow is a one-element value equal to 2 (the eager x * x path).
void fusedFloatArith(shapes::OpKind op, const float* a, const float* b, float* o, int64_t n,
                     bool bIsTwo);
/// Integer division by zero and negative powers are user errors, as in the eager kernels.
void fusedIntArith(shapes::OpKind op, const int32_t* a, const int32_t* b, int32_t* o, int64_t n);
/// 0/1 from any integer, in place (a bool result).
void fusedToBool(int32_t* o, int64_t n);

}  // namespace tessel::graph
