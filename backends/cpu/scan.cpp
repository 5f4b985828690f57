// Scans along one dim: cumsum and cumprod. The input is seen as [A, N, B] (contiguous) and
// scanned over N. f32 accumulates in double, as PyTorch's cpu kernel does (so long sums match
// it to float rounding); i32 wraps on overflow like every other i32 op.
#include <type_traits>
#include <vector>

#include "backends/cpu/isa_clones.h"

#include "backends/cpu/kernels.h"
#include "backends/cpu/scan_rows.h"

namespace tessel::backends::cpu {

namespace {

// One step of a scan over rows of B > 1: the running row acc combines with the next input row,
// vectorized over b.
template <class T, class Acc, bool kProd>
[[gnu::always_inline]] inline void scanStep(const T* __restrict xr, Acc* __restrict acc,
                                            T* __restrict o, int64_t inner) {
  for (int64_t b = 0; b < inner; ++b) {
    if constexpr (kProd)
      acc[b] *= Acc(xr[b]);
    else
      acc[b] += Acc(xr[b]);
    o[b] = T(acc[b]);
  }
}
TESSEL_ISA_CLONES void cumsumStep(const float* xr, double* acc, float* o, int64_t inner) {
  scanStep<float, double, false>(xr, acc, o, inner);
}
TESSEL_ISA_CLONES void cumprodStep(const float* xr, double* acc, float* o, int64_t inner) {
  scanStep<float, double, true>(xr, acc, o, inner);
}

// B == 1: each row of N is one serial chain (Note [Blocked scan] for long f32 rows). B > 1: whole
// rows of B are combined with the previous row of results, which vectorizes over b.
template <class T, class Acc, bool kProd>
void scanTyped(const T* x, T* out, int64_t outer, int64_t n, int64_t inner) {
  if (inner == 1) {
    if constexpr (std::is_same_v<T, float>) {
      for (int64_t a = 0; a < outer; ++a)
        (kProd ? cumprodRowF32 : cumsumRowF32)(x + a * n, out + a * n, n);
      return;
    }
    for (int64_t a = 0; a < outer; ++a) {
      const T* xr = x + a * n;
      T* o = out + a * n;
      Acc acc = kProd ? Acc(1) : Acc(0);
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (kProd)
          acc *= Acc(xr[i]);
        else
          acc += Acc(xr[i]);
        o[i] = T(acc);
      }
    }
    return;
  }
  std::vector<Acc> acc(static_cast<size_t>(inner));
  for (int64_t a = 0; a < outer; ++a) {
    std::fill(acc.begin(), acc.end(), kProd ? Acc(1) : Acc(0));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = (a * n + i) * inner;
      if constexpr (std::is_same_v<T, float>)
        (kProd ? cumprodStep : cumsumStep)(x + at, acc.data(), out + at, inner);
      else
        scanStep<T, Acc, kProd>(x + at, acc.data(), out + at, inner);
    }
  }
}

}  // namespace

Tensor runScan(OpKind op, const Tensor& x0, const OpAttrs& attrs, const OpSignature& sig) {
  Tensor out = emptyLike(sig);
  if (out.numel() == 0) return out;
  const Tensor x = castTo(x0, sig.dtype).contiguous();
  const int64_t rank = x.ndim();
  const int64_t dim = rank == 0 ? 0 : wrapDim(attrs.dim, rank);
  int64_t outer = 1, n = rank == 0 ? 1 : x.size(dim), inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
  for (int64_t d = dim + 1; d < rank; ++d) inner *= x.size(d);
  const bool prod = op == OpKind::Cumprod;
  if (sig.dtype == DType::F32) {
    if (prod)
      scanTyped<float, double, true>(x.data<float>(), out.data<float>(), outer, n, inner);
    else
      scanTyped<float, double, false>(x.data<float>(), out.data<float>(), outer, n, inner);
  } else {
    // Unsigned arithmetic wraps where signed overflow would be undefined.
    const auto* xi = reinterpret_cast<const uint32_t*>(x.data<int32_t>());
    auto* oi = reinterpret_cast<uint32_t*>(out.data<int32_t>());
    if (prod)
      scanTyped<uint32_t, uint32_t, true>(xi, oi, outer, n, inner);
    else
      scanTyped<uint32_t, uint32_t, false>(xi, oi, outer, n, inner);
  }
  return out;
}

}  // namespace tessel::backends::cpu
