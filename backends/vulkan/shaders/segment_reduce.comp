// segment_reduce of a contiguous f32 [outer, N, inner] tensor along N into [outer, S, inner]:
// one invocation per output element walks its segment's rows in order (deterministic, no
// atomics), starting from `initial` or the identity. Segment s ends at cum[s] (the inclusive
// prefix sum of the lengths) and has lengths[s] rows. mean divides by the length; an empty
// segment is `initial`, else NaN for mean (PyTorch 1.13). max/min propagate NaN.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

#define M_SUM 1u
#define M_PROD 2u
#define M_MEAN 3u
#define M_AMAX 4u
#define M_AMIN 5u
// The mode (shapes::ScatterMode).
layout(constant_id = 0) const uint kMode = 1u;

layout(push_constant) uniform PC {
  uint count, segs, N, inner, dataOff, cumOff, lenOff, hasInit, init;
} pc;

float identity() {
  if (kMode == M_PROD) return 1.0;
  if (kMode == M_AMAX) return -kInf;
  if (kMode == M_AMIN) return kInf;
  return 0.0;
}

void main() {
  uint e = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (e >= pc.count) return;
  uint b = e % pc.inner;
  uint row = e / pc.inner;
  uint s = row % pc.segs, a = row / pc.segs;
  uint len = buf[3].d[pc.lenOff + s];
  uint end = buf[2].d[pc.cumOff + s];
  float acc = pc.hasInit != 0u ? uintBitsToFloat(pc.init) : identity();
  uint base = pc.dataOff + a * pc.N * pc.inner + b;
  STRIDED_LOOP(j, end - len, end, 1u) {
    float v = uintBitsToFloat(buf[1].d[base + j * pc.inner]);
    if (kMode == M_SUM || kMode == M_MEAN) acc += v;
    else if (kMode == M_PROD) acc *= v;
    else if (kMode == M_AMAX) acc = (v > acc || isnan(v)) ? v : acc;
    else acc = (v < acc || isnan(v)) ? v : acc;
  }
  if (kMode == M_MEAN) {
    if (len > 0u) acc *= 1.0 / float(len);  // as the cpu kernel
    else if (pc.hasInit == 0u) acc = kNaN;
  }
  buf[0].d[e] = floatBitsToUint(acc);
}
