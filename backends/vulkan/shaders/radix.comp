// LSD radix sort of 32-bit keys for unique on CPU devices (Note [Radix sort] in
// ops_data_dependent.cpp): four passes of eight bits, each a histogram per chunk, a scan per
// digit across chunks, a scan across digits and a stable scatter; every walk over the keys is
// one invocation reading its chunk in order.
// Bindings: 0 keys in, 1 keys out, 2 counts (chunks x 256), 3 digit totals and bases (512).
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

// 1: the values are f32 (the key transform differs).
layout(constant_id = 0) const uint kFloat = 0;

#define X_ENCODE 0u
#define X_COUNT 1u
#define X_SCAN_CHUNKS 2u
#define X_SCAN_DIGITS 3u
#define X_SCATTER 4u
#define X_DECODE 5u

layout(push_constant) uniform PC { uint n, mode, shift, chunk, chunks; } pc;

// Keys whose unsigned order is the values' order: ints with the sign bit flipped; floats with
// every bit flipped when negative, the sign bit when not; NaN (any payload) becomes the one
// quiet NaN, which then sorts after +inf.
uint encode(uint v) {
  if (kFloat == 0u) return v ^ 0x80000000u;
  if (isnan(uintBitsToFloat(v))) v = 0x7fc00000u;
  return (v & 0x80000000u) != 0u ? ~v : v | 0x80000000u;
}
uint decode(uint k) {
  if (kFloat == 0u) return k ^ 0x80000000u;
  return (k & 0x80000000u) != 0u ? k & 0x7fffffffu : ~k;
}

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (pc.mode == X_ENCODE || pc.mode == X_DECODE) {
    if (g < pc.n) buf[1].d[g] = pc.mode == X_ENCODE ? encode(buf[0].d[g]) : decode(buf[0].d[g]);
    return;
  }
  if (pc.mode == X_SCAN_CHUNKS) {  // invocation g: digit g across the chunks, exclusive
    if (g >= 256u) return;
    uint run = 0u;
    STRIDED_LOOP(c, 0u, pc.chunks, 1u) {
      const uint t = buf[2].d[c * 256u + g];
      buf[2].d[c * 256u + g] = run;
      run += t;
    }
    buf[3].d[g] = run;
    return;
  }
  if (pc.mode == X_SCAN_DIGITS) {  // one invocation: bases of the digits, after the totals
    if (g != 0u) return;
    uint run = 0u;
    for (uint d = 0u; d < 256u; ++d) {
      buf[3].d[256u + d] = run;
      run += buf[3].d[d];
    }
    return;
  }
  // X_COUNT and X_SCATTER: invocation g walks chunk g of the keys in order.
  if (g >= pc.chunks) return;
  const uint lo = g * pc.chunk, hi = min(pc.n, lo + pc.chunk);
  if (pc.mode == X_COUNT) {
    for (uint d = 0u; d < 256u; ++d) buf[2].d[g * 256u + d] = 0u;
    STRIDED_LOOP(i, lo, hi, 1u) {
      const uint d = (buf[0].d[i] >> pc.shift) & 255u;
      buf[2].d[g * 256u + d] += 1u;
    }
    return;
  }
  STRIDED_LOOP(i, lo, hi, 1u) {
    const uint k = buf[0].d[i];
    const uint slot = g * 256u + ((k >> pc.shift) & 255u);
    const uint at = buf[3].d[256u + ((k >> pc.shift) & 255u)] + buf[2].d[slot];
    buf[2].d[slot] += 1u;
    buf[1].d[at] = k;
  }
}
