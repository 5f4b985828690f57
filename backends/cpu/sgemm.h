// The one f32 GEMM call of the cpu backend, on oneDNN or OpenBLAS (Note [Which sgemm]).
#pragma once

#include <cstdint>

namespace tessel::backends::cpu {

/// C[M, N] = A @ B (+ beta * C), row-major; `transA` / `transB` read A as [K, M] / B as [N, K]
/// with their leading dimensions. beta is 0 or 1 (accumulate).
void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
           const float* B, int64_t ldb, float beta, float* C, int64_t ldc);

/// "onednn" or "openblas": the library sgemm uses in this process (TESSEL_SGEMM picks it).
const char* sgemmLibrary();

}  // namespace tessel::backends::cpu
