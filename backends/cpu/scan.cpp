// Scans along one dim: cumsum and cumprod. The input is seen as [A, N, B] (contiguous) and
// scanned over N. f32 accumulates in double, as PyTorch's cpu kernel does (so long sums match
// it to float rounding); i32 wraps on overflow like every other i32 op.
#include <cstring>
#include <type_traits>

#include "backends/cpu/isa_clones.h"

#include "backends/cpu/kernels.h"

namespace tessel::backends::cpu {

namespace {

// Note [Blocked scan]
// A row scanned element by element is one chain of dependent double adds (4 cycles each), far
// below memory bandwidth. A long f32 row is scanned 16 elements at a time instead: each group of
// 8 is widened to double and scanned inside its vector register (three shifted adds, the shift
// filling with the identity), and only the carry between groups is a chain: one add per 16
// elements (the second group adds carry + the first group's total, which is off the chain). The
// sums are still accumulated in double from the row's start, so results equal the serial scan's
// up to double rounding (far below float's). Products use the same scheme with multiplies.
// Vector extensions (GCC's and clang's __builtin_shufflevector) keep this portable; the ISA
// clones give it zmm registers.
// The helpers below are always inlined, so the psABI note about passing 64-byte vectors by value
// (which the baseline clone would do through memory) never applies to a real call.
#pragma GCC diagnostic ignored "-Wpsabi"  // clang reads GCC's pragmas too
using D8 = double __attribute__((vector_size(64)));
using F8 = float __attribute__((vector_size(32)));

template <bool kProd>
[[gnu::always_inline]] inline D8 combine(D8 a, D8 b) {
  if constexpr (kProd)
    return a * b;
  else
    return a + b;
}

// The inclusive scan of the 8 lanes of v.
template <bool kProd>
[[gnu::always_inline]] inline D8 scanLanes(D8 v, D8 id) {
  v = combine<kProd>(v, __builtin_shufflevector(v, id, 8, 0, 1, 2, 3, 4, 5, 6));
  v = combine<kProd>(v, __builtin_shufflevector(v, id, 8, 9, 0, 1, 2, 3, 4, 5));
  return combine<kProd>(v, __builtin_shufflevector(v, id, 8, 9, 10, 11, 0, 1, 2, 3));
}

template <bool kProd>
[[gnu::always_inline]] inline void scanRowVector(const float* x, float* out, int64_t n) {
  const double identity = kProd ? 1.0 : 0.0;
  const D8 id = D8{} + identity;
  int64_t i = 0;
  D8 carry = id;
  for (; i + 16 <= n; i += 16) {
    F8 a, b;
    std::memcpy(&a, x + i, sizeof a);
    std::memcpy(&b, x + i + 8, sizeof b);
    const D8 u = scanLanes<kProd>(__builtin_convertvector(a, D8), id);
    const D8 w = scanLanes<kProd>(__builtin_convertvector(b, D8), id);
    const D8 tu = __builtin_shufflevector(u, u, 7, 7, 7, 7, 7, 7, 7, 7);
    const D8 tw = __builtin_shufflevector(w, w, 7, 7, 7, 7, 7, 7, 7, 7);
    const F8 ou = __builtin_convertvector(combine<kProd>(u, carry), F8);
    const F8 ow = __builtin_convertvector(combine<kProd>(w, combine<kProd>(carry, tu)), F8);
    std::memcpy(out + i, &ou, sizeof ou);
    std::memcpy(out + i + 8, &ow, sizeof ow);
    carry = combine<kProd>(carry, combine<kProd>(tu, tw));
  }
  double acc = carry[0];
  for (; i < n; ++i) {
    acc = kProd ? acc * double(x[i]) : acc + double(x[i]);
    out[i] = float(acc);
  }
}

TESSEL_ISA_CLONES void cumsumRow(const float* x, float* out, int64_t n) {
  scanRowVector<false>(x, out, n);
}
TESSEL_ISA_CLONES void cumprodRow(const float* x, float* out, int64_t n) {
  scanRowVector<true>(x, out, n);
}

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
        (kProd ? cumprodRow : cumsumRow)(x + a * n, out + a * n, n);
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
