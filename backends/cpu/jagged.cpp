// The jagged ops on the cpu: repeat_interleave (rows copied `repeats[i]` times), bincount (a
// count per value, or a sum of weights) and segment_reduce (one reduction per run of rows
// given by `lengths`), with PyTorch 1.13's semantics. Sizes and values are checked here (the
// shape rule cannot see them): negative repeats, lengths or values are a ValueError, lengths
// that do not cover the data a ShapeError.
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "backends/cpu/kernels.h"
#include "backends/jagged_checks.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

using shapes::ScatterMode;
using jagged::sizedRule;
using jagged::splitAround;

// Validated non-negative counts (repeats or lengths) and their sum.
int64_t checkedTotal(const Tensor& counts, const char* op, const char* what) {
  Tensor c = counts.contiguous();
  const int32_t* r = c.data<int32_t>();
  jagged::requireNonNegative(r, c.numel(), op, what);
  int64_t total = 0;
  for (int64_t i = 0; i < c.numel(); ++i) total += r[i];
  return total;
}

Tensor repeatInterleave(std::span<const Tensor> in, const OpAttrs& attrs) {
  const Tensor x = in[0].contiguous();
  const Tensor reps = in[1].contiguous();
  const int64_t dim = wrapDim(attrs.dim, x.ndim());
  const int64_t total = checkedTotal(reps, "repeat_interleave", "repeats");
  jagged::checkOutputSize(attrs, total);
  Tensor out = emptyLike(sizedRule(OpKind::RepeatInterleave, in, attrs, total));
  int64_t outer, inner;
  splitAround(x, dim, outer, inner);
  const int64_t n = x.size(dim);
  const int32_t* r = reps.data<int32_t>();
  const size_t esz = shapes::elementSize(x.dtype());
  const size_t rowBytes = size_t(inner) * esz;
  const char* src = reinterpret_cast<const char*>(x.bytes());
  char* dst = reinterpret_cast<char*>(out.bytes());
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t i = 0; i < n; ++i, src += rowBytes) {
      const int64_t k = r[i];
      if (inner == 1 && esz == 4) {  // the 1-D case: fill words
        uint32_t w;
        std::memcpy(&w, src, 4);
        uint32_t* d = reinterpret_cast<uint32_t*>(dst);
        for (int64_t j = 0; j < k; ++j) d[j] = w;
        dst += 4 * k;
        continue;
      }
      for (int64_t j = 0; j < k; ++j, dst += rowBytes) std::memcpy(dst, src, rowBytes);
    }
  return out;
}

Tensor bincount(std::span<const Tensor> in, const OpAttrs& attrs) {
  const Tensor x = in[0].contiguous();
  const int32_t* v = x.data<int32_t>();
  const int64_t n = x.numel();
  int32_t lo = 0, hi = -1;
  for (int64_t i = 0; i < n; ++i) {  // two reductions the compiler vectorizes
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
  }
  if (lo < 0) jagged::requireNonNegative(v, n, "bincount", "x");
  const int64_t minlength = attrs.scalars.empty() ? 0 : int64_t(attrs.scalars[0]);
  const int64_t len = std::max<int64_t>(int64_t(hi) + 1, minlength);
  Tensor out = emptyLike(sizedRule(OpKind::Bincount, in, attrs, len));
  if (in.size() == 1) {
    int32_t* c = out.data<int32_t>();
    std::fill_n(c, len, 0);
    for (int64_t i = 0; i < n; ++i) ++c[v[i]];
    return out;
  }
  const Tensor w = castTo(in[1], DType::F32).contiguous();
  const float* wp = w.data<float>();
  float* c = out.data<float>();
  std::fill_n(c, len, 0.0f);
  for (int64_t i = 0; i < n; ++i) c[v[i]] += wp[i];
  return out;
}

