// Cases of the pooling and resizing ops (max_pool2d ... max_pool2d_double_backward) shared by the
// cross-backend parity tests (vulkan, tpu): odd image sizes, stride/padding/dilation
// combinations, count_include_pad, divisor_override, align_corners, scale factors, size-1 and
// empty dims, unbatched inputs, strided views, and inputs the shape rule rejects.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/pool_geometry.h"

namespace tessel::backends::testing {

struct PoolCase {
  std::vector<Tensor> inputs;
  shapes::OpAttrs attrs;
  std::string what;
};

/// `gen(shape)` makes a random f32 tensor.
inline std::vector<PoolCase> poolCases(shapes::OpKind op,
                                       const std::function<Tensor(const Dims&)>& gen) {
  using shapes::OpAttrs;
  using shapes::OpKind;
  const OpKind fwd = shapes::poolForward(op);
  const bool backward = shapes::isPoolBackward(op);
  const bool gather = op == OpKind::MaxPool2dDoubleBackward;
  std::vector<PoolCase> out;
  // x and attrs of a forward call; for a backward op, grad has the forward's output shape, for
  // max_pool2d_double_backward x's.
  auto add = [&](const Dims& xs, const OpAttrs& a, Dims ys, const std::string& what) {
    Tensor x = gen(xs);
    if (gather) {
      out.push_back({{gen(xs), x}, a, what});
      return;
    }
    if (!backward) {
      out.push_back({{x}, a, what});
      return;
    }
    out.push_back({{gen(ys), x}, a, what});
  };
  auto window = [](int64_t k0, int64_t k1, int64_t s0, int64_t s1, int64_t p0, int64_t p1,
                   int64_t d0 = 1, int64_t d1 = 1) {
    OpAttrs a;
    a.pool.kernel[0] = k0, a.pool.kernel[1] = k1;
    a.pool.stride[0] = s0, a.pool.stride[1] = s1;
    a.pool.padding[0] = p0, a.pool.padding[1] = p1;
    a.pool.dilation[0] = d0, a.pool.dilation[1] = d1;
    return a;
  };
  auto pooled = [&](const Dims& xs, const OpAttrs& a) {
    Dims ys = xs;
    const size_t h = xs.size() - 2;
    const bool max = fwd == OpKind::MaxPool2d;
    for (int d = 0; d < 2; ++d) {
      const int64_t span = (max ? a.pool.dilation[d] : 1) * (a.pool.kernel[d] - 1) + 1;
      const int64_t num = xs[h + d] + 2 * a.pool.padding[d] - span;
      ys[h + d] = num < 0 ? 1 : num / a.pool.stride[d] + 1;  // invalid: the rule rejects x
    }
    return ys;
  };
  auto sized = [](const Dims& xs, int64_t oh, int64_t ow) {
    Dims ys = xs;
    ys[ys.size() - 2] = oh, ys[ys.size() - 1] = ow;
    return ys;
  };
  switch (fwd) {
    case OpKind::MaxPool2d:
    case OpKind::AvgPool2d: {
      struct W {
        Dims x;
        OpAttrs a;
      };
      std::vector<W> ws = {
          {{2, 3, 7, 9}, window(3, 3, 2, 2, 1, 1)},  {{1, 2, 5, 5}, window(2, 2, 2, 2, 0, 0)},
          {{2, 1, 6, 11}, window(3, 2, 1, 3, 1, 0)}, {{3, 8, 8}, window(3, 3, 2, 2, 1, 1)},
          {{1, 1, 1, 1}, window(1, 1, 1, 1, 0, 0)},  {{0, 2, 5, 5}, window(2, 2, 1, 1, 1, 1)},
          {{2, 2, 1, 6}, window(1, 3, 1, 2, 0, 1)},  {{1, 3, 13, 4}, window(5, 4, 3, 1, 2, 2)}};
      if (fwd == OpKind::MaxPool2d) ws.push_back({{1, 2, 9, 10}, window(3, 2, 2, 1, 1, 1, 2, 3)});
      for (W& w : ws) {
        if (fwd == OpKind::AvgPool2d) {
          for (bool include : {true, false}) {
            w.a.pool.countIncludePad = include;
            add(w.x, w.a, pooled(w.x, w.a), include ? "count_include_pad" : "exclude pad");
          }
          continue;
        }
        add(w.x, w.a, pooled(w.x, w.a), "window");
      }
      if (fwd == OpKind::AvgPool2d) {
        OpAttrs a = window(3, 3, 2, 2, 1, 1);
        a.pool.divisor = 4;
        add({2, 2, 7, 7}, a, pooled({2, 2, 7, 7}, a), "divisor_override");
      }
      // Errors: a kernel larger than the padded input; padding over half the kernel.
      add({1, 1, 2, 2}, window(3, 3, 1, 1, 0, 0), {1, 1, 1, 1}, "kernel too large");
      add({1, 1, 6, 6}, window(2, 2, 1, 1, 2, 0), {1, 1, 1, 1}, "padding too large");
      break;
    }
    case OpKind::AdaptiveAvgPool2d:
      for (auto [xs, oh, ow] :
           std::vector<std::tuple<Dims, int64_t, int64_t>>{{{2, 3, 7, 9}, 3, 4},
                                                           {{1, 2, 5, 5}, 1, 1},
                                                           {{3, 10, 6}, 4, 6},
                                                           {{2, 1, 4, 4}, 7, 5},
                                                           {{0, 2, 4, 4}, 2, 2},
                                                           {{1, 1, 1, 9}, 1, 2}}) {
        OpAttrs a;
        a.shape = {oh, ow};
        add(xs, a, sized(xs, oh, ow), "adaptive");
      }
      break;
    default: {  // interpolate
      struct I {
        Dims x;
        int64_t oh, ow;
        shapes::InterpMode mode;
        bool align;
        double s0, s1;
      };
      using M = shapes::InterpMode;
      for (const I& i : std::vector<I>{{{2, 3, 5, 7}, 10, 14, M::Nearest, false, 0, 0},
                                       {{1, 2, 5, 7}, 3, 11, M::Nearest, false, 0, 0},
                                       {{1, 2, 6, 4}, 9, 6, M::Nearest, false, 1.5, 1.5},
                                       {{2, 2, 5, 7}, 8, 3, M::Bilinear, false, 0, 0},
                                       {{2, 2, 5, 7}, 8, 3, M::Bilinear, true, 0, 0},
                                       {{1, 3, 4, 6}, 10, 15, M::Bilinear, false, 2.5, 2.5},
                                       {{1, 1, 1, 5}, 1, 1, M::Bilinear, true, 0, 0},
                                       {{0, 2, 3, 3}, 6, 6, M::Bilinear, false, 0, 0},
                                       {{1, 1, 3, 3}, 3, 3, M::Nearest, false, 0, 0}}) {
        OpAttrs a;
        a.shape = {i.oh, i.ow};
        a.pool.mode = i.mode;
        a.pool.alignCorners = i.align;
        a.pool.scale[0] = i.s0, a.pool.scale[1] = i.s1;
        add(i.x, a, sized(i.x, i.oh, i.ow), "interpolate");
      }
      OpAttrs bad;
      bad.shape = {0, 3};  // ValueError: an output size of 0
      add({1, 1, 3, 3}, bad, {1, 1, 1, 3}, "zero size");
      break;
    }
  }
  // A strided view as input (the kernels make it contiguous).
  if (!backward) {
    OpAttrs a =
        fwd == OpKind::MaxPool2d || fwd == OpKind::AvgPool2d ? window(2, 2, 1, 1, 1, 1) : OpAttrs{};
    if (fwd == OpKind::AdaptiveAvgPool2d || fwd == OpKind::Interpolate) a.shape = {3, 5};
    a.pool.mode = shapes::InterpMode::Bilinear;
    out.push_back({{gen({2, 6, 4}).transpose(1, 2)}, a, "strided view"});
  }
  return out;
}

}  // namespace tessel::backends::testing
