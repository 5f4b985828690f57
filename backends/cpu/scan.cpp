// Scans along one dim: cumsum and cumprod. The input is seen as [A, N, B] (contiguous) and
// scanned over N. f32 accumulates in double, as PyTorch's cpu kernel does (so long sums match
// it to float rounding); i32 wraps on overflow like every other i32 op.
#include <type_traits>

#include "backends/cpu/kernels.h"

namespace tessel::backends::cpu {

namespace {

// Note [Blocked scan]
// A row scanned element by element is one chain of dependent double adds (4 cycles each), far
// below memory bandwidth. Long f32 rows are cut into blocks of kChains * kRun elements: each of
// the kChains runs of a block is scanned by its own chain, the chains interleaved so that their
// adds overlap, into a double buffer in L1; then each run's offset (the carry into the block
// plus the totals of the runs before it) is added while converting back to float. The sums are
// still accumulated in double from the row's start, so results equal the serial scan's up to
// double rounding (far below float's). Products use the same scheme.
constexpr int kChains = 8;
constexpr int64_t kRun = 512;
constexpr int64_t kBlock = kChains * kRun;

template <bool kProd>
void scanRowBlocked(const float* x, float* out, int64_t n) {
  alignas(64) double tmp[kBlock];
  double carry = kProd ? 1.0 : 0.0;
  int64_t start = 0;
  for (; start + kBlock <= n; start += kBlock) {
    const float* xb = x + start;
    double acc[kChains];
    for (int j = 0; j < kChains; ++j) acc[j] = kProd ? 1.0 : 0.0;
    for (int64_t i = 0; i < kRun; ++i)
      for (int j = 0; j < kChains; ++j) {
        const double v = double(xb[j * kRun + i]);
        if constexpr (kProd)
          acc[j] *= v;
        else
          acc[j] += v;
        tmp[j * kRun + i] = acc[j];
      }
    float* ob = out + start;
    for (int j = 0; j < kChains; ++j) {
      const double off = carry;
      const double* tr = tmp + j * kRun;
      float* orun = ob + j * kRun;
      for (int64_t i = 0; i < kRun; ++i) orun[i] = float(kProd ? tr[i] * off : tr[i] + off);
      carry = kProd ? carry * acc[j] : carry + acc[j];
    }
  }
  for (int64_t i = start; i < n; ++i) {
    carry = kProd ? carry * double(x[i]) : carry + double(x[i]);
    out[i] = float(carry);
  }
}

// B == 1: each row of N is one serial chain (Note [Blocked scan] for long f32 rows). B > 1: whole
// rows of B are combined with the previous row of results, which vectorizes over b.
template <class T, class Acc, bool kProd>
void scanTyped(const T* x, T* out, int64_t outer, int64_t n, int64_t inner) {
  if (inner == 1) {
    if constexpr (std::is_same_v<T, float>) {
      if (n >= kBlock) {
        for (int64_t a = 0; a < outer; ++a) scanRowBlocked<kProd>(x + a * n, out + a * n, n);
        return;
      }
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
      const T* xr = x + (a * n + i) * inner;
      T* o = out + (a * n + i) * inner;
      for (int64_t b = 0; b < inner; ++b) {
        if constexpr (kProd)
          acc[b] *= Acc(xr[b]);
        else
          acc[b] += Acc(xr[b]);
        o[b] = T(acc[b]);
      }
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
