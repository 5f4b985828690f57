// nms: torchvision.ops.nms on the cpu. Boxes are visited in decreasing score (ties: lower index
// first); a box is kept unless its IoU with an already kept box is above the threshold. The
// IoU is computed exactly as torchvision's cpu kernel does (float, the same operation order),
// so borderline boxes fall the same way.
#include <algorithm>
#include <numeric>

#include "backends/cpu/kernels.h"

namespace tessel::backends::cpu {

namespace {

// Suppresses every box j in (i, n) whose IoU with box i is above `thr`. The coordinates are in
// score order (structure of arrays), so the loop is a straight pass that vectorizes.
void suppressAfter(int64_t i, int64_t n, const float* __restrict x1, const float* __restrict y1,
                   const float* __restrict x2, const float* __restrict y2,
                   const float* __restrict area, float thr, uint8_t* __restrict suppressed) {
  const float ix1 = x1[i], iy1 = y1[i], ix2 = x2[i], iy2 = y2[i], iarea = area[i];
  for (int64_t j = i + 1; j < n; ++j) {
    const float w = std::max(0.0f, std::min(ix2, x2[j]) - std::max(ix1, x1[j]));
    const float h = std::max(0.0f, std::min(iy2, y2[j]) - std::max(iy1, y1[j]));
    const float inter = w * h;
    const float ovr = inter / (iarea + area[j] - inter);
    suppressed[j] |= uint8_t(ovr > thr);
  }
}

}  // namespace

Tensor nms(std::span<const Tensor> in, const OpAttrs& attrs) {
  const Tensor boxes = in[0].contiguous();
  const Tensor scores = in[1].contiguous();
  const int64_t n = scores.numel();
  const float* b = boxes.data<float>();
  const float* s = scores.data<float>();
  std::vector<int32_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  // Decreasing score; NaN first as torch.sort(descending=True) puts it; stable.
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t c) {
    const float sa = s[a], sc = s[c];
    return sa > sc || (sa != sa && sc == sc);
  });
  const size_t count = static_cast<size_t>(n);
  std::vector<float> x1(count), y1(count), x2(count), y2(count), area(count);
  for (int64_t r = 0; r < n; ++r) {
    const float* p = b + int64_t(order[size_t(r)]) * 4;
    x1[size_t(r)] = p[0];
    y1[size_t(r)] = p[1];
    x2[size_t(r)] = p[2];
    y2[size_t(r)] = p[3];
    area[size_t(r)] = (p[2] - p[0]) * (p[3] - p[1]);
  }
  const float thr = float(attrs.scalars.empty() ? 0.5 : attrs.scalars[0]);
  std::vector<uint8_t> suppressed(static_cast<size_t>(n), 0);
  std::vector<int32_t> keep;
  for (int64_t i = 0; i < n; ++i) {
    if (suppressed[size_t(i)]) continue;
    keep.push_back(order[size_t(i)]);
    suppressAfter(i, n, x1.data(), y1.data(), x2.data(), y2.data(), area.data(), thr,
                  suppressed.data());
  }
  std::vector<shapes::OpSignature> sigs;
  for (const Tensor& t : in)
    sigs.push_back({shapes::SymShape(t.shape().begin(), t.shape().end()), t.dtype()});
  OpAttrs a = attrs;
  a.outputSize = int64_t(keep.size());
  Tensor out = emptyLike(shapes::inferShape(OpKind::Nms, sigs, a).at(0));
  std::copy(keep.begin(), keep.end(), out.data<int32_t>());
  return out;
}

}  // namespace tessel::backends::cpu
