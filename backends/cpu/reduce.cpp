// Reductions over dims (sum, mean, max, min, argmax, argmin, all, any).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "backends/cpu/conv_backward_reuse.h"
#include "backends/cpu/kernels.h"
#include "backends/cpu/vec_rows.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

// Note [Reduction layouts]
// The input is seen as [A, R, B] with R the reduced elements: when it is contiguous and the
// reduced dims are adjacent, no copy is needed. B == 1 ("inner": each output reduces one
// contiguous run) uses several independent accumulators so the loop vectorizes; B > 1
// ("rows": summing over a leading or middle dim) adds whole rows into a row of accumulators,
// which vectorizes over b. Any other layout is permuted (reduced dims last) and copied into the
// inner form first. f32 sums accumulate in float within blocks of 256 elements (16 per lane) and in
// double across blocks, so the error stays near float rounding even for 10^8 elements.

namespace {

constexpr int kLanes = 16;
constexpr int64_t kBlock = 256;

}  // namespace

double sumFloats(const float* x, int64_t n) {
  double total = 0;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t m = std::min(kBlock, n - start);
    const float* p = x + start;
    float acc[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= m; i += kLanes)
      for (int j = 0; j < kLanes; ++j) acc[j] += p[i + j];
    double block = 0;
    for (int j = 0; j < kLanes; ++j) block += acc[j];
    for (; i < m; ++i) block += p[i];
    total += block;
  }
  return total;
}

namespace {

template <class T>
int64_t sumInner(const T* x, int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  return s;
}

// max (kMax) or min, propagating NaN like PyTorch.
template <bool kMax, class T>
inline T pick(T acc, T v) {
  if constexpr (kMax)
    return (v > acc || v != v) ? v : acc;
  else
    return (v < acc || v != v) ? v : acc;
}

template <bool kMax, class T>
T extremeInner(const T* x, int64_t n) {
  T acc[kLanes];
  for (int j = 0; j < kLanes; ++j) acc[j] = x[0];
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) acc[j] = pick<kMax>(acc[j], x[i + j]);
  T r = acc[0];
  for (int j = 1; j < kLanes; ++j) r = pick<kMax>(r, acc[j]);
  for (; i < n; ++i) r = pick<kMax>(r, x[i]);
  return r;
}

// Index of the first max (kMax) or min; NaN counts as the extreme, as in PyTorch.
template <bool kMax, class T>
int32_t argInner(const T* x, int64_t n) {
  int64_t best = 0;
  for (int64_t i = 1; i < n; ++i) {
    T b = x[best], v = x[i];
    if (b != b) break;
    if (v != v || (kMax ? v > b : v < b)) best = i;
  }
  return static_cast<int32_t>(best);
}

struct Layout {
  int64_t A = 1, R = 1, B = 1;
  Tensor x;  // contiguous data for [A, R, B]
};

// Chooses [A, R, B] over `x` (Note [Reduction layouts]); `allowRows` false forces B == 1.
Layout layoutFor(const Tensor& x, const std::vector<bool>& reduced, bool allowRows) {
  const int64_t rank = x.ndim();
  int64_t first = rank, last = -1;
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d]) first = std::min(first, d), last = std::max(last, d);
  bool adjacent = true;
  for (int64_t d = first; d <= last; ++d) adjacent = adjacent && reduced[d];
  Layout l;
  if (x.isContiguous() && adjacent && (allowRows || last == rank - 1 || first > last)) {
    for (int64_t d = 0; d < rank; ++d) {
      if (d < first)
        l.A *= x.size(d);
      else if (d <= last)
        l.R *= x.size(d);
      else
        l.B *= x.size(d);
    }
    if (first > last) l.A = x.numel(), l.R = 1, l.B = 1;  // nothing reduced
    l.x = x;
    return l;
  }
  Dims perm;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d]) perm.push_back(d), l.A *= x.size(d);
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d]) perm.push_back(d), l.R *= x.size(d);
  l.x = x.permute(perm).contiguous();
  return l;
}

template <class Acc, class T, class Out, class Combine, class Finish>
void reduceRows(const Layout& l, Out* out, Acc init, Combine combine, Finish finish) {
  const T* x = l.x.data<T>();
  std::vector<Acc> acc(l.B);
  for (int64_t a = 0; a < l.A; ++a) {
    std::fill(acc.begin(), acc.end(), init);
    for (int64_t r = 0; r < l.R; ++r) {
      const T* row = x + (a * l.R + r) * l.B;
      for (int64_t b = 0; b < l.B; ++b) acc[b] = combine(acc[b], row[b]);
    }
    for (int64_t b = 0; b < l.B; ++b) out[a * l.B + b] = finish(acc[b]);
  }
}

// Sum over R rows of B floats: float row accumulators over blocks of kRowBlock rows (so the
// loop vectorizes over b), folded into double totals after each block.
constexpr int64_t kRowBlock = 64;
void sumRows(const Layout& l, float* out, double scale) {
  const float* x = l.x.data<float>();
  std::vector<float> acc(l.B);
  std::vector<double> total(l.B);
  for (int64_t a = 0; a < l.A; ++a) {
    std::fill(total.begin(), total.end(), 0.0);
    for (int64_t r0 = 0; r0 < l.R; r0 += kRowBlock) {
      std::fill(acc.begin(), acc.end(), 0.0f);
      float* __restrict ac = acc.data();
      const int64_t r1 = std::min(l.R, r0 + kRowBlock);
      accumulateRows(ac, x + (a * l.R + r0) * l.B, r1 - r0, l.B);
      for (int64_t b = 0; b < l.B; ++b) total[b] += ac[b];
    }
    for (int64_t b = 0; b < l.B; ++b) out[a * l.B + b] = float(total[b] * scale);
  }
}

