// Fused scaled-dot-product attention (Note [Fused attention] in backends/cpu/attention_kernel.cpp)
// with an online softmax: one workgroup per block of 64 queries (64 keys in mode 3), one
// invocation per row. Scores are computed 32 keys at a time and never stored; the [T, S]
// matrix does not exist anywhere.
// Operands: buffer 1 holds q [n, T, D], k [n, S, D], v [n, S, Dv] (and, for the backward, out
// and dout [n, T, Dv] and lse [n, T]) at the offsets in the push constants; buffer 2 the mask
// (bool bytes or f32, strides mT, mS, batch sizes and strides bSize/bStride); buffer 0 the
// result; buffer 3 the backward's per-query rowsum(dout * out).
// Modes (kMode): 0 out [n, T, Dv]; 1 lse [n, T]; 2 dq [n, T, D] (at 0 of buffer 0) and the
// rowsums; 3 dk [n, S, D] and dv [n, S, Dv] (after dq in buffer 0), one invocation per key.
// Every size is a push constant: one pipeline per mode serves every shape.
#version 450
#include "common.glsl"
layout(local_size_x = 64) in;

layout(constant_id = 0) const uint kMode = 0;

layout(push_constant) uniform PC {
  uint T, S, D, Dv, n, qOff, kOff, vOff, oOff, doOff, lOff, mOff, mT, mS, flags;
  float scale;
  uint bSize[4];
  uint bStride[4];
} pc;

// flags: bit 0 causal, bit 1 a mask is bound, bit 2 the mask is bool.
bool causal() { return (pc.flags & 1u) != 0u; }

float ld(uint e) { return uintBitsToFloat(buf[1].d[e]); }

// The mask's offset for batch entry b (the batch dims merged into at most four).
uint maskBase(uint b) {
  uint off = pc.mOff;
  for (int i = 3; i >= 0; --i) {
    off += (b % pc.bSize[i]) * pc.bStride[i];
    b /= pc.bSize[i];
  }
  return off;
}

// score(t, s) of batch entry b, -inf where the key does not take part.
float score(uint b, uint t, uint s, uint mBase) {
  if (causal() && s > t) return -kInf;
  uint qa = pc.qOff + (b * pc.T + t) * pc.D, ka = pc.kOff + (b * pc.S + s) * pc.D;
  float acc = 0.0;
  for (uint d = 0u; d < pc.D; ++d) acc += ld(qa + d) * ld(ka + d);
  acc *= pc.scale;
  if ((pc.flags & 2u) != 0u) {
    uint e = mBase + t * pc.mT + s * pc.mS;
    if ((pc.flags & 4u) != 0u) {
      if (loadByte(2, e) == 0u) return -kInf;
    } else {
      acc += uintBitsToFloat(buf[2].d[e]);
    }
  }
  return acc;
}

float dotRows(uint a, uint b, uint len) {
  float acc = 0.0;
  for (uint e = 0u; e < len; ++e) acc += ld(a + e) * ld(b + e);
  return acc;
}

void forwardRow(uint b, uint t) {
  uint mBase = maskBase(b);
  uint oa = (b * pc.T + t) * pc.Dv;
  if (kMode == 0u)
    for (uint e = 0u; e < pc.Dv; ++e) buf[0].d[oa + e] = floatBitsToUint(0.0);
  float m = -kInf, l = 0.0;
  uint sEnd = causal() ? min(pc.S, t + 1u) : pc.S;
  float sc[32];
  for (uint s0 = 0u; s0 < sEnd; s0 += 32u) {
    uint cnt = min(32u, sEnd - s0);
    float mx = -kInf;
    for (uint j = 0u; j < cnt; ++j) {
      sc[j] = score(b, t, s0 + j, mBase);
      mx = max(mx, sc[j]);
    }
    float mNew = max(m, mx);
    // An infinite max is subtracted as 0: no inf - inf NaN in rows that have keys.
    float ref = mNew == -kInf ? 0.0 : mNew;
    float alpha = exp(m - ref), sum = 0.0;
    for (uint j = 0u; j < cnt; ++j) {
      sc[j] = exp(sc[j] - ref);
      sum += sc[j];
    }
    l = l * alpha + sum;
    m = mNew;
    if (kMode == 0u)
      for (uint e = 0u; e < pc.Dv; ++e) {
        float acc = uintBitsToFloat(buf[0].d[oa + e]) * alpha;
        uint va = pc.vOff + (b * pc.S + s0) * pc.Dv + e;
        for (uint j = 0u; j < cnt; ++j) acc += sc[j] * ld(va + j * pc.Dv);
        buf[0].d[oa + e] = floatBitsToUint(acc);
      }
  }
  if (kMode == 0u) {
    // No keys at all: zeros (an empty sum). Every key masked: 0 * (1 / 0) = NaN, as torch.
    float inv = pc.S == 0u ? 0.0 : 1.0 / l;
    for (uint e = 0u; e < pc.Dv; ++e)
      buf[0].d[oa + e] = floatBitsToUint(uintBitsToFloat(buf[0].d[oa + e]) * inv);
  } else {
    buf[0].d[b * pc.T + t] = floatBitsToUint(pc.S == 0u ? -kInf : m + log(l));
  }
}

