// One compare-exchange stage (k, j) of a bitonic sort of 32-bit keys (f32 with NaN last, or
// i32), ascending, over a power-of-two length.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

layout(push_constant) uniform PC { uint n, k, j, isFloat; } pc;

bool less(uint a, uint b) {
  if (pc.isFloat != 0u) {
    float x = uintBitsToFloat(a), y = uintBitsToFloat(b);
    return x < y || (!isnan(x) && isnan(y));
  }
  return int(a) < int(b);
}

void main() {
  uint i = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (i >= pc.n) return;
  uint l = i ^ pc.j;
  if (l <= i || l >= pc.n) return;
  uint a = buf[0].d[i], b = buf[0].d[l];
  bool ascending = (i & pc.k) == 0u;
  if (ascending ? less(b, a) : less(a, b)) {
    buf[0].d[i] = b;
    buf[0].d[l] = a;
  }
}
