// The run-time switch of the hand-written AVX-512 paths (backends/cpu/isa_clones.h).
#include "backends/cpu/isa_clones.h"

namespace tessel::backends::cpu {

namespace {
bool gPortableOnly = false;  // ScopedPortableKernels
}  // namespace

bool avx512PathsEnabled() {
#if TESSEL_AVX512_PATHS
  static const bool supported = __builtin_cpu_supports("avx512f");
  return supported && !gPortableOnly;
#else
  return false;
#endif
}

ScopedPortableKernels::ScopedPortableKernels() : previous_(gPortableOnly) { gPortableOnly = true; }
ScopedPortableKernels::~ScopedPortableKernels() { gPortableOnly = previous_; }

}  // namespace tessel::backends::cpu
