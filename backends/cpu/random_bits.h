// Philox words for a run of counters at once, vectorized (Note [Vectorized Philox]).
#pragma once

#include <cstdint>

#include "backends/rng.h"

namespace tessel::backends::cpu {

/// The four words of each counter s.base + first .. s.base + first + count - 1, in order:
/// words[4 * j + w] is word w of counter s.base + first + j (as s.block(first + j)).
void philoxWords(const PhiloxStream& s, uint64_t first, int count, uint32_t* words);


}  // namespace tessel::backends::cpu
