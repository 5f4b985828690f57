// The integer arithmetic of multinomial's draws, shared by the cpu kernels and mirrored line for
// line by shaders/sampling.comp (Note [Exact sampling keys]).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace tessel::backends::cpu::sampling {

// Note [Exact sampling keys]
// multinomial must give the same indices on every backend under one seed(), but a GPU's log and
// division are not the cpu's (Vulkan allows 3 ulp), and one reordered pair of near-equal keys
// changes a draw. So the keys are computed in integers only, which every device does exactly:
// - Without replacement (the exponential race: category c's key is E_c / p_c with E_c = -ln u_c
//   exponential; the n smallest keys are n draws without replacement with PyTorch's
//   distribution): E_c is -log2(u_c) in fixed point Q5.26 (the ln 2 factor is common to every key
//   and cannot change their order), its fraction bits by repeated squaring; E / p is an integer
//   division by p's 24-bit mantissa, written as a positive float-like code with a 9-bit exponent
//   (no overflow for any finite p) and 22 mantissa bits, which sorts as an i32.
// - With replacement (inverse CDF): each weight is quantized to a u32 against the row's largest
//   exponent (q = mantissa << 8 >> (E_max - e): the largest weights keep all 24 bits; a weight
//   2^-32 times the row's largest becomes 0 and is not drawn), the row's running sums are exact
//   u64s whatever order a device adds them in, and draw d's target floor(word * S / 2^32) finds
//   its category by binary search (the first running sum above it).

/// floor(log2(x) * 2^26) for 1 <= x < 2^32: the integer part from the top bit, 26 fraction bits
/// by squaring the mantissa (Q1.31), a bit set whenever the square reaches 2 (truncated).
inline uint32_t log2Fixed(uint32_t x) {
  const uint32_t e = 31u - uint32_t(std::countl_zero(x));
  uint32_t m = x << (31u - e);
  uint32_t frac = 0;
  for (int i = 0; i < 26; ++i) {
    const uint64_t sq = uint64_t(m) * m;
    const uint32_t bit = uint32_t(sq >> 63);
    m = uint32_t(sq >> (31u + bit));
    frac = frac << 1 | bit;
  }
  return e << 26 | frac;
}

/// -log2(u) in Q5.26 for u = (w + 1) / 2^32 in (0, 1]: an exponential variable over ln 2.
inline uint32_t expFixed(uint32_t w) {
  return w == ~0u ? 0u : (32u << 26) - log2Fixed(w + 1u);
}

/// p's mantissa with its implicit bit and its biased exponent (subnormals as exponent 1).
inline void splitFloat(uint32_t bits, uint32_t& mant, uint32_t& exp) {
  exp = (bits >> 23) & 0xffu;
  mant = bits & 0x7fffffu;
  if (exp == 0)
    exp = 1;
  else
    mant |= 0x800000u;
}

inline uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

/// The race key of a category with weight p > 0 (float bits) and word w: a code whose integer
/// order is the order of -ln(u) / p. Zero weights get kNeverKey, above every real key.
constexpr int32_t kNeverKey = 0x7fffffff;
inline int32_t raceKey(uint32_t w, uint32_t pBits) {
  uint32_t mant, exp;
  splitFloat(pBits, mant, exp);
  const uint64_t q = (uint64_t(expFixed(w)) << 32) / mant;  // E / p = q * 2^(92 - exp)
  if (q == 0) return 0;
  const uint32_t b = 63u - uint32_t(std::countl_zero(q));
  const uint32_t biased = b + 92u + 256u - exp;  // in [94, 411]
  const uint32_t m = uint32_t(b >= 22 ? q >> (b - 22u) : q << (22u - b)) & 0x3fffffu;
  return int32_t(biased << 22 | m);
}

/// The quantized weight of p (float bits, p > 0 finite) in a row whose largest exponent is emax.
inline uint32_t quantized(uint32_t pBits, uint32_t emax) {
  uint32_t mant, exp;
  splitFloat(pBits, mant, exp);
  const uint32_t shift = emax - exp;
  return shift < 32 ? (mant << 8) >> shift : 0u;
}

/// floor(w * total / 2^32) for total < 2^63: a target in [0, total).
inline uint64_t drawTarget(uint32_t w, uint64_t total) {
  return (total >> 32) * w + (((total & 0xffffffffu) * w) >> 32);
}

}  // namespace tessel::backends::cpu::sampling
