// Row kernels over a contiguous [rows, n] f32 input, one workgroup or one invocation per row
// (Note [Rows alone]): softmax, log_softmax, layer_norm (optional weight and bias) and the
// per-row cross-entropy loss.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

#define ROW_SOFTMAX 0u
#define ROW_LOG_SOFTMAX 1u
#define ROW_LAYER_NORM 2u
#define ROW_CROSS_ENTROPY 3u

// The op is a specialization constant (one pipeline per op; llvmpipe runs every branch on a
// push constant it cannot prove uniform, as in elementwise.comp).
layout(constant_id = 0) const uint kOp = 0;

layout(push_constant) uniform PC {
  uint rows, n, alone, xOff;  // alone: Note [Rows alone]
  uint wOff, bOff, flags;  // layer_norm: bit 0 weight, bit 1 bias; cross_entropy: labels at
                           // wOff; bit 2: bOff is an ignore index
  float eps;
} pc;

shared float red[256];

// Note [Rows alone]
// With `alone` set (the host's choice for many rows on a CPU device, as Note [Reduction
// modes] in ops_reduce.cpp) each invocation owns one row and walks it by itself: no barriers
// and no shared-memory trees, which on llvmpipe cost more than the row's arithmetic. Otherwise
// a workgroup owns a row and its 256 lanes meet in shared memory. `alone` is uniform (a push
// constant), so the tree path's barriers stay in uniform control flow.
bool alone() { return pc.alone != 0u; }
uint lane() { return alone() ? 0u : gl_LocalInvocationID.x; }
uint lanes() { return alone() ? 1u : 256u; }

float x(uint base, uint i) { return uintBitsToFloat(buf[1].d[base + i]); }

float maxOf(float a, float b) { return (b > a || isnan(b)) ? b : a; }

float rowMaxOf(uint base) {
  float m = -kInf;
  STRIDED_LOOP(i, lane(), pc.n, lanes()) m = maxOf(m, x(base, i));
  if (alone()) return m;
  uint t = gl_LocalInvocationID.x;
  red[t] = m;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) red[t] = maxOf(red[t], red[t + s]);
    barrier();
  }
  float r = red[0];
  barrier();
  return r;
}

float rowSum(float v) {
  if (alone()) return v;
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

void main() {
  uint row = alone() ? linearGroup() * 256u + gl_LocalInvocationID.x : linearGroup();
  if (row >= pc.rows) return;
  const uint l = lane(), ls = lanes();
  uint base = pc.xOff + row * pc.n, obase = row * pc.n;
  if (kOp == ROW_LAYER_NORM) {
    float s = 0.0;
    STRIDED_LOOP(i, l, pc.n, ls) s += x(base, i);
    float mean = rowSum(s) / float(pc.n);
    float q = 0.0;
    STRIDED_LOOP(i, l, pc.n, ls) q += (x(base, i) - mean) * (x(base, i) - mean);
    float rstd = 1.0 / sqrt(rowSum(q) / float(pc.n) + pc.eps);
    STRIDED_LOOP(i, l, pc.n, ls) {
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
    STRIDED_LOOP(i, l, pc.n, ls) s += exp(x(base, i) - m);
  float total = rowSum(s);
  if (kOp == ROW_CROSS_ENTROPY) {
    if (l != 0u) return;
    int y = int(buf[2].d[pc.wOff + row]);
    if ((pc.flags & 4u) != 0u && y == int(pc.bOff)) {  // the ignore index: no loss
      buf[0].d[row] = floatBitsToUint(0.0);
      return;
    }
    if (y < 0 || uint(y) >= pc.n) {
      atomicOr(buf[3].d[0], FLAG_BAD_INDEX);
      buf[0].d[row] = floatBitsToUint(0.0);
      return;
    }
    float lse = isinf(m) ? m : m + log(total);
    buf[0].d[row] = floatBitsToUint(lse - x(base, uint(y)));
    return;
  }
  if (kOp == ROW_LOG_SOFTMAX) {
    float lsum = isinf(m) ? 0.0 : log(total);
    STRIDED_LOOP(i, l, pc.n, ls) buf[0].d[obase + i] = floatBitsToUint((x(base, i) - m) - lsum);
    return;
  }
  float inv = 1.0 / total;
  STRIDED_LOOP(i, l, pc.n, ls)
    buf[0].d[obase + i] = floatBitsToUint(exp(x(base, i) - m) * inv);
}