// dq[t] = scale * sum_s P[t, s] (dP[t, s] - delta[t]) k[s], with P recomputed from lse.
void dqRow(uint b, uint t) {
  uint mBase = maskBase(b);
  uint row = b * pc.T + t;
  uint da = pc.doOff + row * pc.Dv;
  float delta = dotRows(da, pc.oOff + row * pc.Dv, pc.Dv);
  buf[3].d[row] = floatBitsToUint(delta);
  float lse = ld(pc.lOff + row);
  uint qa = row * pc.D;
  for (uint d = 0u; d < pc.D; ++d) buf[0].d[qa + d] = floatBitsToUint(0.0);
  uint sEnd = causal() ? min(pc.S, t + 1u) : pc.S;
  STRIDED_LOOP(s, 0u, sEnd, 1u) {
    float p = exp(score(b, t, s, mBase) - lse);
    if (p == 0.0) continue;
    float dp = dotRows(da, pc.vOff + (b * pc.S + s) * pc.Dv, pc.Dv);
    float ds = p * (dp - delta) * pc.scale;
    uint ka = pc.kOff + (b * pc.S + s) * pc.D;
    for (uint d = 0u; d < pc.D; ++d)
      buf[0].d[qa + d] = floatBitsToUint(uintBitsToFloat(buf[0].d[qa + d]) + ds * ld(ka + d));
  }
}

// dv[s] = sum_t P[t, s] dout[t]; dk[s] = scale * sum_t P[t, s] (dP[t, s] - delta[t]) q[t].
void dkdvRow(uint b, uint s) {
  uint mBase = maskBase(b);
  uint ka = pc.n * pc.T * pc.D + (b * pc.S + s) * pc.D;
  uint va = pc.n * pc.T * pc.D + pc.n * pc.S * pc.D + (b * pc.S + s) * pc.Dv;
  for (uint d = 0u; d < pc.D; ++d) buf[0].d[ka + d] = floatBitsToUint(0.0);
  for (uint e = 0u; e < pc.Dv; ++e) buf[0].d[va + e] = floatBitsToUint(0.0);
  uint vRow = pc.vOff + (b * pc.S + s) * pc.Dv;
  STRIDED_LOOP(t, causal() ? s : 0u, pc.T, 1u) {
    uint row = b * pc.T + t;
    float p = exp(score(b, t, s, mBase) - ld(pc.lOff + row));
    if (p == 0.0) continue;
    uint da = pc.doOff + row * pc.Dv;
    float dp = dotRows(da, vRow, pc.Dv);
    float ds = p * (dp - uintBitsToFloat(buf[3].d[row])) * pc.scale;
    for (uint e = 0u; e < pc.Dv; ++e)
      buf[0].d[va + e] = floatBitsToUint(uintBitsToFloat(buf[0].d[va + e]) + p * ld(da + e));
    uint qa = pc.qOff + row * pc.D;
    for (uint d = 0u; d < pc.D; ++d)
      buf[0].d[ka + d] = floatBitsToUint(uintBitsToFloat(buf[0].d[ka + d]) + ds * ld(qa + d));
  }
}

void main() {
  uint rows = kMode == 3u ? pc.S : pc.T;
  uint blocks = (rows + 63u) / 64u;
  uint g = linearGroup();
  if (g >= pc.n * blocks) return;
  uint b = g / blocks, r = (g % blocks) * 64u + gl_LocalInvocationID.x;
  if (r >= rows) return;
  if (kMode <= 1u)
    forwardRow(b, r);
  else if (kMode == 2u)
    dqRow(b, r);
  else
    dkdvRow(b, r);
}
