// Pooling and resizing on the cpu: max_pool2d, avg_pool2d, adaptive_avg_pool2d, interpolate
// (nearest, bilinear) and their backward ops. The input is seen as planes [P, H, W] (P = N*C,
// or C unbatched), contiguous f32; the formulas are PyTorch's (shapes/pool_geometry.h), in the
// same order of operations, so results match its cpu kernels.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/isa_clones.h"
#include "backends/cpu/kernels.h"
#include "shapes/pool_geometry.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

using shapes::PoolAttrs;

struct Planes {
  int64_t planes, H, W, OH, OW;
};

// x [.., H, W] and y [.., OH, OW]: the plane count and the sizes.
Planes planesOf(const Dims& x, const Dims& y) {
  const size_t r = x.size();
  Planes p{1, x[r - 2], x[r - 1], y[r - 2], y[r - 1]};
  for (size_t d = 0; d + 2 < r; ++d) p.planes *= x[d];
  return p;
}

// The output columns ow whose window tap j (input column ow * s - pad + j * dil) lies inside
// [0, W): [lo, hi).
void tapRange(int64_t j, int64_t W, int64_t OW, int64_t s, int64_t pad, int64_t dil, int64_t& lo,
              int64_t& hi) {
  const int64_t off = j * dil - pad;  // column = ow * s + off
  lo = off >= 0 ? 0 : (-off + s - 1) / s;
  hi = W - 1 - off < 0 ? 0 : std::min(OW, (W - 1 - off) / s + 1);
  if (hi < lo) hi = lo;
}

// Note [Pooling by rows]
// max/avg pooling of one output row: for every kernel tap (i, j) whose input row is inside the
// image, the taps of all output columns are combined at once (acc[ow] with x[row][ow * s +
// off]), an inner loop the compiler vectorizes. Per output element the taps are still visited
// row-major, as PyTorch's kernel visits them, so sums round the same way.
template <bool kMax>
[[gnu::always_inline]] inline void rowTaps(const float* row, float* acc, int64_t lo, int64_t hi, int64_t s,
                               int64_t off) {
  if (s == 1) {
    const float* r = row + off;
    for (int64_t ow = lo; ow < hi; ++ow) {
      const float v = r[ow];
      if constexpr (kMax)
        acc[ow] = ((v > acc[ow]) | (v != v)) ? v : acc[ow];  // NaN propagates, as PyTorch
      else
        acc[ow] += v;
    }
    return;
  }
  for (int64_t ow = lo; ow < hi; ++ow) {
    const float v = row[ow * s + off];
    if constexpr (kMax)
      acc[ow] = ((v > acc[ow]) | (v != v)) ? v : acc[ow];  // `|`: no branch per tap
    else
      acc[ow] += v;
  }
}

// The count of window rows (or columns) of output o that avg_pool2d divides by: the window
// clipped to the padded input (count_include_pad) or to the input.
int64_t avgCount(int64_t o, int64_t n, int64_t k, int64_t s, int64_t pad, bool includePad) {
  int64_t start = o * s - pad, end = std::min(start + k, n + pad);
  if (includePad) return end - start;
  return std::min(end, n) - std::max<int64_t>(start, 0);
}

// The ISA clones are whole ops, the taps inlined into them: small images (8x8 digits: 4 output
// columns) made a dispatched call per row and tap cost more than its work.
template <bool kMax>
TESSEL_ISA_CLONES void windowPool(const float* x, float* y, const Planes& g, const PoolAttrs& p) {
  const int64_t kh = p.kernel[0], kw = p.kernel[1], sh = p.stride[0], sw = p.stride[1];
  const int64_t ph = p.padding[0], pw = p.padding[1];
  const int64_t dh = kMax ? p.dilation[0] : 1, dw = kMax ? p.dilation[1] : 1;
  std::vector<int64_t> lo(kw), hi(kw);
  for (int64_t j = 0; j < kw; ++j) tapRange(j, g.W, g.OW, sw, pw, dw, lo[j], hi[j]);
  std::vector<float> colCount(g.OW);
  if (!kMax)
    for (int64_t ow = 0; ow < g.OW; ++ow)
      colCount[ow] = float(avgCount(ow, g.W, kw, sw, pw, p.countIncludePad));
  const float init = kMax ? -std::numeric_limits<float>::infinity() : 0.0f;
  for (int64_t c = 0; c < g.planes; ++c) {
    const float* xp = x + c * g.H * g.W;
    for (int64_t oh = 0; oh < g.OH; ++oh) {
      float* acc = y + (c * g.OH + oh) * g.OW;
      std::fill(acc, acc + g.OW, init);
      for (int64_t i = 0; i < kh; ++i) {
        const int64_t ih = oh * sh - ph + i * dh;
        if (ih < 0 || ih >= g.H) continue;
        for (int64_t j = 0; j < kw; ++j)
          rowTaps<kMax>(xp + ih * g.W, acc, lo[j], hi[j], sw, j * dw - pw);
      }
      if constexpr (!kMax) {
        if (p.divisor) {
          for (int64_t ow = 0; ow < g.OW; ++ow) acc[ow] /= float(p.divisor);
        } else {
          const float rows = float(avgCount(oh, g.H, kh, sh, ph, p.countIncludePad));
          for (int64_t ow = 0; ow < g.OW; ++ow) acc[ow] /= rows * colCount[ow];
        }
      }
    }
  }
}

