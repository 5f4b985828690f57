// Scalar formulas of float floor division and modulo (the i32 ones, and integer power, are
// ops/elementwise_math.h's, shared with the shaders), shared by the eager kernels
// (binary.cpp) and the fused tile loops (backends/graph/cpu_fused.cpp), so a fused program
// divides exactly like the eager chain it replaced. Python's semantics (language.md: `//` and
// `%` floor like Python), which PyTorch's div(rounding_mode="floor") and remainder follow.
#pragma once

#include <cmath>
#include <cstdint>

namespace tessel::backends::cpu {

// Note [Float floor division]
// floor(a / b) is wrong where a / b is exact but the true quotient is not: 0.3 // -inf is
// -1.0 in Python (the remainder 0.3 has the divisor's opposite sign), not floor(-0.0), and
// inf // x is NaN, not inf. Python's float_floor_div (and PyTorch's div_floor_floating) derive
// the quotient from fmod instead, which also keeps it consistent with `%`; b == 0 gives the
// IEEE quotient (inf or NaN), as both do.
inline float floorDivF(float a, float b) {
  if (b == 0.0f) return a / b;
  const float mod = std::fmod(a, b);
  float div = (a - mod) / b;
  if (mod != 0.0f && (b < 0.0f) != (mod < 0.0f)) div -= 1.0f;
  if (div == 0.0f) return std::copysign(0.0f, a / b);
  float q = std::floor(div);
  if (div - q > 0.5f) q += 1.0f;
  return q;
}
inline float modF(float a, float b) {
  float r = std::fmod(a, b);
  return (r != 0.0f && ((r < 0.0f) != (b < 0.0f))) ? r + b : r;
}
/// clamp: min(max(x, lo), hi) as PyTorch, so lo > hi gives hi everywhere, and a NaN operand,
/// the bounds' included, gives NaN (x != x is false for integers).
template <class T>
inline T clampValue(T x, T lo, T hi) {
  const T r = (x < lo || lo != lo) ? lo : x;
  return (r > hi || hi != hi) ? hi : r;
}

}  // namespace tessel::backends::cpu