// Note [Segment reduce]
// data is seen as [outer, N, inner] around the axis; segment s covers rows off[s] ..
// off[s] + lengths[s]. Each output row starts at `initial` (or the reduction's identity: 0, 1,
// -inf, +inf) and combines its rows in order, a whole inner row at a time so the loop over
// `inner` vectorizes. mean divides the sum (initial included) by the length; an empty segment
// is `initial`, else 0/0 = NaN for mean, as PyTorch 1.13 gives. max/min propagate NaN.
template <ScatterMode M>
void reduceSegments(const float* src, float* dst, const int32_t* len, int64_t segs, int64_t outer,
                    int64_t N, int64_t inner, std::optional<float> initial) {
  float id = 0.0f;
  if constexpr (M == ScatterMode::Prod) id = 1.0f;
  if constexpr (M == ScatterMode::Amax) id = -std::numeric_limits<float>::infinity();
  if constexpr (M == ScatterMode::Amin) id = std::numeric_limits<float>::infinity();
  const float start = initial.value_or(id);
  for (int64_t a = 0; a < outer; ++a) {
    const float* row = src + a * N * inner;
    float* o = dst + a * segs * inner;
    for (int64_t s = 0; s < segs; ++s, o += inner) {
      std::fill_n(o, inner, start);
      const int64_t k = len[s];
      for (int64_t j = 0; j < k; ++j, row += inner) {
        for (int64_t e = 0; e < inner; ++e) {
          const float v = row[e];
          if constexpr (M == ScatterMode::Sum || M == ScatterMode::Mean) o[e] += v;
          if constexpr (M == ScatterMode::Prod) o[e] *= v;
          if constexpr (M == ScatterMode::Amax) o[e] = (v > o[e] || v != v) ? v : o[e];
          if constexpr (M == ScatterMode::Amin) o[e] = (v < o[e] || v != v) ? v : o[e];
        }
      }
      if constexpr (M == ScatterMode::Mean) {
        if (k > 0) {
          const float inv = 1.0f / float(k);
          for (int64_t e = 0; e < inner; ++e) o[e] *= inv;
        } else if (!initial) {
          std::fill_n(o, inner, std::numeric_limits<float>::quiet_NaN());
        }
      }
    }
  }
}

}  // namespace

Tensor runSegmentReduce(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  const Tensor data = castTo(in[0], DType::F32).contiguous();
  const Tensor lengths = in[1].contiguous();
  const int64_t axis = wrapDim(attrs.dim, data.ndim());
  const int64_t total = checkedTotal(lengths, "segment_reduce", "lengths");
  jagged::checkSegmentTotal(total, data.size(axis), axis);
  Tensor out = emptyLike(sig);
  int64_t outer, inner;
  splitAround(data, axis, outer, inner);
  const std::optional<float> initial =
      attrs.scalars.empty() ? std::nullopt : std::optional<float>(float(attrs.scalars[0]));
  const float* src = data.data<float>();
  float* dst = out.data<float>();
  const int32_t* len = lengths.data<int32_t>();
  const int64_t segs = lengths.numel(), N = data.size(axis);
  switch (attrs.scatterMode) {
    case ScatterMode::Sum:
      reduceSegments<ScatterMode::Sum>(src, dst, len, segs, outer, N, inner, initial);
      break;
    case ScatterMode::Mean:
      reduceSegments<ScatterMode::Mean>(src, dst, len, segs, outer, N, inner, initial);
      break;
    case ScatterMode::Prod:
      reduceSegments<ScatterMode::Prod>(src, dst, len, segs, outer, N, inner, initial);
      break;
    case ScatterMode::Amax:
      reduceSegments<ScatterMode::Amax>(src, dst, len, segs, outer, N, inner, initial);
      break;
    case ScatterMode::Amin:
      reduceSegments<ScatterMode::Amin>(src, dst, len, segs, outer, N, inner, initial);
      break;
    case ScatterMode::Assign:
      TESSEL_ASSERT(false, "segment_reduce: no assign mode");
  }
  return out;
}

Tensor runJagged(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs) {
  if (op == OpKind::RepeatInterleave) return repeatInterleave(in, attrs);
  TESSEL_ASSERT(op == OpKind::Bincount, "runJagged: not a jagged op");
  return bincount(in, attrs);
}

}  // namespace tessel::backends::cpu