// One output row's argmax taps (Note [Pooling by rows]): tap (row, off) of every output
// column, keeping the first maximum (strict >) or the last NaN with its input index.
[[gnu::always_inline]] inline void argmaxTaps(const float* row, int32_t rowBase, float* best, int32_t* at,
                                  int64_t lo, int64_t hi, int64_t s, int64_t off) {
  for (int64_t ow = lo; ow < hi; ++ow) {
    const int64_t col = ow * s + off;
    const float v = row[col];
    // Selected by masks, not branches: on real data `take` is a coin toss, and the branches
    // GCC made of `||` and `?:` mispredicted half the time (a quarter of a small CNN's step).
    const int32_t take = -int32_t((v > best[ow]) | (v != v));
    int32_t vb, bb;
    std::memcpy(&vb, &v, 4);
    std::memcpy(&bb, &best[ow], 4);
    const int32_t nb = (vb & take) | (bb & ~take);
    std::memcpy(&best[ow], &nb, 4);
    at[ow] = ((rowBase + int32_t(col)) & take) | (at[ow] & ~take);
  }
}

// max_pool2d's backward: each grad goes to the first maximum of its window in row-major order
// (a NaN counts as a maximum, the last one wins), PyTorch's choice of index. A window whose
// values are all -inf sends its grad to its first element inside the image, as PyTorch.
// kGather is max_pool2d_double_backward, the transpose: each output reads the input-shaped
// gradient at that same index (0 for a window of padding only). `outs` is output-shaped (read
// by the backward, written by the gather), `ins` input-shaped (the other way round).
template <bool kGather>
[[gnu::always_inline]] inline void maxPoolRoute(
    const float* x, std::conditional_t<kGather, float*, const float*> outs,
    std::conditional_t<kGather, const float*, float*> ins, const Planes& g, const PoolAttrs& p) {
  const int64_t kh = p.kernel[0], kw = p.kernel[1], sh = p.stride[0], sw = p.stride[1];
  const int64_t ph = p.padding[0], pw = p.padding[1], dh = p.dilation[0], dw = p.dilation[1];
  std::vector<int64_t> lo(kw), hi(kw), firstCol(g.OW);
  for (int64_t j = 0; j < kw; ++j) tapRange(j, g.W, g.OW, sw, pw, dw, lo[j], hi[j]);
  for (int64_t ow = 0; ow < g.OW; ++ow) {
    int64_t w0 = ow * sw - pw;
    while (w0 < 0) w0 += dw;
    firstCol[ow] = w0 < std::min(ow * sw - pw + (kw - 1) * dw + 1, g.W) ? w0 : -1;
  }
  std::vector<float> best(g.OW);
  std::vector<int32_t> at(g.OW);
  for (int64_t c = 0; c < g.planes; ++c) {
    const float* xp = x + c * g.H * g.W;
    auto* ip = ins + c * g.H * g.W;
    for (int64_t oh = 0; oh < g.OH; ++oh) {
      int64_t h0 = oh * sh - ph;
      while (h0 < 0) h0 += dh;
      // A row of windows of padding only: nothing routed (the gather's output stays 0).
      if (h0 >= std::min(oh * sh - ph + (kh - 1) * dh + 1, g.H)) continue;
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        best[ow] = -std::numeric_limits<float>::infinity();
        at[ow] = int32_t(h0 * g.W + firstCol[ow]);
      }
      for (int64_t i = 0; i < kh; ++i) {
        const int64_t ih = oh * sh - ph + i * dh;
        if (ih < 0 || ih >= g.H) continue;
        for (int64_t j = 0; j < kw; ++j)
          argmaxTaps(xp + ih * g.W, int32_t(ih * g.W), best.data(), at.data(), lo[j], hi[j], sw,
                     j * dw - pw);
      }
      auto* orow = outs + (c * g.OH + oh) * g.OW;
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        if (firstCol[ow] < 0) continue;
        if constexpr (kGather)
          orow[ow] = ip[at[ow]];
        else
          ip[at[ow]] += orow[ow];
      }
    }
  }
}
TESSEL_ISA_CLONES void maxPoolBackward(const float* x, const float* gy, float* gx, const Planes& g,
                                       const PoolAttrs& p) {
  maxPoolRoute<false>(x, gy, gx, g, p);
}
TESSEL_ISA_CLONES void maxPoolDoubleBackward(const float* x, const float* gg, float* y,
                                             const Planes& g, const PoolAttrs& p) {
  maxPoolRoute<true>(x, y, gg, g, p);
}

