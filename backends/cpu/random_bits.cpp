// Philox words for a run of counters at once, vectorized (Note [Vectorized Philox]).
#include "backends/cpu/random_bits.h"

#include <algorithm>

#include "backends/cpu/isa_clones.h"

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
}  // namespace

void philoxWords(const PhiloxStream& s, uint64_t first, int count, uint32_t* words) {
  for (int done = 0; done < count; done += kLanes)
    lanes(s.key, s.base + first + uint64_t(done), std::min(kLanes, count - done),
          words + 4 * done);
}

}  // namespace tessel::backends::cpu
