// Inclusive prefix sum of u32 words, in place (operand 0). Mode 0: each workgroup scans 1024
// words and writes its total to operand 1; mode 1: adds the scanned total of the blocks
// before it (operand 1) to every word of a block. The host recurses over the block totals.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

layout(push_constant) uniform PC { uint n, mode; } pc;

shared uint part[256];

void main() {
  uint g = linearGroup(), t = gl_LocalInvocationID.x;
  uint base = g * 1024u + t * 4u;
  if (pc.mode == 1u) {
    if (g == 0u) return;
    uint add = buf[1].d[g - 1u];
    for (uint k = 0u; k < 4u; ++k)
      if (base + k < pc.n) buf[0].d[base + k] += add;
    return;
  }
  uint v[4];
  uint s = 0u;
  for (uint k = 0u; k < 4u; ++k) {
    v[k] = base + k < pc.n ? buf[0].d[base + k] : 0u;
    s += v[k];
    v[k] = s;
  }
  part[t] = s;
  barrier();
  // Hillis-Steele over the 256 thread totals.
  for (uint off = 1u; off < 256u; off <<= 1) {
    uint add = t >= off ? part[t - off] : 0u;
    barrier();
    part[t] += add;
    barrier();
  }
  uint before = t > 0u ? part[t - 1u] : 0u;
  for (uint k = 0u; k < 4u; ++k)
    if (base + k < pc.n) buf[0].d[base + k] = v[k] + before;
  if (t == 255u) buf[1].d[g] = part[255];
}
