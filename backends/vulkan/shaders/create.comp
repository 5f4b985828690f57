// Creation and random ops: full, arange, eye, rand, randn, randint, dropout. Random ops read
// the Philox4x32-10 stream exactly as the cpu backend does (backends/rng.h): element i uses
// word i % 4 of counter base + i / 4, each invocation computing one block for four elements.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "common.glsl"
#include "philox.glsl"
layout(local_size_x = 256) in;

#define C_FULL 0u
#define C_ARANGE 1u
#define C_EYE 2u
#define C_RAND 3u
#define C_RANDN 4u
#define C_RANDINT 5u
#define C_DROPOUT 6u

// The mode (C_*) is a specialization constant: llvmpipe ran every case of the switch on a
// push constant, the Philox rounds included, for every element of every creation op.
layout(constant_id = 0) const uint kMode = 0;

layout(push_constant) uniform PC {
  uint n, unusedMode, dtype, cols;
  uint keyLo, keyHi, baseLo, baseHi;
  uint valueBits;        // full: the value's bits in dtype
  float p, scale;        // dropout
  uint xOff;
  int64_t start, step;   // arange; randint: start = low, step = range
} pc;

uvec4 block(uint blk) { return philoxBlock(blk, pc.keyLo, pc.keyHi, pc.baseLo, pc.baseHi); }

// Element i of a random op from word i % 4 of its Philox block w.
void randomElement(uint i, uvec4 w) {
  const uint word = w[i % 4u];
  if (kMode == C_RAND) {
    buf[0].d[i] = floatBitsToUint(uniformFromBits(word));
  } else if (kMode == C_RANDINT) {
    int64_t v = pc.start + int64_t(uint64_t(word) % uint64_t(pc.step));
    if (pc.dtype == DT_F32) buf[0].d[i] = floatBitsToUint(float(v));
    else if (pc.dtype == DT_I32) buf[0].d[i] = uint(v);
    else storeByte(0, i, v != 0 ? 1u : 0u);
  } else if (kMode == C_DROPOUT) {
    float x = uintBitsToFloat(buf[1].d[pc.xOff + i]);
    buf[0].d[i] = floatBitsToUint(uniformFromBits(word) < pc.p ? 0.0 : x * pc.scale);
  } else {
    uint pair = (i % 4u) / 2u;
    float u1 = (float(w[2u * pair] >> 8) + 1.0) / 16777216.0;
    float u2 = float(w[2u * pair + 1u] >> 8) / 16777216.0;
    float r = sqrt(-2.0 * log(u1));
    float th = 6.283185307179586 * u2;
    buf[0].d[i] = floatBitsToUint((i % 2u) == 0u ? r * cos(th) : r * sin(th));
  }
}

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (kMode >= C_RAND) {
    // One Philox block per invocation: its four words serve elements 4g .. 4g+3 (n counts
    // elements; the host launches ceil(n / 4) invocations).
    const uint i0 = 4u * g;
    if (i0 >= pc.n) return;
    const uvec4 w = block(g);
    for (uint i = i0; i < min(pc.n, i0 + 4u); ++i) randomElement(i, w);
    return;
  }
  const uint i = g;
  if (i >= pc.n) return;
  if (kMode == C_FULL) {
    if (pc.dtype == DT_BOOL) storeByte(0, i, pc.valueBits);
    else buf[0].d[i] = pc.valueBits;
  } else if (kMode == C_ARANGE) {
    int64_t v = pc.start + int64_t(i) * pc.step;
    if (pc.dtype == DT_F32) buf[0].d[i] = floatBitsToUint(float(v));
    else if (pc.dtype == DT_I32) buf[0].d[i] = uint(v);
    else storeByte(0, i, uint(v) & 0xffu);  // the cpu's uint8 conversion wraps too
  } else {
    uint one = (i / pc.cols == i % pc.cols) ? 1u : 0u;
    if (pc.dtype == DT_F32) buf[0].d[i] = floatBitsToUint(float(one));
    else if (pc.dtype == DT_I32) buf[0].d[i] = one;
    else storeByte(0, i, one);
  }
}
