// Helpers of the elementwise formulas (ops/elementwise.ops), written once in the common subset
// of C++ and GLSL: the cpu kernels compile this file as C++ (ops/elementwise_cpu.h, with
// ops/glsl_compat.h supplying GLSL's built-ins), and tools/opgen.py pastes it into the GLSL that
// elementwise.comp and the fused vulkan kernels compile. So the rules here (float literals with
// an `f`, no references, no templates, functions declared before use) are both languages'.
// No include guard: GLSL has no #pragma once, and each language includes it once. EW_FN is
// `inline` in C++ (glsl_compat.h) and nothing in GLSL.

#ifdef TESSEL_GLSL
// C library functions that GLSL lacks, for the formulas; C++ takes them from libm
// (glsl_compat.h).
// fmod(a, b), the C remainder (a's sign). a - b * trunc(a / b) is exact while the quotient
// is; the edges are C's: NaN for an infinite a or a zero b, a for an infinite b.
EW_FN float ew_fmod(float a, float b) {
  if (isnan(a) || isnan(b) || isinf(a) || b == 0.0f) return uintBitsToFloat(0x7fc00000u);
  if (isinf(b)) return a;
  return a - b * trunc(a / b);
}
// An i32 division by zero raises the kernel's error flag (the host then throws
// ZeroDivisionError; the includer defines raiseFlag). The cpu checks the divisors first.
EW_FN int ew_int_div_zero() {
  raiseFlag(1u);
  return 0;
}
EW_FN int ew_int_negative_exponent() {
  raiseFlag(2u);
  return 0;
}
#endif

// Python's floor division and modulo of i32 (language.md: `//` and `%` floor), and the integer
// power, all wrapping around like PyTorch's integer tensors (INT_MIN // -1 is INT_MIN). The ops
// floordiv, mod and pow of shapes/op_list.def run these on every backend.
EW_FN int ew_floordiv_i(int a, int b) {
  if (b == 0) return ew_int_div_zero();
  if (b == -1) return int(0u - uint(a));
  const int q = a / b;
  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}
