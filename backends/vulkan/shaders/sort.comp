// Ascending sort of 32-bit keys (f32 with NaN last, or i32) for unique: a bottom-up merge sort
// (Note [Merge sort] in ops_data_dependent.cpp). Mode 0 sorts runs of `width` keys in place
// (binding 0), one run per invocation; mode 1 merges pairs of sorted runs of `width` keys from
// binding 0 into binding 1, each invocation writing `seg` consecutive outputs.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

// 1: the keys are f32 (a specialization constant: `less` sits in every inner loop).
layout(constant_id = 0) const uint kFloat = 0;

layout(push_constant) uniform PC { uint n, mode, width, seg; } pc;

bool less(uint a, uint b) {
  if (kFloat != 0u) {
    float x = uintBitsToFloat(a), y = uintBitsToFloat(b);
    return x < y || (!isnan(x) && isnan(y));
  }
  return int(a) < int(b);
}

// Insertion sort of keys [lo, hi) in binding 0 (the host keeps runs short).
void sortRun(uint lo, uint hi) {
  for (uint i = lo + 1u; i < hi; ++i) {
    const uint v = buf[0].d[i];
    uint j = i;
    while (j > lo && less(v, buf[0].d[j - 1u])) {
      buf[0].d[j] = buf[0].d[j - 1u];
      --j;
    }
    buf[0].d[j] = v;
  }
}

// Outputs [o, o + seg) of the merge of runs A = [a0, a0 + la) and B = [a0 + la, + lb), where
// a0 is the pair's start: a binary search on the merge path finds how many of the first
// outputs come from A (A first on ties: stable), then a serial merge writes the segment.
void mergeSegment(uint o) {
  const uint w = pc.width;
  const uint a0 = o / (2u * w) * (2u * w);
  const uint la = min(w, pc.n - a0);
  const uint b0 = a0 + la;
  const uint lb = min(w, pc.n - b0);
  const uint d = o - a0;
  uint lo = d > lb ? d - lb : 0u, hi = min(d, la);
  while (lo < hi) {
    const uint mid = (lo + hi) >> 1;
    if (!less(buf[0].d[b0 + d - 1u - mid], buf[0].d[a0 + mid])) lo = mid + 1u;
    else hi = mid;
  }
  uint i = lo, j = d - lo;
  const uint end = min(la + lb, d + pc.seg);
  for (uint k = d; k < end; ++k) {
    const bool fromA = j >= lb || (i < la && !less(buf[0].d[b0 + j], buf[0].d[a0 + i]));
    if (fromA) {
      buf[1].d[a0 + k] = buf[0].d[a0 + i];
      ++i;
    } else {
      buf[1].d[a0 + k] = buf[0].d[b0 + j];
      ++j;
    }
  }
}

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (pc.mode == 0u) {
    const uint lo = g * pc.width;
    if (lo < pc.n) sortRun(lo, min(pc.n, lo + pc.width));
    return;
  }
  const uint o = g * pc.seg;
  if (o < pc.n) mergeSegment(o);
}