void avgPoolBackward(const float* gy, float* gx, const Planes& g, const PoolAttrs& p) {
  const int64_t kh = p.kernel[0], kw = p.kernel[1], sh = p.stride[0], sw = p.stride[1];
  const int64_t ph = p.padding[0], pw = p.padding[1];
  for (int64_t c = 0; c < g.planes; ++c) {
    float* gp = gx + c * g.H * g.W;
    for (int64_t oh = 0; oh < g.OH; ++oh)
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        const float div = p.divisor ? float(p.divisor)
                                    : float(avgCount(oh, g.H, kh, sh, ph, p.countIncludePad) *
                                            avgCount(ow, g.W, kw, sw, pw, p.countIncludePad));
        const float v = gy[(c * g.OH + oh) * g.OW + ow] / div;
        const int64_t h0 = std::max<int64_t>(oh * sh - ph, 0),
                      h1 = std::min(oh * sh - ph + kh, g.H);
        const int64_t w0 = std::max<int64_t>(ow * sw - pw, 0),
                      w1 = std::min(ow * sw - pw + kw, g.W);
        for (int64_t ih = h0; ih < h1; ++ih)
          for (int64_t iw = w0; iw < w1; ++iw) gp[ih * g.W + iw] += v;
      }
  }
}

template <bool kBackward>
void adaptivePool(const float* src, float* dst, const Planes& g) {
  using shapes::adaptiveEnd;
  using shapes::adaptiveStart;
  for (int64_t c = 0; c < g.planes; ++c) {
    const float* xp = src + c * (kBackward ? g.OH * g.OW : g.H * g.W);
    float* yp = dst + c * (kBackward ? g.H * g.W : g.OH * g.OW);
    for (int64_t oh = 0; oh < g.OH; ++oh) {
      const int64_t h0 = adaptiveStart(oh, g.H, g.OH), h1 = adaptiveEnd(oh, g.H, g.OH);
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        const int64_t w0 = adaptiveStart(ow, g.W, g.OW), w1 = adaptiveEnd(ow, g.W, g.OW);
        const float kh = float(h1 - h0), kw = float(w1 - w0);
        if constexpr (kBackward) {
          const float v = xp[oh * g.OW + ow] / kh / kw;
          for (int64_t ih = h0; ih < h1; ++ih)
            for (int64_t iw = w0; iw < w1; ++iw) yp[ih * g.W + iw] += v;
        } else {
          float sum = 0;
          for (int64_t ih = h0; ih < h1; ++ih)
            for (int64_t iw = w0; iw < w1; ++iw) sum += xp[ih * g.W + iw];
          yp[oh * g.OW + ow] = sum / kh / kw;
        }
      }
    }
  }
}

