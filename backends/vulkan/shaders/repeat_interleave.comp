// repeat_interleave of a contiguous [outer, n, inner] tensor of 32-bit words (bool is widened
// to i32 by the host) into [outer, total, inner]: one invocation per output element finds its
// source row i, the first with cum[i] > j (cum: the inclusive prefix sum of the repeats), by
// binary search. Sizes are push constants: one pipeline serves every size.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

layout(push_constant) uniform PC { uint count, total, n, inner, xOff, cumOff; } pc;

void main() {
  uint e = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (e >= pc.count) return;
  uint b = e % pc.inner;
  uint row = e / pc.inner;  // a * total + j
  uint j = row % pc.total, a = row / pc.total;
  uint lo = 0u, hi = pc.n - 1u;  // cum[n - 1] = total > j, so the answer is in [0, n - 1]
  while (lo < hi) {
    uint mid = (lo + hi) >> 1;
    if (buf[2].d[pc.cumOff + mid] > j) hi = mid; else lo = mid + 1u;
  }
  buf[0].d[e] = buf[1].d[pc.xOff + (a * pc.n + lo) * pc.inner + b];
}
