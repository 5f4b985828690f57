// Direct 2-D convolution (conv2d) and its two backward ops on contiguous f32 NCHW tensors,
// one invocation per output element. Every size and option is a push constant, so one pipeline
// per mode serves every shape (backends.md). Operands: 0 the result; 1 and 2 the inputs (mode
// 0: x, w; mode 1: gy, w; mode 2: gy, x); 3 the bias (mode 0 with pc.bias set).
//   mode 0 (forward):         y[n, o, oh, ow]  = b[o] + sum_{c, kh, kw} x[n, g Cg + c, ih, iw] w[o, c, kh, kw]
//   mode 1 (backward input):  gx[n, c, ih, iw] = sum over the (o, kh, kw) whose window covers (ih, iw)
//   mode 2 (backward weight): gw[o, c, kh, kw] = sum_{n, oh, ow} gy[n, o, oh, ow] x[n, g Cg + c, ih, iw]
// with ih = oh * sH - pH + kh * dH (likewise iw), g the group of o, Cg = C / groups.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

layout(constant_id = 0) const uint kMode = 0;

layout(push_constant) uniform PC {
  uint n;  // invocations (result elements)
  uint N, C, H, W, O, Ho, Wo, kH, kW;
  uint sH, sW, pH, pW, dH, dW, groups, bias;
  uint aOff, bOff, biasOff;
} pc;

float A(uint e) { return uintBitsToFloat(buf[1].d[pc.aOff + e]); }
float B(uint e) { return uintBitsToFloat(buf[2].d[pc.bOff + e]); }

// Note [Padding taps]
// In the forward pass a tap over the padding multiplies its weight by 0 rather than being
// skipped: 0 * inf is NaN, and the cpu (oneDNN) and PyTorch give NaN there too. The weight
// gradient skips padded taps, as the cpu's oneDNN backward does (PyTorch's own kernel gives NaN
// for an infinite output gradient there; docs/tensors.md lists the difference).

// mode 0: i = ((n O + o) Ho + oh) Wo + ow.
float forwardAt(uint i) {
  const uint ow = i % pc.Wo, oh = (i / pc.Wo) % pc.Ho, o = (i / (pc.Wo * pc.Ho)) % pc.O;
  const uint n = i / (pc.Wo * pc.Ho * pc.O);
  const uint Cg = pc.C / pc.groups, Og = pc.O / pc.groups, c0 = (o / Og) * Cg;
  float acc = pc.bias != 0u ? uintBitsToFloat(buf[3].d[pc.biasOff + o]) : 0.0;
  for (uint c = 0u; c < Cg; ++c) {
    const uint xBase = (n * pc.C + c0 + c) * pc.H, wBase = (o * Cg + c) * pc.kH;
    for (uint kh = 0u; kh < pc.kH; ++kh) {
      const int ih = int(oh * pc.sH + kh * pc.dH) - int(pc.pH);
      const bool rowInside = ih >= 0 && ih < int(pc.H);
      for (uint kw = 0u; kw < pc.kW; ++kw) {
        const int iw = int(ow * pc.sW + kw * pc.dW) - int(pc.pW);
        const bool inside = rowInside && iw >= 0 && iw < int(pc.W);
        const float x = inside ? A((xBase + uint(ih)) * pc.W + uint(iw)) : 0.0;
        acc += x * B((wBase + kh) * pc.kW + kw);
      }
    }
  }
  return acc;
}

// The output position along one dim whose window puts kernel tap k at input position i, or -1.
int outAt(uint i, uint k, uint s, uint p, uint d, uint size) {
  const int t = int(i + p) - int(k * d);
  if (t < 0 || t % int(s) != 0) return -1;
  const int o = t / int(s);
  return o < int(size) ? o : -1;
}

// mode 1: i = ((n C + c) H + ih) W + iw.
float backwardInputAt(uint i) {
  const uint iw = i % pc.W, ih = (i / pc.W) % pc.H, c = (i / (pc.W * pc.H)) % pc.C;
  const uint n = i / (pc.W * pc.H * pc.C);
  const uint Cg = pc.C / pc.groups, Og = pc.O / pc.groups, g = c / Cg, cc = c % Cg;
  float acc = 0.0;
  for (uint kh = 0u; kh < pc.kH; ++kh) {
    const int oh = outAt(ih, kh, pc.sH, pc.pH, pc.dH, pc.Ho);
    if (oh < 0) continue;
    for (uint kw = 0u; kw < pc.kW; ++kw) {
      const int ow = outAt(iw, kw, pc.sW, pc.pW, pc.dW, pc.Wo);
      if (ow < 0) continue;
      for (uint j = 0u; j < Og; ++j) {
        const uint o = g * Og + j;
        acc += A(((n * pc.O + o) * pc.Ho + uint(oh)) * pc.Wo + uint(ow)) *
               B(((o * Cg + cc) * pc.kH + kh) * pc.kW + kw);
      }
    }
  }
  return acc;
}

// mode 2: i = ((o Cg + c) kH + kh) kW + kw. Trip counts grow with the batch and image: strided
// loops (Note [Loop limit]).
float backwardWeightAt(uint i) {
  const uint Cg = pc.C / pc.groups, Og = pc.O / pc.groups;
  const uint kw = i % pc.kW, kh = (i / pc.kW) % pc.kH, cc = (i / (pc.kW * pc.kH)) % Cg;
  const uint o = i / (pc.kW * pc.kH * Cg), c = (o / Og) * Cg + cc;
  float acc = 0.0;
  STRIDED_LOOP(n, 0u, pc.N, 1u) {
    STRIDED_LOOP(oh, 0u, pc.Ho, 1u) {
      const int ih = int(oh * pc.sH + kh * pc.dH) - int(pc.pH);
      if (ih < 0 || ih >= int(pc.H)) continue;
      const uint gyRow = ((n * pc.O + o) * pc.Ho + oh) * pc.Wo;
      const uint xRow = ((n * pc.C + c) * pc.H + uint(ih)) * pc.W;
      STRIDED_LOOP(ow, 0u, pc.Wo, 1u) {
        const int iw = int(ow * pc.sW + kw * pc.dW) - int(pc.pW);
        if (iw < 0 || iw >= int(pc.W)) continue;
        acc += A(gyRow + ow) * B(xRow + uint(iw));
      }
    }
  }
  return acc;
}

void main() {
  const uint i = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (i >= pc.n) return;
  float v = kMode == 0u ? forwardAt(i) : kMode == 1u ? backwardInputAt(i) : backwardWeightAt(i);
  buf[0].d[i] = floatBitsToUint(v);
}