// interpolate (nearest or bilinear) forward, or its backward (the transpose: every output's
// grad is added back to the input elements it read, with the same weights).
template <bool kBackward>
void interpolate(const float* src, float* dst, const Planes& g, const PoolAttrs& p) {
  std::vector<shapes::LinearTap> th(g.OH), tw(g.OW);
  const bool nearest = p.mode == shapes::InterpMode::Nearest;
  for (int64_t o = 0; o < g.OH; ++o)
    th[o] = nearest ? shapes::LinearTap{shapes::nearestSource(o, g.H, g.OH, p.scale[0]), 0, 1, 0}
                    : shapes::linearSource(o, g.H, g.OH, p.alignCorners, p.scale[0]);
  for (int64_t o = 0; o < g.OW; ++o)
    tw[o] = nearest ? shapes::LinearTap{shapes::nearestSource(o, g.W, g.OW, p.scale[1]), 0, 1, 0}
                    : shapes::linearSource(o, g.W, g.OW, p.alignCorners, p.scale[1]);
  for (int64_t c = 0; c < g.planes; ++c) {
    const float* xp = src + c * (kBackward ? g.OH * g.OW : g.H * g.W);
    float* yp = dst + c * (kBackward ? g.H * g.W : g.OH * g.OW);
    for (int64_t oh = 0; oh < g.OH; ++oh) {
      const shapes::LinearTap& a = th[oh];
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        const shapes::LinearTap& b = tw[ow];
        if (nearest) {
          if constexpr (kBackward)
            yp[a.i0 * g.W + b.i0] += xp[oh * g.OW + ow];
          else
            yp[oh * g.OW + ow] = xp[a.i0 * g.W + b.i0];
          continue;
        }
        if constexpr (kBackward) {
          const float v = xp[oh * g.OW + ow];
          yp[a.i0 * g.W + b.i0] += a.l0 * b.l0 * v;
          yp[a.i0 * g.W + b.i1] += a.l0 * b.l1 * v;
          yp[a.i1 * g.W + b.i0] += a.l1 * b.l0 * v;
          yp[a.i1 * g.W + b.i1] += a.l1 * b.l1 * v;
        } else {
          const float* r0 = xp + a.i0 * g.W;
          const float* r1 = xp + a.i1 * g.W;
          yp[oh * g.OW + ow] = a.l0 * (b.l0 * r0[b.i0] + b.l1 * r0[b.i1]) +
                               a.l1 * (b.l0 * r1[b.i0] + b.l1 * r1[b.i1]);
        }
      }
    }
  }
}

}  // namespace

Tensor runPool(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& sig) {
  Tensor out = emptyLike(sig);
  const bool backward = shapes::isPoolBackward(op);
  const bool gather = op == OpKind::MaxPool2dDoubleBackward;
  // Backward: in = [grad, x]; the planes are x's, the output sizes grad's. The gather: in =
  // [gg, x], gg of x's shape, the output sizes the forward's.
  const Tensor x = castTo(in[backward || gather ? 1 : 0], DType::F32).contiguous();
  const Tensor gy = backward || gather ? castTo(in[0], DType::F32).contiguous() : Tensor();
  const Planes g = planesOf(x.shape(), backward ? gy.shape() : out.shape());
  float* y = out.data<float>();
  if (backward || gather) std::fill(y, y + out.numel(), 0.0f);
  if (g.planes == 0 || out.numel() == 0) return out;
  const float* xs = x.data<float>();
  const PoolAttrs& p = attrs.pool;
  switch (op) {
    case OpKind::MaxPool2d:
      windowPool<true>(xs, y, g, p);
      break;
    case OpKind::AvgPool2d:
      windowPool<false>(xs, y, g, p);
      break;
    case OpKind::AdaptiveAvgPool2d:
      adaptivePool<false>(xs, y, g);
      break;
    case OpKind::Interpolate:
      interpolate<false>(xs, y, g, p);
      break;
    case OpKind::MaxPool2dBackward:
      maxPoolBackward(xs, gy.data<float>(), y, g, p);
      break;
    case OpKind::MaxPool2dDoubleBackward:
      maxPoolDoubleBackward(xs, gy.data<float>(), y, g, p);
      break;
    case OpKind::AvgPool2dBackward:
      avgPoolBackward(gy.data<float>(), y, g, p);
      break;
    case OpKind::AdaptiveAvgPool2dBackward:
      adaptivePool<true>(gy.data<float>(), y, g);
      break;
    case OpKind::InterpolateBackward:
      interpolate<true>(gy.data<float>(), y, g, p);
      break;
    default:
      TESSEL_ASSERT(false, "runPool: not a pooling op");
  }
  return out;
}

}  // namespace tessel::backends::cpu
