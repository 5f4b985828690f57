// nms on the device (ops_sort.cpp, Note [Device nms]).
// Mode 0 (one invocation per box i and word w, boxes in score order): bit b of mask[i, w] is
// set when box j = 32 w + b comes after i and its IoU with i is above the threshold; binding 0
// the [n, 4] boxes at xOff, 1 the score order, 2 the [n, words] mask. The IoU is computed as
// torchvision's kernel does (float, same operation order).
// Mode 1 (one invocation): the greedy walk in score order over the mask rows; binding 0 the
// mask, 1 `words` words of removed bits (zeroed by the host), 2 the i32 keep flags.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

layout(push_constant) uniform PC { uint n, words, mode, xOff; float thr; } pc;

vec4 box(uint sorted) { 
  const uint b = pc.xOff + buf[1].d[sorted] * 4u;
  return vec4(uintBitsToFloat(buf[0].d[b]), uintBitsToFloat(buf[0].d[b + 1u]),
              uintBitsToFloat(buf[0].d[b + 2u]), uintBitsToFloat(buf[0].d[b + 3u]));
}

void maskWord(uint g) {
  if (g >= pc.n * pc.words) return;
  const uint i = g / pc.words, w = g % pc.words;
  const vec4 a = box(i);
  const float areaA = (a.z - a.x) * (a.w - a.y);
  uint bits = 0u;
  for (uint b = 0u; b < 32u; ++b) {
    const uint j = w * 32u + b;
    if (j <= i || j >= pc.n) continue;
    const vec4 c = box(j);
    const float areaC = (c.z - c.x) * (c.w - c.y);
    const float iw = max(0.0, min(a.z, c.z) - max(a.x, c.x));
    const float ih = max(0.0, min(a.w, c.w) - max(a.y, c.y));
    const float inter = iw * ih;
    const float ovr = inter / (areaA + areaC - inter);
    if (ovr > pc.thr) bits |= 1u << b;
  }
  buf[2].d[g] = bits;
}

void greedy() {
  STRIDED_LOOP(i, 0u, pc.n, 1u) {
    const bool removed = (buf[1].d[i >> 5] & (1u << (i & 31u))) != 0u;
    buf[2].d[i] = removed ? 0u : 1u;
    if (removed) continue;
    for (uint w = i >> 5; w < pc.words; ++w) buf[1].d[w] |= buf[0].d[i * pc.words + w];
  }
}

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (pc.mode == 0u) {
    maskWord(g);
  } else if (g == 0u) {
    greedy();
  }
}
