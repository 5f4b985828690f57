// Pooling and resizing geometry shared by the shape rule, the kernels and the graph printer:
// which ops are pooling ops, and PyTorch's window and source-index formulas (the cpu kernels
// use these; shaders/pool.comp repeats them in GLSL).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"

namespace tessel::shapes {

/// max_pool2d ... max_pool2d_double_backward (one contiguous block of op_list.def).
inline bool isPoolOp(OpKind op) {
  return op >= OpKind::MaxPool2d && op <= OpKind::MaxPool2dDoubleBackward;
}
inline bool isPoolBackward(OpKind op) {
  return op >= OpKind::MaxPool2dBackward && op <= OpKind::InterpolateBackward;
}
/// The forward op of a backward one (the op itself when it is a forward op): its geometry.
inline OpKind poolForward(OpKind op) {
  constexpr int kGap = int(OpKind::MaxPool2dBackward) - int(OpKind::MaxPool2d);
  if (op == OpKind::MaxPool2dDoubleBackward) return OpKind::MaxPool2d;
  return isPoolBackward(op) ? OpKind(int(op) - kGap) : op;
}
/// The graph printer's attribute text of a pooling op (every attribute: the tpu's program
/// cache is keyed by it).
std::string poolAttrsText(OpKind op, const OpAttrs& a);

/// adaptive_avg_pool2d's window [start, end) of output o: floor(o * in / out) to
/// ceil((o + 1) * in / out).
inline int64_t adaptiveStart(int64_t o, int64_t in, int64_t out) {
  return o * in / out;
}
inline int64_t adaptiveEnd(int64_t o, int64_t in, int64_t out) {
  return ((o + 1) * in + out - 1) / out;
}

/// PyTorch's area_pixel_compute_scale in f32: (in - 1) / (out - 1) with align_corners, else
/// 1 / scale_factor when one was given, else in / out.
inline float interpScale(int64_t in, int64_t out, bool alignCorners, double scale) {
  if (alignCorners) return out > 1 ? float(in - 1) / float(out - 1) : 0.0f;
  return scale > 0 ? float(1.0 / scale) : float(in) / float(out);
}

/// mode="nearest": PyTorch's nearest_idx (its exact cases for out == in and out == 2 in, else
/// min(floor(o * scale), in - 1) in f32).
inline int64_t nearestSource(int64_t o, int64_t in, int64_t out, double scale) {
  if (out == in) return o;
  if (out == 2 * in) return o >> 1;
  const float s = interpScale(in, out, false, scale);
  return std::min<int64_t>(int64_t(std::floor(float(o) * s)), in - 1);
}

/// mode="bilinear" along one dim: the two source indices and their weights (PyTorch's
/// compute_source_index_and_lambda).
struct LinearTap {
  int64_t i0 = 0, i1 = 0;
  float l0 = 1, l1 = 0;
};
inline LinearTap linearSource(int64_t o, int64_t in, int64_t out, bool alignCorners, double scale) {
  if (out == in) return {o, o, 1.0f, 0.0f};
  const float s = interpScale(in, out, alignCorners, scale);
  // PyTorch computes (o + 0.5) in double, then rounds to f32.
  float src = alignCorners ? s * float(o) : float(double(s) * (double(o) + 0.5) - 0.5);
  if (src < 0) src = 0;
  LinearTap t;
  t.i0 = std::min<int64_t>(int64_t(src), in - 1);
  t.i1 = t.i0 + (t.i0 < in - 1 ? 1 : 0);
  t.l1 = std::min(std::max(src - float(t.i0), 0.0f), 1.0f);
  t.l0 = 1.0f - t.l1;
  return t;
}

/// interpolate's output size for a scale factor: floor(in * scale) in f64, as PyTorch.
inline int64_t scaledSize(int64_t in, double scale) {
  return int64_t(std::floor(double(in) * scale));
}

}  // namespace tessel::shapes
