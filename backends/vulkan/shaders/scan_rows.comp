// Segmented inclusive scan (cumsum, cumprod) of a contiguous [rows, n] tensor, row by row. Each
// row is cut into chunks of 1024 elements; a workgroup owns one chunk of one row.
// Mode 0: scans its chunk from operand 1 (at xOff) into operand 0 and, when `totals` is set,
// writes the chunk's total to operand 2 at [row, chunk]. Mode 1: combines every element of
// chunk c > 0 with the scanned total of chunk c - 1 (operand 2). The host scans the [rows,
// chunks] totals with this same kernel in between, so one pipeline per variant serves every
// size (backends.md: sizes are push constants).
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

// Bit 0: product (else sum); bit 1: integers (wrapping u32 arithmetic), else f32.
layout(constant_id = 0) const uint kVariant = 0;

layout(push_constant) uniform PC { uint rows, n, chunks, mode, xOff, totals; } pc;

shared uint part[256];

uint combine(uint a, uint b) {
  bool prod = (kVariant & 1u) != 0u;
  if ((kVariant & 2u) != 0u) return prod ? a * b : a + b;
  float fa = uintBitsToFloat(a), fb = uintBitsToFloat(b);
  return floatBitsToUint(prod ? fa * fb : fa + fb);
}
uint identity() {
  if ((kVariant & 1u) == 0u) return 0u;  // 0 and 0.0 share their bits
  return (kVariant & 2u) != 0u ? 1u : floatBitsToUint(1.0);
}

void main() {
  uint g = linearGroup(), t = gl_LocalInvocationID.x;
  if (g >= pc.rows * pc.chunks) return;  // whole workgroups only: barriers stay uniform
  uint row = g / pc.chunks, chunk = g % pc.chunks;
  uint start = chunk * 1024u + t * 4u;
  uint rowBase = row * pc.n;
  if (pc.mode == 1u) {
    if (chunk == 0u) return;
    uint before = buf[2].d[row * pc.chunks + chunk - 1u];
    for (uint k = 0u; k < 4u; ++k)
      if (start + k < pc.n) buf[0].d[rowBase + start + k] = combine(before, buf[0].d[rowBase + start + k]);
    return;
  }
  uint v[4];
  uint s = identity();
  for (uint k = 0u; k < 4u; ++k) {
    uint e = start + k < pc.n ? buf[1].d[pc.xOff + rowBase + start + k] : identity();
    s = combine(s, e);
    v[k] = s;
  }
  part[t] = s;
  barrier();
  // Hillis-Steele over the 256 thread totals.
  for (uint off = 1u; off < 256u; off <<= 1) {
    uint other = t >= off ? part[t - off] : identity();
    barrier();
    part[t] = combine(other, part[t]);
    barrier();
  }
  uint before = t > 0u ? part[t - 1u] : identity();
  for (uint k = 0u; k < 4u; ++k)
    if (start + k < pc.n) buf[0].d[rowBase + start + k] = combine(before, v[k]);
  if (pc.totals != 0u && t == 255u) buf[2].d[row * pc.chunks + chunk] = part[255];
}
