// TESSEL_ISA_CLONES: compile a hot loop for several x86-64 levels (Note [ISA clones]); and the
// run-time switch of the hand-written AVX-512 paths.
#pragma once

// Note [ISA clones]
// Loops that are compute-bound on 4-wide SSE2 (the x86-64 baseline the build targets) are
// compiled with GCC's target_clones for x86-64-v4 (AVX-512), x86-64-v3 (AVX2/FMA) and the
// baseline; the loader picks the best one for the running CPU once, so the binary stays
// portable. (exp, log and sigmoid rows do ~25 flops per element; elementwise arithmetic and
// inner reductions are memory-bound already and need no clones.) FMA contraction may change
// the last bit compared with the baseline clone (within the 2 ulp bound of vec_math.h). clang
// (the fuzz build) gets the baseline only.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TESSEL_ISA_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TESSEL_ISA_CLONES
#endif

// Hand-written AVX-512 paths (Philox's lanes, the row scans) are intrinsics where GCC's
// vectorizer falls short; they are compiled by GCC on x86-64 (clang, the fuzz build, gets the
// portable code only) and picked at run time.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TESSEL_AVX512_PATHS 1
#else
#define TESSEL_AVX512_PATHS 0
#endif

namespace tessel::backends::cpu {

/// Whether the hand-written AVX-512 paths run: they were compiled, the CPU has AVX-512F, and no
/// ScopedPortableKernels is alive.
bool avx512PathsEnabled();

/// For tests: the hand-written AVX-512 paths give way to their portable versions while one is
/// alive (not thread-safe), so that a test can compare the two bit for bit.
class ScopedPortableKernels {
 public:
  ScopedPortableKernels();
  ~ScopedPortableKernels();
  ScopedPortableKernels(const ScopedPortableKernels&) = delete;
  ScopedPortableKernels& operator=(const ScopedPortableKernels&) = delete;

 private:
  bool previous_;
};

}  // namespace tessel::backends::cpu