template <class T>
void runTyped(OpKind op, const Layout& l, const Tensor& out) {
  const T* x = l.x.data<T>();
  const int64_t A = l.A, R = l.R, B = l.B;
  const bool rows = B > 1;
  switch (op) {
    case OpKind::Sum:
    case OpKind::Mean: {
      const bool mean = op == OpKind::Mean;
      if constexpr (std::is_same_v<T, float>) {
        float* o = out.data<float>();
        const double scale = mean ? 1.0 / double(R) : 1.0;
        if (rows) return sumRows(l, o, scale);
        for (int64_t a = 0; a < A; ++a) o[a] = float(sumFloats(x + a * R, R) * scale);
      } else {
        TESSEL_ASSERT(!mean, "integer mean must be computed in f32");
        int32_t* o = out.data<int32_t>();
        auto wrap = [](int64_t s) { return int32_t(uint32_t(uint64_t(s))); };
        if (rows)
          return reduceRows<int64_t, T>(
              l, o, int64_t{0}, [](int64_t s, T v) { return s + v; }, wrap);
        for (int64_t a = 0; a < A; ++a) o[a] = wrap(sumInner(x + a * R, R));
      }
      return;
    }
    case OpKind::Max:
    case OpKind::Min: {
      T* o = out.data<T>();
      const bool isMax = op == OpKind::Max;
      if (rows) {
        using L = std::numeric_limits<T>;
        const T init = L::has_infinity ? (isMax ? -L::infinity() : L::infinity())
                                       : (isMax ? L::lowest() : L::max());
        if (isMax) return reduceRows<T, T>(l, o, init, pick<true, T>, [](T v) { return v; });
        return reduceRows<T, T>(l, o, init, pick<false, T>, [](T v) { return v; });
      }
      for (int64_t a = 0; a < A; ++a)
        o[a] = isMax ? extremeInner<true>(x + a * R, R) : extremeInner<false>(x + a * R, R);
      return;
    }
    case OpKind::Argmax:
    case OpKind::Argmin: {
      int32_t* o = out.data<int32_t>();
      for (int64_t a = 0; a < A; ++a)
        o[a] = op == OpKind::Argmax ? argInner<true>(x + a * R, R) : argInner<false>(x + a * R, R);
      return;
    }
    case OpKind::All:
    case OpKind::Any: {
      uint8_t* o = out.data<uint8_t>();
      const bool all = op == OpKind::All;
      if (rows)
        return reduceRows<uint8_t, T>(
            l, o, uint8_t(all),
            [all](uint8_t s, T v) { return uint8_t(all ? (s && v) : (s || v)); },
            [](uint8_t s) { return s; });
      for (int64_t a = 0; a < A; ++a) {
        uint8_t s = all;
        for (int64_t r = 0; r < R; ++r)
          s = all ? (s & (x[a * R + r] != 0)) : (s | (x[a * R + r] != 0));
        o[a] = s;
      }
      return;
    }
    default:
      TESSEL_ASSERT(false, "not a reduction");
  }
}

}  // namespace

Tensor runReduce(OpKind op, const Tensor& input, const OpAttrs& attrs, const OpSignature& sig) {
  // conv2d's bias gradient, summed already by the backward-weights primitive.
  if (op == OpKind::Sum)
    if (std::optional<std::vector<float>> kept = conv_reuse::takeBiasGrad(input, attrs, sig)) {
      Tensor out = emptyLike(sig);
      std::copy(kept->begin(), kept->end(), out.data<float>());
      return out;
    }
  const int64_t rank = input.ndim();
  const std::vector<bool> reduced = shapes::reducedDimsMask(attrs.dims, rank);

  DType compute = input.dtype();
  if (op == OpKind::Sum || op == OpKind::Mean) compute = sig.dtype;
  if (op == OpKind::Max || op == OpKind::Min) compute = sig.dtype;
  if (op == OpKind::All || op == OpKind::Any) compute = DType::Bool;
  if (compute == DType::Bool && (op == OpKind::Sum || op == OpKind::Max || op == OpKind::Min ||
                                 op == OpKind::Argmax || op == OpKind::Argmin))
    compute = DType::I32;
  Tensor x = castTo(input, compute);

  const bool needsElements =
      op == OpKind::Max || op == OpKind::Min || op == OpKind::Argmax || op == OpKind::Argmin;
  const bool rowsOk = op != OpKind::Argmax && op != OpKind::Argmin;
  Layout l = layoutFor(x, reduced, rowsOk);
  if (needsElements && l.R == 0 && l.A * l.B > 0)
    throwUserError(attrs.dims.empty() ? ErrorKind::ValueError : ErrorKind::IndexError,
                   std::string(shapes::opName(op)) + ": cannot reduce over a dimension of size 0");
  Tensor out = emptyLike(sig);
  Tensor res = out.dtype() == compute || op == OpKind::Argmax || op == OpKind::Argmin ||
                       op == OpKind::All || op == OpKind::Any
                   ? out
                   : Tensor::empty(out.shape(), compute);
  if (l.A * l.B > 0) visitDType(compute, [&](auto t) { runTyped<decltype(t)>(op, l, res); });
  return res.id() == out.id() ? out : castTo(res, out.dtype());
}

}  // namespace tessel::backends::cpu
