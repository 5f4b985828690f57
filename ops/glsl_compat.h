// GLSL's built-in functions and types, as C++, for the formulas of ops/elementwise.ops and the
// helpers of ops/elementwise_math.h, which are written in the common subset of both languages.
// Only ops/elementwise_cpu.h includes this, inside its own namespace.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "backends/cpu/vec_math.h"

// Marks the formula functions: `inline` here, nothing in GLSL.
#define EW_FN inline

namespace tessel::ops::ew {

using uint = uint32_t;

using std::abs;
using std::acos;
using std::asin;
using std::ceil;
using std::cos;
using std::floor;
using std::sin;
using std::sqrt;
using std::tan;
using std::trunc;
// exp and log are the branch-free ones of vec_math.h (Note [Vectorizable math]), so that a
// row loop over a formula vectorizes, as the cpu's own exp and log kernels do.
inline float exp(float x) { return backends::cpu::vexp(x); }
inline float log(float x) { return backends::cpu::vlog(x); }
// log with C's edges (elementwise_math.h's GLSL one adds them): vlog has them.
inline float ew_log(float x) { return backends::cpu::vlog(x); }
// asin and acos with C's edges (NaN outside [-1, 1]): libm's, which the unary rows call in
// their vector form (Note [Vector libm in the unary rows] in defined_rows_unary.cpp).
inline float ew_asin(float x) { return std::asin(x); }
inline float ew_acos(float x) { return std::acos(x); }
inline float roundEven(float x) { return std::nearbyint(x); }  // ties to even, as torch.round
inline float atan(float y) { return std::atan(y); }
inline float atan(float y, float x) { return std::atan2(y, x); }  // GLSL's two-argument atan
inline bool isnan(float v) { return v != v; }
inline bool isinf(float v) { return std::isinf(v); }
inline float uintBitsToFloat(uint u) { return std::bit_cast<float>(u); }
inline uint floatBitsToUint(float f) { return std::bit_cast<uint>(f); }

// The C library functions elementwise_math.h gives GLSL its own versions of.
inline float ew_fmod(float a, float b) { return std::fmod(a, b); }
// The cpu checks i32 divisors and exponents before it runs a formula
// (backends/cpu/elementwise_defined.cpp, binary.cpp), so these branches only have to be defined.
inline int ew_int_div_zero() { return 0; }
inline int ew_int_negative_exponent() { return 0; }

}  // namespace tessel::ops::ew
