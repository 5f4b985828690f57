// argsort on CPU devices (ops_sort.cpp, Note [Row radix sort]): an LSD radix sort of (key,
// flat index) pairs, two words per element. Key passes order every element by its key; the
// row passes that follow order them by row (flat index / rowLen), and each pass is stable, so
// the result is every row in key order with equal keys in index order: the stable order.
// Each counting or scattering walk is one invocation reading its chunk in order (as
// radix.comp, Note [Radix sort] in ops_data_dependent.cpp).
// Bindings: 0 pairs in (encode: the keys at xOff), 1 pairs out (decode: the i32 in-row indices),
// 2 counts (chunks x 256), 3 digit totals and bases (512).
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

// 1: the keys are f32, else i32.
layout(constant_id = 0) const uint kFloat = 0;

#define X_ENCODE 0u
#define X_COUNT 1u
#define X_SCAN_CHUNKS 2u
#define X_SCAN_DIGITS 3u
#define X_SCATTER 4u
#define X_DECODE 5u

layout(push_constant) uniform PC {
  uint n, mode, shift, chunk, chunks, rowLen, rowPass, flip, xOff;
} pc;

// The cpu's keys (Note [Sort keys] in backends/cpu/sort.cpp).
uint encode(uint v) {
  if (kFloat == 0u) return v ^ 0x80000000u;
  if (isnan(uintBitsToFloat(v))) v = 0x7fc00000u;
  if ((v & 0x7fffffffu) == 0u) v = 0u;  // -0.0 is +0.0
  return (v & 0x80000000u) != 0u ? ~v : v | 0x80000000u;
}

uint digit(uint e) {
  if (pc.rowPass != 0u) return ((buf[0].d[2u * e + 1u] / pc.rowLen) >> pc.shift) & 255u;
  return (buf[0].d[2u * e] >> pc.shift) & 255u;
}

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (pc.mode == X_ENCODE) {
    if (g < pc.n) {
      buf[1].d[2u * g] = encode(buf[0].d[pc.xOff + g]) ^ pc.flip;
      buf[1].d[2u * g + 1u] = g;
    }
    return;
  }
  if (pc.mode == X_DECODE) {
    if (g < pc.n) buf[1].d[g] = buf[0].d[2u * g + 1u] % pc.rowLen;
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
  // X_COUNT and X_SCATTER: invocation g walks chunk g of the pairs in order.
  if (g >= pc.chunks) return;
  const uint lo = g * pc.chunk, hi = min(pc.n, lo + pc.chunk);
  if (pc.mode == X_COUNT) {
    for (uint d = 0u; d < 256u; ++d) buf[2].d[g * 256u + d] = 0u;
    STRIDED_LOOP(i, lo, hi, 1u) buf[2].d[g * 256u + digit(i)] += 1u;
    return;
  }
  STRIDED_LOOP(i, lo, hi, 1u) {
    const uint d = digit(i);
    const uint slot = g * 256u + d;
    const uint at = buf[3].d[256u + d] + buf[2].d[slot];
    buf[2].d[slot] += 1u;
    buf[1].d[2u * at] = buf[0].d[2u * i];
    buf[1].d[2u * at + 1u] = buf[0].d[2u * i + 1u];
  }
}
