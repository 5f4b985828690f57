// Branch-free float exp and log that GCC can vectorize (glibc's expf/logf are scalar calls).
// erf is ops/elementwise_math.h's ew_erf (Note [One erf]), built on this exp.
#pragma once

#include <bit>
#include <cstdint>

namespace tessel::backends::cpu {

// Note [Vectorizable math]
// A loop calling std::exp runs one libm call per element, several times slower than memory
// bandwidth. These are the Cephes single-precision algorithms (range reduction, a short
// polynomial, exponent bit manipulation) written without branches, so that a loop over them
// vectorizes; both are within 2 ulp of the correctly rounded result over the whole float
// range (tests/backends/elementwise_test.cpp compares them with libm), and handle 0, inf and
// NaN like libm. Rounding uses the 1.5 * 2^23 trick instead of nearbyint, which is not
// vectorizable on baseline x86-64.

/// e^x for float x.
inline float vexp(float x) {
  const bool isNan = x != x;
  float xc = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
  xc = isNan ? 0.0f : xc;
  const float kRound = 12582912.0f;  // 1.5 * 2^23
  float n = (xc * 1.44269504088896341f + kRound) - kRound;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  float y = p * r * r + r + 1.0f;
  // 2^n as two factors so that each stays a normal float; the products then overflow to inf
  // or underflow to 0 exactly where e^x does.
  int32_t ni = static_cast<int32_t>(n);
  int32_t n1 = ni >> 1;
  int32_t n2 = ni - n1;
  float s1 = std::bit_cast<float>((n1 + 127) << 23);
  float s2 = std::bit_cast<float>((n2 + 127) << 23);
  y = y * s1 * s2;
  return isNan ? x : y;
}

/// Natural log for float x (NaN for x < 0, -inf for 0).
inline float vlog(float x) {
  const float kMinNormal = 1.17549435e-38f;
  const bool denormal = x < kMinNormal;
  float xs = denormal ? x * 8388608.0f : x;  // scale denormals by 2^23
  int32_t bits = std::bit_cast<int32_t>(xs);
  int32_t e = ((bits >> 23) & 0xff) - 126;
  float m = std::bit_cast<float>((bits & 0x007fffff) | 0x3f000000);  // in [0.5, 1)
  float fe = static_cast<float>(e) - (denormal ? 23.0f : 0.0f);
  const bool small = m < 0.707106781186547524f;
  fe = small ? fe - 1.0f : fe;
  m = small ? m + m - 1.0f : m - 1.0f;
  float z = m * m;
  float y = 7.0376836292e-2f;
  y = y * m - 1.1514610310e-1f;
  y = y * m + 1.1676998740e-1f;
  y = y * m - 1.2420140846e-1f;
  y = y * m + 1.4249322787e-1f;
  y = y * m - 1.6668057665e-1f;
  y = y * m + 2.0000714765e-1f;
  y = y * m - 2.4999993993e-1f;
  y = y * m + 3.3333331174e-1f;
  y = y * m * z;
  y = y + fe * -2.12194440e-4f;
  y = y - 0.5f * z;
  float r = m + y;
  r = r + fe * 0.693359375f;
  const float inf = std::bit_cast<float>(0x7f800000);
  r = x == inf ? inf : r;
  r = x == 0.0f ? -inf : r;
  r = (x < 0.0f || x != x) ? std::bit_cast<float>(0x7fc00000) : r;
  return r;
}

}  // namespace tessel::backends::cpu
