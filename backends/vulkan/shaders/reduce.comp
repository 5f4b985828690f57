// Reductions of a contiguous [A, R, B] input over R (sum, mean, max, min, argmax, argmin, all,
// any). Row mode (B == 1): one workgroup per output, tree in shared memory. Column mode
// (B > 1): one invocation per output walking R, neighbours reading neighbouring words.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

#define R_SUM 0u
#define R_MEAN 1u
#define R_MAX 2u
#define R_MIN 3u
#define R_ARGMAX 4u
#define R_ARGMIN 5u
#define R_ALL 6u
#define R_ANY 7u

layout(push_constant) uniform PC {
  uint A, R, B, op;
  uint tin, tout, compute, inOff;
  float scale;  // 1/R for mean
  uint rowMode;
  uint chunk;   // elements of R per output of this pass (Note [Loop limit]: the host splits
  uint parts;   // R into `parts` chunks and reduces the partial results in a second pass)
} pc;

shared float sv[256];
shared int si[256];
shared uint sx[256];

const uint kNone = 0xffffffffu;

// Does candidate (v, i) replace the current best (bv, bi)? First extreme wins; NaN is extreme.
bool betterF(float v, uint i, float bv, uint bi, bool isMax) {
  if (i == kNone) return false;
  if (bi == kNone) return true;
  bool vn = isnan(v), bn = isnan(bv);
  if (vn || bn) return vn && (!bn || i < bi);
  if (v == bv) return i < bi;
  return isMax ? v > bv : v < bv;
}
bool betterI(int v, uint i, int bv, uint bi, bool isMax) {
  if (i == kNone) return false;
  if (bi == kNone) return true;
  if (v == bv) return i < bi;
  return isMax ? v > bv : v < bv;
}

bool isFloat() { return pc.compute == DT_F32 && pc.op != R_ALL && pc.op != R_ANY; }
bool isMaxOp() { return pc.op == R_MAX || pc.op == R_ARGMAX; }

// Accumulator: float (v) or int (iv) plus index; combine folds (v2, iv2, x2) into it.
void combine(inout float v, inout int iv, inout uint x, float v2, int iv2, uint x2) {
  switch (pc.op) {
    case R_SUM:
    case R_MEAN:
      v += v2;
      iv += iv2;
      return;
    case R_ALL:
      iv = (iv != 0 && iv2 != 0) ? 1 : 0;
      return;
    case R_ANY:
      iv = (iv != 0 || iv2 != 0) ? 1 : 0;
      return;
  }
  bool take = isFloat() ? betterF(v2, x2, v, x, isMaxOp()) : betterI(iv2, x2, iv, x, isMaxOp());
  if (take) { v = v2; iv = iv2; x = x2; }
}

void identity(out float v, out int iv, out uint x) {
  v = 0.0;
  iv = pc.op == R_ALL ? 1 : 0;
  x = kNone;
}

void element(uint e, uint r, out float v, out int iv, out uint x) {
  v = 0.0;
  iv = 0;
  x = r;
  if (pc.op == R_ALL || pc.op == R_ANY) iv = loadB(1, e, pc.tin) ? 1 : 0;
  else if (pc.compute == DT_F32) v = loadF(1, e, pc.tin);
  else iv = loadI(1, e, pc.tin);
}

void finish(uint o, float v, int iv, uint x) {
  if (pc.op == R_ARGMAX || pc.op == R_ARGMIN) storeI(0, o, pc.tout, x == kNone ? 0 : int(x));
  else if (isFloat()) storeF(0, o, pc.tout, pc.op == R_MEAN ? v * pc.scale : v);
  else storeI(0, o, pc.tout, iv);
}

void main() {
  uint t = gl_LocalInvocationID.x;
  if (pc.rowMode == 0u) {
    uint o = linearGroup() * 256u + t;
    if (o >= pc.A * pc.parts * pc.B) return;
    uint b = o % pc.B, ac = o / pc.B, a = ac / pc.parts, c = ac % pc.parts;
    float v; int iv; uint x;
    identity(v, iv, x);
    for (uint r = c * pc.chunk; r < min(pc.R, (c + 1u) * pc.chunk); ++r) {
      float v2; int iv2; uint x2;
      element(pc.inOff + (a * pc.R + r) * pc.B + b, r, v2, iv2, x2);
      combine(v, iv, x, v2, iv2, x2);
    }
    finish(o, v, iv, x);
    return;
  }
  uint g = linearGroup();
  if (g >= pc.A * pc.parts) return;
  uint a = g / pc.parts, c = g % pc.parts;
  float v; int iv; uint x;
  identity(v, iv, x);
  for (uint r = c * pc.chunk + t; r < min(pc.R, (c + 1u) * pc.chunk); r += 256u) {
    float v2; int iv2; uint x2;
    element(pc.inOff + a * pc.R + r, r, v2, iv2, x2);
    combine(v, iv, x, v2, iv2, x2);
  }
  sv[t] = v; si[t] = iv; sx[t] = x;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) {
      float v2 = sv[t + s]; int iv2 = si[t + s]; uint x2 = sx[t + s];
      combine(v, iv, x, v2, iv2, x2);
      sv[t] = v; si[t] = iv; sx[t] = x;
    }
    barrier();
  }
  if (t == 0u) finish(g, v, iv, x);
}
