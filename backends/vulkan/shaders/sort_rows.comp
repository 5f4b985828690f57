// argsort/topk and searchsorted (ops_sort.cpp, Note [Row merge sort]). Each row of n keys of a
// contiguous [rows, n] tensor (binding 0 at xOff) is argsorted on its own: the sort moves
// indices, and every comparison loads the two keys. Keys compare as the cpu's (Note [Sort
// keys] in backends/cpu/sort.cpp): a key with its index below it is a total order, so the
// result is the stable order and ties never depend on the schedule.
// Mode 0: sorts runs of `width` indices in place in binding 1, one run per invocation.
// Mode 1: merges pairs of sorted runs of `width` from binding 1 into binding 2, each
// invocation writing `seg` consecutive outputs of one row.
// Mode 2: searchsorted: binding 0 the sorted rows of `width` (at xOff), binding 1 the values
// (at yOff, `n` of them), binding 2 the i32 insertion points; `seg` values share a row (0: one
// 1-D sorted sequence for all); `desc` is `right`.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

// 1: the keys are f32, else i32.
layout(constant_id = 0) const uint kFloat = 0;

layout(push_constant) uniform PC { uint rows, n, mode, width, seg, xOff, desc, yOff; } pc;

uint encode(uint v) {
  if (kFloat == 0u) return v ^ 0x80000000u;
  if (isnan(uintBitsToFloat(v))) v = 0x7fc00000u;
  if ((v & 0x7fffffffu) == 0u) v = 0u;  // -0.0 is +0.0
  return (v & 0x80000000u) != 0u ? ~v : v | 0x80000000u;
}
uint key(uint rowBase, uint i) {
  uint k = encode(buf[0].d[pc.xOff + rowBase + i]);
  return pc.desc != 0u ? ~k : k;
}
// Is index a before index b in the row's order?
bool before(uint rowBase, uint a, uint b) {
  uint ka = key(rowBase, a), kb = key(rowBase, b);
  return ka < kb || (ka == kb && a < b);
}

void sortRun(uint rowBase, uint lo, uint hi) {
  for (uint i = lo; i < hi; ++i) buf[1].d[rowBase + i] = i;
  for (uint i = lo + 1u; i < hi; ++i) {
    const uint v = buf[1].d[rowBase + i];
    uint j = i;
    while (j > lo && before(rowBase, v, buf[1].d[rowBase + j - 1u])) {
      buf[1].d[rowBase + j] = buf[1].d[rowBase + j - 1u];
      --j;
    }
    buf[1].d[rowBase + j] = v;
  }
}

// Outputs [o, o + seg) of the merge of two runs of one row: a binary search on the merge path
// finds how many of the first outputs come from A, then a serial merge.
void mergeSegment(uint rowBase, uint o) {
  const uint w = pc.width, n = pc.n;
  const uint a0 = o / (2u * w) * (2u * w);
  const uint la = min(w, n - a0);
  const uint b0 = a0 + la;
  const uint lb = b0 < n ? min(w, n - b0) : 0u;
  const uint d = o - a0;
  uint lo = d > lb ? d - lb : 0u, hi = min(d, la);
  while (lo < hi) {
    const uint mid = (lo + hi) >> 1;
    if (!before(rowBase, buf[1].d[rowBase + b0 + d - 1u - mid], buf[1].d[rowBase + a0 + mid]))
      lo = mid + 1u;
    else
      hi = mid;
  }
  uint i = lo, j = d - lo;
  const uint end = min(la + lb, d + pc.seg);
  for (uint k = d; k < end; ++k) {
    const bool fromA = j >= lb || (i < la && !before(rowBase, buf[1].d[rowBase + b0 + j],
                                                     buf[1].d[rowBase + a0 + i]));
    if (fromA) {
      buf[2].d[rowBase + a0 + k] = buf[1].d[rowBase + a0 + i];
      ++i;
    } else {
      buf[2].d[rowBase + a0 + k] = buf[1].d[rowBase + b0 + j];
      ++j;
    }
  }
}

// a >= b (orEqual) or a > b in the keys' type; false when either float is NaN.
bool aboveVal(uint a, uint b, bool orEqual) {
  if (kFloat != 0u) {
    const float x = uintBitsToFloat(a), y = uintBitsToFloat(b);
    return orEqual ? x >= y : x > y;
  }
  return orEqual ? int(a) >= int(b) : int(a) > int(b);
}

void search(uint g) {
  if (g >= pc.n) return;
  const uint base = pc.xOff + (pc.seg == 0u ? 0u : g / pc.seg * pc.width);
  const uint v = buf[1].d[pc.yOff + g];
  uint lo = 0u, hi = pc.width;
  while (lo < hi) {
    const uint mid = (lo + hi) >> 1;
    const uint s = buf[0].d[base + mid];
    // left: first s >= v (go right while !(s >= v)); right: first s > v (go right while
    // !(s > v)); with NaN as PyTorch (Note [Searchsorted and NaN] in backends/cpu/sort.cpp).
    const bool goRight = !aboveVal(s, v, pc.desc == 0u);
    if (goRight) lo = mid + 1u;
    else hi = mid;
  }
  buf[2].d[g] = lo;
}

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (pc.mode == 2u) {
    search(g);
    return;
  }
  const uint per = (pc.n + pc.seg - 1u) / pc.seg;  // runs or segments per row
  if (g >= pc.rows * per) return;
  const uint row = g / per, o = (g % per) * pc.seg;
  const uint rowBase = row * pc.n;
  if (pc.mode == 0u)
    sortRun(rowBase, o, min(pc.n, o + pc.width));
  else
    mergeSegment(rowBase, o);
}
