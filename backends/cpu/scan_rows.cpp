// The row loops of cumsum and cumprod over long f32 rows (Note [Blocked scan]): a portable
// version in vector extensions and an AVX-512 one picked at run time.
#include "backends/cpu/scan_rows.h"

#include <cstring>

#include "backends/cpu/isa_clones.h"

#if TESSEL_AVX512_PATHS
#include <immintrin.h>
#endif

namespace tessel::backends::cpu {

namespace {

// Note [Blocked scan]
// A row scanned element by element is one chain of dependent double adds (4 cycles each), far
// below memory bandwidth. A long f32 row is scanned 16 elements at a time instead: each group of
// 8 is widened to double and scanned inside its vector register (three shifted adds, the shift
// filling with the identity), and only the carry between groups is a chain: one add per 16
// elements (the second group adds carry + the first group's total, which is off the chain). The
// sums are still accumulated in double from the row's start, so results equal the serial scan's
// up to double rounding (far below float's). Products use the same scheme with multiplies.
// Vector extensions (GCC's and clang's __builtin_shufflevector) keep this portable; the ISA
// clones give it zmm registers. On AVX-512 CPUs the same steps are also written with
// intrinsics: GCC 12 widens 8 floats to 8 doubles in four instructions (two halves, an extract
// and an insert) where vcvtps2pd does it in one, and shifts lanes with two-source permutes where
// valignq does; the scan is compute-bound, and that made it 8.2 -> 7.3 ms on 16M floats
// (bench_sparse, docs/perf.md) with the same bits (Scan.Avx512RowScanIsThePortableScan).
// The helpers below are always inlined, so the psABI note about passing 64-byte vectors by value
// (which the baseline clone would do through memory) never applies to a real call.
#pragma GCC diagnostic ignored "-Wpsabi"  // clang reads GCC's pragmas too
using D8 = double __attribute__((vector_size(64)));
using F8 = float __attribute__((vector_size(32)));

template <bool kProd>
[[gnu::always_inline]] inline D8 combine(D8 a, D8 b) {
  if constexpr (kProd)
    return a * b;
  else
    return a + b;
}

// The inclusive scan of the 8 lanes of v.
template <bool kProd>
[[gnu::always_inline]] inline D8 scanLanes(D8 v, D8 id) {
  v = combine<kProd>(v, __builtin_shufflevector(v, id, 8, 0, 1, 2, 3, 4, 5, 6));
  v = combine<kProd>(v, __builtin_shufflevector(v, id, 8, 9, 0, 1, 2, 3, 4, 5));
  return combine<kProd>(v, __builtin_shufflevector(v, id, 8, 9, 10, 11, 0, 1, 2, 3));
}

// Scans the row's whole groups of 16, starting from `total` (the identity at the row's start),
// and returns how many elements it scanned; `total` is then their sum or product.
template <bool kProd>
[[gnu::always_inline]] inline int64_t scanGroups(const float* x, float* out, int64_t n,
                                                 double& total) {
  const D8 id = D8{} + (kProd ? 1.0 : 0.0);
  D8 carry = D8{} + total;  // every lane the total so far
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    F8 a, b;
    std::memcpy(&a, x + i, sizeof a);
    std::memcpy(&b, x + i + 8, sizeof b);
    const D8 u = scanLanes<kProd>(__builtin_convertvector(a, D8), id);
    const D8 w = scanLanes<kProd>(__builtin_convertvector(b, D8), id);
    const D8 tu = __builtin_shufflevector(u, u, 7, 7, 7, 7, 7, 7, 7, 7);
    const D8 tw = __builtin_shufflevector(w, w, 7, 7, 7, 7, 7, 7, 7, 7);
    const F8 ou = __builtin_convertvector(combine<kProd>(u, carry), F8);
    const F8 ow = __builtin_convertvector(combine<kProd>(w, combine<kProd>(carry, tu)), F8);
    std::memcpy(out + i, &ou, sizeof ou);
    std::memcpy(out + i + 8, &ow, sizeof ow);
    carry = combine<kProd>(carry, combine<kProd>(tu, tw));
  }
  total = carry[0];
  return i;
}

// Not templates: GCC's target_clones wants plain functions.
TESSEL_ISA_CLONES int64_t sumGroupsPortable(const float* x, float* out, int64_t n,
                                            double& total) {
  return scanGroups<false>(x, out, n, total);
}
TESSEL_ISA_CLONES int64_t prodGroupsPortable(const float* x, float* out, int64_t n,
                                             double& total) {
  return scanGroups<true>(x, out, n, total);
}

#if TESSEL_AVX512_PATHS
// GCC 12 warns of `__Y` "(maybe) used uninitialized" inside avx512fintrin.h: its
// _mm512_undefined_* is `__Y = __Y;` on purpose (as in random_bits.cpp).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

template <bool kProd>
__attribute__((target("avx512f"))) inline __m512d combine512(__m512d a, __m512d b) {
  return kProd ? _mm512_mul_pd(a, b) : _mm512_add_pd(a, b);
}

// The lanes of v moved up by K, the identity filling the bottom (valignq).
template <int K>
__attribute__((target("avx512f"))) inline __m512d shiftUp(__m512d v, __m512d id) {
  return _mm512_castsi512_pd(
      _mm512_alignr_epi64(_mm512_castpd_si512(v), _mm512_castpd_si512(id), 8 - K));
}

// The inclusive scan of the 8 lanes of v.
template <bool kProd>
__attribute__((target("avx512f"))) inline __m512d scan8(__m512d v, __m512d id) {
  v = combine512<kProd>(v, shiftUp<1>(v, id));
  v = combine512<kProd>(v, shiftUp<2>(v, id));
  return combine512<kProd>(v, shiftUp<4>(v, id));
}

template <bool kProd>
__attribute__((target("avx512f"))) int64_t scanGroupsAvx512(const float* x, float* out,
                                                            int64_t n, double& total) {
  const __m512d id = _mm512_set1_pd(kProd ? 1.0 : 0.0);
  const __m512i last = _mm512_set1_epi64(7);
  __m512d carry = _mm512_set1_pd(total);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512d u = scan8<kProd>(_mm512_cvtps_pd(_mm256_loadu_ps(x + i)), id);
    const __m512d w = scan8<kProd>(_mm512_cvtps_pd(_mm256_loadu_ps(x + i + 8)), id);
    const __m512d tu = _mm512_permutexvar_pd(last, u);
    const __m512d tw = _mm512_permutexvar_pd(last, w);
    _mm256_storeu_ps(out + i, _mm512_cvtpd_ps(combine512<kProd>(u, carry)));
    _mm256_storeu_ps(out + i + 8,
                     _mm512_cvtpd_ps(combine512<kProd>(w, combine512<kProd>(carry, tu))));
    carry = combine512<kProd>(carry, combine512<kProd>(tu, tw));
  }
  total = _mm512_cvtsd_f64(carry);
  return i;
}
#pragma GCC diagnostic pop
#endif

template <bool kProd>
void scanRow(const float* x, float* out, int64_t n) {
  double total = kProd ? 1.0 : 0.0;
  int64_t i = 0;
#if TESSEL_AVX512_PATHS
  if (avx512PathsEnabled())
    i = scanGroupsAvx512<kProd>(x, out, n, total);
  else
#endif
    i = (kProd ? prodGroupsPortable : sumGroupsPortable)(x, out, n, total);
  for (; i < n; ++i) {
    total = kProd ? total * double(x[i]) : total + double(x[i]);
    out[i] = float(total);
  }
}

}  // namespace

void cumsumRowF32(const float* x, float* out, int64_t n) {
  scanRow<false>(x, out, n);
}
void cumprodRowF32(const float* x, float* out, int64_t n) {
  scanRow<true>(x, out, n);
}

}  // namespace tessel::backends::cpu