EW_FN int ew_mod_i(int a, int b) {
  if (b == 0) return ew_int_div_zero();
  if (b == -1) return 0;
  const int r = a - (a / b) * b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
EW_FN int ew_pow_i(int base, int exponent) {
  if (exponent < 0) return ew_int_negative_exponent();
  uint result = 1u, b = uint(base);
  for (uint e = uint(exponent); e != 0u; e >>= 1u) {
    if ((e & 1u) != 0u) result *= b;
    b *= b;
  }
  return int(result);
}

EW_FN float ew_nan() { return uintBitsToFloat(0x7fc00000u); }
EW_FN float ew_inf() { return uintBitsToFloat(0x7f800000u); }
EW_FN bool ew_signbit(float x) { return (floatBitsToUint(x) & 0x80000000u) != 0u; }
#ifdef TESSEL_GLSL
// log with C's edges, which GLSL leaves undefined: NaN below 0, -inf at 0. (C++'s is
// vec_math.h's vlog, which has them already: glsl_compat.h.)
EW_FN float ew_log(float x) { return x < 0.0f ? ew_nan() : (x == 0.0f ? -ew_inf() : log(x)); }
#endif

// log1p and expm1, the same on every backend and branch-free, so that a cpu row over them
// vectorizes (libm's are scalar calls, 8x slower than PyTorch's). Small |x| takes a series,
// exact where 1 + x would drop digits (and where GPU logs are accurate in absolute terms only:
// lavapipe's is off by 1% at 1 - 1e-6): log1p(x) = 2 atanh(s), s = x / (2 + x); expm1's Taylor
// series (Kahan's (e^x - 1) * x / log(e^x) would be folded to e^x - 1 by a shader compiler).
// The edges are C's.
EW_FN float ew_log1p(float x) {
  const float s = x / (2.0f + x), s2 = s * s;
  float p = 1.0f / 17.0f;
  p = p * s2 + 1.0f / 15.0f;
  p = p * s2 + 1.0f / 13.0f;
  p = p * s2 + 1.0f / 11.0f;
  p = p * s2 + 1.0f / 9.0f;
  p = p * s2 + 1.0f / 7.0f;
  p = p * s2 + 0.2f;
  p = p * s2 + 1.0f / 3.0f;
  p = p * s2 + 1.0f;
  float r = abs(x) < 0.5f ? 2.0f * s * p : log(1.0f + x);
  r = x == -1.0f ? -ew_inf() : r;
  r = (x > 0.0f && isinf(x)) ? x : r;
  return (x < -1.0f || isnan(x)) ? ew_nan() : r;
}
EW_FN float ew_expm1(float x) {
  float p = 1.0f / 362880.0f;
  p = p * x + 1.0f / 40320.0f;
  p = p * x + 1.0f / 5040.0f;
  p = p * x + 1.0f / 720.0f;
  p = p * x + 1.0f / 120.0f;
  p = p * x + 1.0f / 24.0f;
  p = p * x + 1.0f / 6.0f;
  p = p * x + 0.5f;
  float r = abs(x) < 0.5f ? x + x * x * p : exp(x) - 1.0f;
  r = x > 88.8f ? ew_inf() : r;
  r = x < -17.0f ? -1.0f : r;
  return isnan(x) ? x : r;
}

EW_FN float ew_copysign(float a, float b) {
  return uintBitsToFloat((floatBitsToUint(a) & 0x7fffffffu) | (floatBitsToUint(b) & 0x80000000u));
}

// atan2 with C's edges (GLSL's atan(y, x) leaves x = y = 0 undefined and llvmpipe divides
// inf by inf): signed zeros pick 0 or pi, infinities the diagonals.
EW_FN float ew_atan2(float y, float x) {
  const float pi = 3.14159265358979f;
  if (isnan(x) || isnan(y)) return ew_nan();
  if (isinf(x) || (x == 0.0f && (y == 0.0f || isinf(y)))) {
    float r;
    if (isinf(y)) r = isinf(x) ? (x > 0.0f ? 0.25f * pi : 0.75f * pi) : 0.5f * pi;
    else r = ew_signbit(x) ? pi : 0.0f;
    return ew_signbit(y) ? -r : r;
  }
  return atan(y, x);
}

#ifdef TESSEL_GLSL
// asin and acos through the two-argument atan: lavapipe's asin is off by 4e-4 relative (its
// own polynomial), its atan by ulps; (1 - x)(1 + x) keeps the digits near +-1. (C++ calls
// libm's asinf and acosf, which have these edges and vectorize: glsl_compat.h.)
EW_FN float ew_asin(float x) {
  if (isnan(x) || abs(x) > 1.0f) return ew_nan();
  return ew_atan2(x, sqrt((1.0f - x) * (1.0f + x)));
}
EW_FN float ew_acos(float x) {
  if (isnan(x) || abs(x) > 1.0f) return ew_nan();
  return ew_atan2(sqrt((1.0f - x) * (1.0f + x)), x);
}
#endif

// sinh and cosh from exp: a series near 0, where e^x - e^-x cancels; e^(|x| - ln 2) beyond 9,
// where e^-x no longer counts and e^x alone would overflow 89 too early.
EW_FN float ew_sinh(float x) {
  const float a = abs(x);
  if (isnan(x)) return x;
  if (a < 0.5f) {
    const float x2 = x * x;
    float p = 1.0f / 362880.0f;
    p = p * x2 + 1.0f / 5040.0f;
    p = p * x2 + 1.0f / 120.0f;
    p = p * x2 + 1.0f / 6.0f;
    return x + x * x2 * p;
  }
  float r;
  if (a > 9.0f) {
    r = exp(a - 0.693147180559945f);
  } else {
    const float e = exp(a);
    r = 0.5f * (e - 1.0f / e);
  }
  return x < 0.0f ? -r : r;
}
EW_FN float ew_cosh(float x) {
  const float a = abs(x);
  if (isnan(x)) return x;
  if (a > 9.0f) return exp(a - 0.693147180559945f);
  const float e = exp(a);
  return 0.5f * (e + 1.0f / e);
}
// tanh as Cephes' tanhf, written with selects so that a cpu loop over it vectorizes (glibc's
// tanhf is a scalar call, and GLSL's tanh is NaN past |x| ~ 44 on some drivers, where e^2x
// overflows): x + x^3 P(x^2) below 0.625, where 1 - 2 / (e^2|x| + 1) would cancel; beyond,
// that with |x| capped at 20, past which tanh rounds to 1 in f32 anyway. Within 2 ulp.
EW_FN float ew_tanh(float x) {
  const float ax = abs(x);
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = x + x * z * p;
  const float e = exp(2.0f * (ax < 20.0f ? ax : 20.0f));
  const float big = 1.0f - 2.0f / (e + 1.0f);
  const float r = ax < 0.625f ? small : (x < 0.0f ? -big : big);
  return isnan(x) ? x : r;
}

// The inverse hyperbolic functions through log1p, exact near 0 (the textbook log(x + sqrt(...))
// loses every digit there); log(x) + ln 2 beyond 1e9, where x * x would overflow. Both sides
// are computed and selected (no early return), so that a cpu loop over them vectorizes; the
// side not taken may be inf or NaN (the kernels do not trap).
EW_FN float ew_asinh(float x) {
  const float a = abs(x);
  const float r = a > 1e9f ? log(a) + 0.693147180559945f
                           : ew_log1p(a + a * a / (1.0f + sqrt(1.0f + a * a)));
  const float s = x < 0.0f ? -r : r;
  return isnan(x) ? x : s;
}
EW_FN float ew_acosh(float x) {
  const float t = x - 1.0f;
  const float r = x > 1e9f ? log(x) + 0.693147180559945f : ew_log1p(t + sqrt(t * (x + 1.0f)));
  return (isnan(x) || x < 1.0f) ? ew_nan() : r;
}
EW_FN float ew_atanh(float x) {
  const float a = abs(x);
  float r = 0.5f * ew_log1p(2.0f * x / (1.0f - x));
  r = a == 1.0f ? (x < 0.0f ? -ew_inf() : ew_inf()) : r;
  r = a > 1.0f ? ew_nan() : r;
  return isnan(x) ? x : r;
}

// hypot scaled by the larger magnitude, so neither square overflows or underflows; an infinite
// side wins over a NaN one (C's hypot).
EW_FN float ew_hypot(float a, float b) {
  const float x = abs(a), y = abs(b);
  if (isinf(x) || isinf(y)) return ew_inf();
  if (isnan(x) || isnan(y)) return ew_nan();
  const float m = x > y ? x : y, n = x > y ? y : x;
  if (m == 0.0f) return 0.0f;
  const float r = n / m;
  return m * sqrt(1.0f + r * r);
}

// log(e^a + e^b) = max + log1p(e^-|a - b|); equal arguments give a + ln 2 (and keep +-inf).
EW_FN float ew_logaddexp(float a, float b) {
  if (isnan(a) || isnan(b)) return ew_nan();
  if (a == b) return a + 0.693147180559945f;
  const float m = a > b ? a : b;
  return m + ew_log1p(exp(-abs(a - b)));
}

// PyTorch 1.13's lerp: from input below weight 0.5 and from end above, so that weight 0 gives
// input and weight 1 gives end exactly (later PyTorch tests abs(weight) < 0.5, which differs only
// where a weight below -0.5 meets infinities).
EW_FN float ew_lerp(float a, float b, float w) {
  return w < 0.5f ? a + w * (b - a) : b - (b - a) * (1.0f - w);
}

// Note [One erf]
// erf, written branch-free so that a cpu loop over it vectorizes (glibc's erff is a scalar
// call: it was 14% of a transformer's training step through gelu), and the same on the gpu.
// |x| <= 1: Cephes' erff polynomial x * P(x^2); beyond: Abramowitz & Stegun 7.1.26,
// 1 - t * R(t) * e^(-x^2) with t = 1 / (1 + p|x|), whose absolute error of 1.5e-7 is relative
// there since erf(x) >= 0.84. Within 3 ulp of the correctly rounded result everywhere
// (tests/backends/elementwise_test.cpp); NaN stays NaN. Given e^(-x^2), for gelu's gradient,
// whose density needs that exponential too.
EW_FN float ew_erf_given_exp(float x, float expNegXSquared) {
  const float a = abs(x);
  const float z = x * x;
  float p = 7.853861353153693e-5f;
  p = p * z - 8.010193625184903e-4f;
  p = p * z + 5.188327685732524e-3f;
  p = p * z - 2.685381193529856e-2f;
  p = p * z + 1.128358514861418e-1f;
  p = p * z - 3.761262582423300e-1f;
  p = p * z + 1.128379165726710e+0f;
  const float small = x * p;
  const float t = 1.0f / (0.3275911f * a + 1.0f);
  float r = 1.061405429f;
  r = r * t - 1.453152027f;
  r = r * t + 1.421413741f;
  r = r * t - 0.284496736f;
  r = r * t + 0.254829592f;
  float big = 1.0f - r * t * expNegXSquared;
  big = x < 0.0f ? -big : big;
  return (a <= 1.0f || isnan(x)) ? small : big;
}
EW_FN float ew_erf(float x) { return ew_erf_given_exp(x, exp(-(x * x))); }
