// Note [Which sgemm]
// ~~~~~~~~~~~~~~~~~~
// Debian's OpenBLAS 0.3.21 is a DYNAMIC_ARCH build that maps AMD Zen 5 (this VM's cores; Zen 4
// too) to its Haswell kernels (AVX2): on the MLP step's shapes (batch 32..512 against 784x256,
// 256x256, 256x10, plain and transposed) it reaches 133 GFLOP/s on one idle core, against 253
// for oneDNN's JIT-generated AVX-512 kernels, of an FMA peak of 288 (bench_sgemm). OpenBLAS
// forced to its SkylakeX kernels (OPENBLAS_CORETYPE) matched oneDNN on a loaded run, but that
// variable is read when the library loads, before main, so it is no knob for us.
// BLIS 0.9 as Debian builds it was 3x slower than OpenBLAS. So f32 matmul goes to dnnl_sgemm;
// TESSEL_SGEMM=openblas switches back (for side-by-side measurements, or as an escape hatch).
// The measurement is docs/perf.md, "sgemm library". Integer matmul has its own loop (matmul.cpp).
// Small products stay on OpenBLAS: a call of dnnl_sgemm costs about 0.2 us before any
// arithmetic (OpenBLAS 0.04-0.08 us), and the first one in a process about 20 ms (CPU
// detection and code generation), which a script of tiny matmuls (bench/tpu_mlp.dsl: 2x10 and
// 10x1 layers) paid in full. Below kSmallGemmFlops (a 32x32x64 product) a call takes a
// microsecond or two either way (OpenBLAS up to 4x faster on the smallest, oneDNN 1.5x on a
// 32x32x32); above it oneDNN is 1.9-2.9x faster (docs/perf.md, "sgemm library").
// Threads: oneDNN runs on OpenMP (OMP_NUM_THREADS, as PyTorch), OpenBLAS on its own pool
// (OPENBLAS_NUM_THREADS).
#include "backends/cpu/sgemm.h"

#include <cblas.h>
#include <dnnl.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

constexpr double kSmallGemmFlops = 131072;

bool useOpenBlas() {
  static const bool openblas = [] {
    const char* pick = std::getenv("TESSEL_SGEMM");
    return pick != nullptr && std::strcmp(pick, "openblas") == 0;
  }();
  return openblas;
}

}  // namespace

const char* sgemmLibrary() { return useOpenBlas() ? "openblas" : "onednn"; }

void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
           const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  if (useOpenBlas() || 2.0 * double(M) * double(N) * double(K) < kSmallGemmFlops) {
    cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
                transB ? CblasTrans : CblasNoTrans, int(M), int(N), int(K), 1.0f, A, int(lda), B,
                int(ldb), beta, C, int(ldc));
    return;
  }
  dnnl_status_t status = dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', M, N, K, 1.0f, A,
                                    lda, B, ldb, beta, C, ldc);
  if (status == dnnl_out_of_memory)
    throwUserError(ErrorKind::DeviceError, "out of memory in oneDNN's sgemm");
  if (status != dnnl_success)
    throwUserError(ErrorKind::DeviceError,
                   "oneDNN's sgemm failed with status " + std::to_string(int(status)));
}

}  // namespace tessel::backends::cpu
