// Row kernels over a contiguous [rows, n] f32 input, one workgroup per row: softmax,
// log_softmax, layer_norm (optional weight and bias) and the per-row cross-entropy loss.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

#define ROW_SOFTMAX 0u
#define ROW_LOG_SOFTMAX 1u
#define ROW_LAYER_NORM 2u
#define ROW_CROSS_ENTROPY 3u

layout(push_constant) uniform PC {
  uint rows, n, op, xOff;
  uint wOff, bOff, flags;  // layer_norm: bit 0 weight, bit 1 bias; cross_entropy: labels at wOff
  float eps;
} pc;

shared float red[256];

float rowMaxOf(uint base) {
  uint t = gl_LocalInvocationID.x;
  float m = -kInf;
  STRIDED_LOOP(i, t, pc.n, 256u) {
    float v = uintBitsToFloat(buf[1].d[base + i]);
    m = (v > m || isnan(v)) ? v : m;
  }
  red[t] = m;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) {
      float v = red[t + s];
      red[t] = (v > red[t] || isnan(v)) ? v : red[t];
    }
    barrier();
  }
  float r = red[0];
  barrier();
  return r;
}

float rowSum(float v) {
  uint t = gl_LocalInvocationID.x;
  red[t] = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    barrier();
  }
  float r = red[0];
  barrier();
  return r;
}

float x(uint base, uint i) { return uintBitsToFloat(buf[1].d[base + i]); }

void main() {
  uint row = linearGroup();
  if (row >= pc.rows) return;
  uint t = gl_LocalInvocationID.x;
  uint base = pc.xOff + row * pc.n, obase = row * pc.n;
  if (pc.op == ROW_LAYER_NORM) {
    float s = 0.0;
    STRIDED_LOOP(i, t, pc.n, 256u) s += x(base, i);
    float mean = rowSum(s) / float(pc.n);
    float q = 0.0;
    STRIDED_LOOP(i, t, pc.n, 256u) q += (x(base, i) - mean) * (x(base, i) - mean);
    float rstd = 1.0 / sqrt(rowSum(q) / float(pc.n) + pc.eps);
    STRIDED_LOOP(i, t, pc.n, 256u) {
      float o = (x(base, i) - mean) * rstd;
      if ((pc.flags & 1u) != 0u) o *= uintBitsToFloat(buf[2].d[pc.wOff + i]);
      if ((pc.flags & 2u) != 0u) o += uintBitsToFloat(buf[3].d[pc.bOff + i]);
      buf[0].d[obase + i] = floatBitsToUint(o);
    }
    return;
  }
  float m = rowMaxOf(base);
  float s = 0.0;
  if (!isinf(m))
    STRIDED_LOOP(i, t, pc.n, 256u) s += exp(x(base, i) - m);
  float total = rowSum(s);
  if (pc.op == ROW_CROSS_ENTROPY) {
    if (t != 0u) return;
    int y = int(buf[2].d[pc.wOff + row]);
    if (y < 0 || uint(y) >= pc.n) {
      atomicOr(buf[3].d[0], FLAG_BAD_INDEX);
      buf[0].d[row] = floatBitsToUint(0.0);
      return;
    }
    float lse = isinf(m) ? m : m + log(total);
    buf[0].d[row] = floatBitsToUint(lse - x(base, uint(y)));
    return;
  }
  if (pc.op == ROW_LOG_SOFTMAX) {
    float ls = isinf(m) ? 0.0 : log(total);
    STRIDED_LOOP(i, t, pc.n, 256u) buf[0].d[obase + i] = floatBitsToUint((x(base, i) - m) - ls);
    return;
  }
  float inv = 1.0 / total;
  STRIDED_LOOP(i, t, pc.n, 256u)
    buf[0].d[obase + i] = floatBitsToUint(exp(x(base, i) - m) * inv);
}
