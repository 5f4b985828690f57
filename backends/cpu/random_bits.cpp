// Philox words for a run of counters at once, vectorized (Note [Vectorized Philox]).
#include "backends/cpu/random_bits.h"

#include <algorithm>

#include "backends/cpu/isa_clones.h"

#if TESSEL_AVX512_PATHS
#include <immintrin.h>
#endif

namespace tessel::backends::cpu {

namespace {
constexpr uint32_t kM0 = 0xD2511F53, kM1 = 0xCD9E8D57;  // as backends/rng.cpp
constexpr uint32_t kW0 = 0x9E3779B9, kW1 = 0xBB67AE85;
constexpr int kLanes = 64;

// Note [Vectorized Philox]
// philox4x32_10 one counter at a time was an eighth of a training step that draws its batch
// with randn (bench/mlp): ten rounds of two dependent 32x32->64 multiplies. Counters are
// independent, so here each of the four words is an array over kLanes counters and every
// round is a loop GCC vectorizes (vpmuludq, 4 to 8 lanes with the ISA clones). The words
// are those of philox4x32_10 exactly (tests/tensor: RandomBits.*).
TESSEL_ISA_CLONES void lanes(uint64_t key, uint64_t firstCounter, int n, uint32_t* words) {
  uint32_t c0[kLanes], c1[kLanes], c2[kLanes], c3[kLanes];
  for (int i = 0; i < n; ++i) {
    const uint64_t c = firstCounter + uint64_t(i);
    c0[i] = uint32_t(c);
    c1[i] = uint32_t(c >> 32);
    c2[i] = 0;
    c3[i] = 0;
  }
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kW0;
      k1 += kW1;
    }
    for (int i = 0; i < n; ++i) {
      const uint64_t p0 = uint64_t(kM0) * c0[i], p1 = uint64_t(kM1) * c2[i];
      const uint32_t n0 = uint32_t(p1 >> 32) ^ c1[i] ^ k0;
      const uint32_t n2 = uint32_t(p0 >> 32) ^ c3[i] ^ k1;
      c0[i] = n0;
      c1[i] = uint32_t(p1);
      c2[i] = n2;
      c3[i] = uint32_t(p0);
    }
  }
  for (int i = 0; i < n; ++i) {
    words[4 * i] = c0[i];
    words[4 * i + 1] = c1[i];
    words[4 * i + 2] = c2[i];
    words[4 * i + 3] = c3[i];
  }
}
#if TESSEL_AVX512_PATHS
// GCC 12 warns of `__Y` "(maybe) used uninitialized" inside avx512fintrin.h: its
// _mm512_undefined_epi32 is `__m512i __Y = __Y;` on purpose. Nothing here reads undefined data.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
// Note [Philox on AVX-512]
// GCC vectorizes `lanes` with 64-bit products: each 32-bit word is widened, multiplied 8 lanes
// at a time and narrowed again. Written with AVX-512 intrinsics, a 32x32->64 multiply of 16
// lanes is two vpmuludq (even lanes, and odd lanes shifted down) and two blends that gather
// the low and the high halves, and the four words of 16 counters are transposed into output
// order with unpacks and 128-bit shuffles. That made Philox, a third of randn and 5% of the MLP
// training step (bench/mlp), about twice as fast. Only for AVX-512 CPUs, picked at run time;
// the words are the same (Philox.BatchedWordsAreTheOneAtATimeWords runs both paths).
struct HiLo {
  __m512i hi, lo;
};
__attribute__((target("avx512f"))) inline HiLo mulHiLo(__m512i x, __m512i m) {
  const __m512i even = _mm512_mul_epu32(x, m);
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(x, 32), m);
  return {_mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd),
          _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32))};
}
/// Counters [first, first + 16 * kGroups): kGroups independent groups of 16 interleaved, so
/// that each round's multiply-xor chains overlap (one group alone waits on their latency).
template <int kGroups>
__attribute__((target("avx512f"))) inline void groups16(uint64_t key, uint64_t firstCounter,
                                                        uint32_t* words) {
  const __m512i m0 = _mm512_set1_epi32(int(kM0)), m1 = _mm512_set1_epi32(int(kM1));
  const __m512i step = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  __m512i c0[kGroups], c1[kGroups], c2[kGroups], c3[kGroups];
  for (int g = 0; g < kGroups; ++g) {
    const uint64_t base = firstCounter + 16 * uint64_t(g);
    const __m512i lo8 = _mm512_add_epi64(_mm512_set1_epi64(int64_t(base)), step);
    const __m512i hi8 = _mm512_add_epi64(_mm512_set1_epi64(int64_t(base + 8)), step);
    c0[g] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo8)),
                               _mm512_cvtepi64_epi32(hi8), 1);
    c1[g] = _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm512_cvtepi64_epi32(_mm512_srli_epi64(lo8, 32))),
        _mm512_cvtepi64_epi32(_mm512_srli_epi64(hi8, 32)), 1);
    c2[g] = _mm512_setzero_si512();
    c3[g] = _mm512_setzero_si512();
  }
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kW0;
      k1 += kW1;
    }
    const __m512i key0 = _mm512_set1_epi32(int(k0)), key1 = _mm512_set1_epi32(int(k1));
    for (int g = 0; g < kGroups; ++g) {
      const HiLo p0 = mulHiLo(c0[g], m0), p1 = mulHiLo(c2[g], m1);
      c0[g] = _mm512_ternarylogic_epi32(p1.hi, c1[g], key0, 0x96);  // a ^ b ^ c
      c2[g] = _mm512_ternarylogic_epi32(p0.hi, c3[g], key1, 0x96);
      c1[g] = p1.lo;
      c3[g] = p0.lo;
    }
  }
  for (int g = 0; g < kGroups; ++g) {
    // Counter j's words w0..w3 to words[4j..4j+3]: within each 128-bit lane L, u_i holds
    // counter 4L+i; then the lanes are transposed.
    const __m512i t0 = _mm512_unpacklo_epi32(c0[g], c1[g]), t1 = _mm512_unpackhi_epi32(c0[g], c1[g]);
    const __m512i t2 = _mm512_unpacklo_epi32(c2[g], c3[g]), t3 = _mm512_unpackhi_epi32(c2[g], c3[g]);
    const __m512i u0 = _mm512_unpacklo_epi64(t0, t2), u1 = _mm512_unpackhi_epi64(t0, t2);
    const __m512i u2 = _mm512_unpacklo_epi64(t1, t3), u3 = _mm512_unpackhi_epi64(t1, t3);
    const __m512i a = _mm512_shuffle_i32x4(u0, u1, 0x44), b = _mm512_shuffle_i32x4(u2, u3, 0x44);
    const __m512i c = _mm512_shuffle_i32x4(u0, u1, 0xEE), d = _mm512_shuffle_i32x4(u2, u3, 0xEE);
    uint32_t* out = words + 64 * g;
    _mm512_storeu_si512(out, _mm512_shuffle_i32x4(a, b, 0x88));
    _mm512_storeu_si512(out + 16, _mm512_shuffle_i32x4(a, b, 0xDD));
    _mm512_storeu_si512(out + 32, _mm512_shuffle_i32x4(c, d, 0x88));
    _mm512_storeu_si512(out + 48, _mm512_shuffle_i32x4(c, d, 0xDD));
  }
}
/// count a multiple of 16.
__attribute__((target("avx512f"))) void lanes16(uint64_t key, uint64_t firstCounter, int count,
                                                uint32_t* words) {
  int g = 0;
  for (; g + 64 <= count; g += 64) groups16<4>(key, firstCounter + g, words + 4 * g);
  for (; g < count; g += 16) groups16<1>(key, firstCounter + g, words + 4 * g);
}
#pragma GCC diagnostic pop
#endif

}  // namespace

void philoxWords(const PhiloxStream& s, uint64_t first, int count, uint32_t* words) {
  int done = 0;
#if TESSEL_AVX512_PATHS
  if (avx512PathsEnabled()) {
    done = count / 16 * 16;
    lanes16(s.key, s.base + first, done, words);
  }
#endif
  for (; done < count; done += kLanes)
    lanes(s.key, s.base + first + uint64_t(done), std::min(kLanes, count - done),
          words + 4 * done);
}

}  // namespace tessel::backends::cpu
