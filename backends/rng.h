// The random number generator: Philox4x32-10, counter-based (docs/tensors.md, "Random numbers").
#pragma once

#include <array>
#include <cstdint>

namespace tessel::backends {

// Note [Counter-based RNG]
// Random ops do not carry mutable generator state through their loops. The generator is a pure
// function philox(key, counter) -> 4 x u32 (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", SC'11), so element i of a random op depends only on (seed, base counter, i) and every
// device, thread or platform computes the same numbers. The only state is the seed (the key) and
// the next unused counter; each random op reserves ceil(n / 4) counters (4 words per counter)
// and element i reads word i % 4 of counter base + i / 4.

/// Philox4x32 with 10 rounds on a 128-bit counter {c0, c1, c2, c3} and 64-bit key {k0, k1}.
std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key);

/// A reserved range of counters for one random op.
struct PhiloxStream {
  uint64_t key;   // the seed
  uint64_t base;  // first counter of the range
  /// The four words of counter base + block.
  std::array<uint32_t, 4> block(uint64_t block) const {
    uint64_t c = base + block;
    return philox4x32_10({uint32_t(c), uint32_t(c >> 32), 0, 0},
                         {uint32_t(key), uint32_t(key >> 32)});
  }
};

/// The whole generator state (seed and next counter), for replaying a random op.
struct RngState {
  uint64_t key;
  uint64_t next;
};
RngState rngState();
void setRngState(RngState state);

/// Resets the generator: key = n, next counter = 0. Programs that never call seed() behave
/// as if they started with seed(0).
void seed(uint64_t n);
/// Reserves counters for `numbers` 32-bit words (rounded up to whole blocks of 4).
PhiloxStream reserveRandom(uint64_t numbers);

/// A float in [0, 1) from the top 24 bits of a word (exactly representable in f32).
inline float uniformFromBits(uint32_t w) {
  return float(w >> 8) * (1.0f / 16777216.0f);
}

}  // namespace tessel::backends
