// 16 floats as one value for hand-vectorized loops (GCC's vector extension), and the few
// helpers that every such loop needs.
#pragma once

#include <cstring>

namespace tessel::backends::cpu::vec16 {

// A V16 is one zmm register in the AVX-512 clone of a function (Note [ISA clones]), two ymm or
// four xmm in the others: for loops that the auto-vectorizer left scalar or narrow (attention's
// register tiles, layer_norm's row sums). V16 values never cross a call (every helper taking
// or returning one is always inlined, into each ISA clone, so that it is compiled for that
// clone's vector width), so GCC's note that their ABI differs between ISA levels does not
// apply; the files that include this header get that warning off.
typedef float V16 __attribute__((vector_size(64)));
#pragma GCC diagnostic ignored "-Wpsabi"
#define TESSEL_V16_INLINE static inline __attribute__((always_inline))

TESSEL_V16_INLINE V16 load(const float* p) {
  V16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
TESSEL_V16_INLINE void store(float* p, V16 v) {
  std::memcpy(p, &v, sizeof v);
}
TESSEL_V16_INLINE V16 splat(float x) {
  return V16{} + x;
}
// The largest of the 16 lanes, by halving (four dependent steps, not fifteen).
TESSEL_V16_INLINE float laneMax(V16 a) {
  V16 b = __builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  a = a > b ? a : b;
  b = __builtin_shufflevector(a, a, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3);
  a = a > b ? a : b;
  b = __builtin_shufflevector(a, a, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1);
  a = a > b ? a : b;
  return a[0] > a[1] ? a[0] : a[1];
}
// The sum of the 16 lanes, by the same halving: (a0 + a8) + (a4 + a12) + ... in a fixed order.
TESSEL_V16_INLINE float laneSum(V16 a) {
  a += __builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  a += __builtin_shufflevector(a, a, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3);
  a += __builtin_shufflevector(a, a, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1);
  return a[0] + a[1];
}

}  // namespace tessel::backends::cpu::vec16
