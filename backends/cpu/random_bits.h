// Philox words for a run of counters at once, vectorized (Note [Vectorized Philox]).
#pragma once

#include <cstdint>

#include "backends/rng.h"

namespace tessel::backends::cpu {

/// The four words of each counter s.base + first .. s.base + first + count - 1, in order:
/// words[4 * j + w] is word w of counter s.base + first + j (as s.block(first + j)).
void philoxWords(const PhiloxStream& s, uint64_t first, int count, uint32_t* words);

/// Whether philoxWords takes its AVX-512 path (Note [Philox on AVX-512]): the CPU has it and
/// no ScopedPortablePhilox is alive.
bool philoxUsesAvx512();

/// For tests: philoxWords takes the portable path while one is alive (not thread-safe).
class ScopedPortablePhilox {
 public:
  ScopedPortablePhilox();
  ~ScopedPortablePhilox();
  ScopedPortablePhilox(const ScopedPortablePhilox&) = delete;
  ScopedPortablePhilox& operator=(const ScopedPortablePhilox&) = delete;

 private:
  bool previous_;
};

}  // namespace tessel::backends::cpu
