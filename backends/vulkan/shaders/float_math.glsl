// Float formulas of the elementwise ops, written once: elementwise.comp includes this file
// and the fused kernels' generated GLSL embeds it (fused_codegen.cpp), so a fused program
// computes exactly as the eager kernels it replaced. The includer defines kNaN and kInf.

// gelu's gradient g * (Phi(x) + x * phi(x)), as the cpu's geluBackwardRow: one exp serves
// the density and erf (ops/elementwise_math.h, which the includer has included first).
float geluBackwardF(float g, float x) {
  const float t = x * 0.70710678118654752;
  const float e = exp(-(t * t));
  return g * (0.5 * (1.0 + ew_erf_given_exp(t, e)) + x * (0.3989422804014327 * e));
}
float powF(float x, float y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (isnan(x) || isnan(y)) return kNaN;
  if (y == 2.0) return x * x;
  if (y == 1.0) return x;
  if (x == 0.0) return y > 0.0 ? 0.0 : kInf;
  if (x < 0.0) {
    if (floor(y) != y) return kNaN;
    float r = pow(-x, y);
    return mod(y, 2.0) == 1.0 ? -r : r;
  }
  return pow(x, y);
}
// Python's float floor division from the remainder, as the cpu's floorDivF (Note [Float
// floor division] in backends/cpu/binary_math.h): 0.3 // -inf is -1, inf // x is NaN.
float modF(float a, float b) {
  float r = a - b * trunc(a / b);
  if (isinf(b) && !isinf(a)) r = a;
  return (r != 0.0 && ((r < 0.0) != (b < 0.0))) ? r + b : r;
}
float floorDivF(float a, float b) {
  if (b == 0.0) return a / b;
  float m = a - b * trunc(a / b);  // fmod(a, b)
  if (isinf(b) && !isinf(a)) m = a;
  if (isinf(a) || isnan(a) || isnan(b)) m = kNaN;
  float div = (a - m) / b;
  if (m != 0.0 && ((b < 0.0) != (m < 0.0))) div -= 1.0;
  if (div == 0.0) return (floatBitsToUint(a / b) & 0x80000000u) != 0u ? uintBitsToFloat(0x80000000u) : 0.0;
  float q = floor(div);
  if (div - q > 0.5) q += 1.0;
  return q;
}
// clamp as the cpu's clampValue: a NaN bound gives NaN, lo > hi gives hi.
float clampF(float a, float b, float c) {
  float r = (a < b || isnan(b)) ? b : a;
  return (r > c || isnan(c)) ? c : r;
}
float maxF(float a, float b) { return (isnan(a) || a > b) ? a : b; }
float minF(float a, float b) { return (isnan(a) || a < b) ? a : b; }
