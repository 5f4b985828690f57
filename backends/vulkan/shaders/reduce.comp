// Reductions of a contiguous [A, R, B] input over R (sum, mean, max, min, argmax, argmin, all,
// any), in one of four modes the host picks from the shape and device (Note [Reduction modes]
// in ops_reduce.cpp): column (B > 1: an invocation per output, or per 8 neighbouring outputs,
// walking R), blocks (B > 1 on a CPU device: an invocation folds a block of rows into a partial
// row), tree (B == 1 on a GPU: a workgroup per row chunk, lanes combined in shared memory) and
// serial (B == 1: an invocation per row or row chunk).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_basic : require
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

#define M_COLUMN 0u
#define M_TREE 1u
#define M_SERIAL 2u
#define M_BLOCKS 3u

// The op and the dtypes are a specialization constant, as in elementwise.comp: llvmpipe runs
// every case of a switch on a push constant, and this one sits in the innermost loop.
layout(constant_id = 0) const uint kVariant = 0;  // op | tin << 4 | compute << 8 | tout << 12
const uint kOp = kVariant & 15u;
const uint kTin = (kVariant >> 4) & 15u;
const uint kCompute = (kVariant >> 8) & 15u;
const uint kTout = (kVariant >> 12) & 15u;

layout(push_constant) uniform PC {
  uint A, R, B, inOff;
  float scale;  // 1/R for mean
  uint mode;    // M_COLUMN, M_TREE, M_SERIAL
  uint chunk;   // elements of R per output of this pass (Note [Loop limit]: the host splits
  uint parts;   // R into `parts` chunks and reduces the partial results in a second pass)
  uint vec;     // 1: eight elements per load (Note [Reduction modes])
} pc;

// Eight-element views of the input binding (1): word dtypes as u64vec4, bools as one u64.
layout(std430, set = 0, binding = 0) buffer Buf32 { u64vec4 d[]; } buf32[4];
layout(std430, set = 0, binding = 0) buffer Buf64 { uint64_t d[]; } buf64[4];

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

const bool kLogical = kOp == R_ALL || kOp == R_ANY;
const bool kFloat = kCompute == DT_F32 && !kLogical;
const bool kIsMax = kOp == R_MAX || kOp == R_ARGMAX;

// Accumulator: float (v) or int (iv) plus index; combine folds (v2, iv2, x2) into it.
void combine(inout float v, inout int iv, inout uint x, float v2, int iv2, uint x2) {
  if (kOp == R_SUM || kOp == R_MEAN) {
    v += v2;
    iv += iv2;
  } else if (kOp == R_ALL) {
    iv = (iv != 0 && iv2 != 0) ? 1 : 0;
  } else if (kOp == R_ANY) {
    iv = (iv != 0 || iv2 != 0) ? 1 : 0;
  } else {
    bool take = kFloat ? betterF(v2, x2, v, x, kIsMax) : betterI(iv2, x2, iv, x, kIsMax);
    if (take) { v = v2; iv = iv2; x = x2; }
  }
}

void identity(out float v, out int iv, out uint x) {
  v = 0.0;
  iv = kOp == R_ALL ? 1 : 0;
  x = kNone;
}

// Element e of the input, at position r of its row, folded into the accumulator.
void addOne(inout float v, inout int iv, inout uint x, uint e, uint r) {
  if (kLogical) combine(v, iv, x, 0.0, loadB(1, e, kTin) ? 1 : 0, r);
  else if (kFloat) combine(v, iv, x, loadF(1, e, kTin), 0, r);
  else combine(v, iv, x, 0.0, loadI(1, e, kTin), r);
}

// The word (or byte, for bools) w in 0..7 of an eight-element load, as the compute dtype.
void addWord(inout float v, inout int iv, inout uint x, uint w, uint r) {
  if (kLogical) combine(v, iv, x, 0.0, (kTin == DT_F32 ? uintBitsToFloat(w) != 0.0 : w != 0u) ? 1 : 0, r);
  else if (kFloat) combine(v, iv, x, kTin == DT_F32 ? uintBitsToFloat(w) : kTin == DT_I32 ? float(int(w)) : float(w), 0, r);
  else combine(v, iv, x, 0.0, kTin == DT_F32 ? f2i(uintBitsToFloat(w)) : int(w), r);
}

// Elements e .. e+7 (e a multiple of 8) at row positions r .. r+7, folded in order.
void addEight(inout float v, inout int iv, inout uint x, uint e, uint r) {
  if (kTin == DT_BOOL) {
    uvec2 b = unpackUint2x32(buf64[1].d[e >> 3]);
    for (uint j = 0u; j < 4u; ++j) addWord(v, iv, x, (b.x >> (8u * j)) & 0xffu, r + j);
    for (uint j = 0u; j < 4u; ++j) addWord(v, iv, x, (b.y >> (8u * j)) & 0xffu, r + 4u + j);
    return;
  }
  u64vec4 q = buf32[1].d[e >> 3];
  uvec2 w0 = unpackUint2x32(q.x), w1 = unpackUint2x32(q.y);
  uvec2 w2 = unpackUint2x32(q.z), w3 = unpackUint2x32(q.w);
  addWord(v, iv, x, w0.x, r);
  addWord(v, iv, x, w0.y, r + 1u);
  addWord(v, iv, x, w1.x, r + 2u);
  addWord(v, iv, x, w1.y, r + 3u);
  addWord(v, iv, x, w2.x, r + 4u);
  addWord(v, iv, x, w2.y, r + 5u);
  addWord(v, iv, x, w3.x, r + 6u);
  addWord(v, iv, x, w3.y, r + 7u);
}

void finish(uint o, float v, int iv, uint x) {
  if (kOp == R_ARGMAX || kOp == R_ARGMIN) storeI(0, o, kTout, x == kNone ? 0 : int(x));
  else if (kFloat) storeF(0, o, kTout, kOp == R_MEAN ? v * pc.scale : v);
  else storeI(0, o, kTout, iv);
}

// Column mode: output o = (a, c, b) walks R at stride B. With vec, an invocation owns the
// eight outputs b .. b+7 and reads them as one load per step.
void columnMain() {
  const uint lanes = pc.vec != 0u ? 8u : 1u;
  uint o = linearGroup() * 256u + gl_LocalInvocationID.x;
  const uint cols = pc.B / lanes;
  if (o >= pc.A * pc.parts * cols) return;
  uint b = (o % cols) * lanes, ac = o / cols, a = ac / pc.parts, c = ac % pc.parts;
  const uint r0 = c * pc.chunk, r1 = min(pc.R, r0 + pc.chunk);
  const uint out0 = (a * pc.parts + c) * pc.B + b;
  if (pc.vec == 0u) {
    float v; int iv; uint x;
    identity(v, iv, x);
    for (uint r = r0; r < r1; ++r) addOne(v, iv, x, pc.inOff + (a * pc.R + r) * pc.B + b, r);
    finish(out0, v, iv, x);
    return;
  }
  float v[8]; int iv[8]; uint x[8];
  for (uint j = 0u; j < 8u; ++j) identity(v[j], iv[j], x[j]);
  for (uint r = r0; r < r1; ++r) {
    const uint e = pc.inOff + (a * pc.R + r) * pc.B + b;
    if (kTin == DT_BOOL) {
      uvec2 q = unpackUint2x32(buf64[1].d[e >> 3]);
      for (uint j = 0u; j < 8u; ++j)
        addWord(v[j], iv[j], x[j], ((j < 4u ? q.x : q.y) >> (8u * (j & 3u))) & 0xffu, r);
    } else {
      u64vec4 q = buf32[1].d[e >> 3];
      uvec2 w[4] = {unpackUint2x32(q.x), unpackUint2x32(q.y), unpackUint2x32(q.z), unpackUint2x32(q.w)};
      for (uint j = 0u; j < 8u; ++j) addWord(v[j], iv[j], x[j], w[j >> 1][j & 1u], r);
    }
  }
  for (uint j = 0u; j < 8u; ++j) finish(out0 + j, v[j], iv[j], x[j]);
}

// Positions [r0, r1) of the row starting at element rowStart, eight elements a step when vec
// (r0 and rowStart multiples of 8), the ragged tail one at a time. Alone (serial mode) an
// invocation walks them all; in a workgroup (tree mode) each subgroup walks its own contiguous
// share, its lanes side by side: llvmpipe runs a subgroup as one SIMD vector from start to end,
// and a vector striding across the whole chunk ran at memory latency (as Note [Linear
// elementwise] found for the elementwise kernel).
void walkRow(inout float v, inout int iv, inout uint x, uint rowStart, uint r0, uint r1,
             bool alone) {
  const uint lane = alone ? 0u : gl_SubgroupInvocationID;
  const uint lanes = alone ? 1u : gl_SubgroupSize;
  uint tail = r0;
  if (pc.vec != 0u) {
    const uint steps = (r1 - r0) >> 3;
    uint begin = 0u, end = steps;
    if (!alone) {
      const uint share = (steps + gl_NumSubgroups - 1u) / gl_NumSubgroups;
      begin = min(steps, gl_SubgroupID * share);
      end = min(steps, begin + share);
    }
    STRIDED_LOOP(s, begin + lane, end, lanes) addEight(v, iv, x, rowStart + r0 + 8u * s, r0 + 8u * s);
    tail = r0 + 8u * steps;
  }
  const uint all = alone ? 1u : gl_WorkGroupSize.x;
  const uint me = alone ? 0u : gl_LocalInvocationID.x;
  STRIDED_LOOP(r, tail + me, r1, all) addOne(v, iv, x, rowStart + r, r);
}

// Tree mode: workgroup g = (a, c) reduces chunk c of row a; its 256 lanes meet in shared memory.
void treeMain() {
  const uint t = gl_LocalInvocationID.x;
  const uint g = linearGroup();
  if (g >= pc.A * pc.parts) return;
  const uint a = g / pc.parts, c = g % pc.parts;
  float v; int iv; uint x;
  identity(v, iv, x);
  walkRow(v, iv, x, pc.inOff + a * pc.R, c * pc.chunk, min(pc.R, (c + 1u) * pc.chunk), false);
  sv[t] = v; si[t] = iv; sx[t] = x;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) {
      combine(v, iv, x, sv[t + s], si[t + s], sx[t + s]);
      sv[t] = v; si[t] = iv; sx[t] = x;
    }
    barrier();
  }
  if (t == 0u) finish(g, v, iv, x);
}

// Serial mode: invocation o = (a, c) reduces chunk c of row a alone.
void serialMain() {
  const uint o = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (o >= pc.A * pc.parts) return;
  const uint a = o / pc.parts, c = o % pc.parts;
  float v; int iv; uint x;
  identity(v, iv, x);
  walkRow(v, iv, x, pc.inOff + a * pc.R, c * pc.chunk, min(pc.R, (c + 1u) * pc.chunk), true);
  finish(o, v, iv, x);
}

// The partial value at output o as the compute dtype (blocks mode's accumulator).
void loadPartial(uint o, out float v, out int iv) {
  v = 0.0;
  iv = 0;
  if (kLogical) iv = int(loadByte(0, o));
  else if (kFloat) v = uintBitsToFloat(buf[0].d[o]);
  else iv = int(buf[0].d[o]);
}

// Blocks mode (B > 1 on a CPU device): invocation o = (a, c) folds rows [c * chunk, ...) of
// slab a into its own partial row of B outputs, row after row, so every load walks memory in
// order (Note [Reduction modes]). Its first row initializes the partial row.
void blocksMain() {
  const uint o = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (o >= pc.A * pc.parts) return;
  const uint a = o / pc.parts, c = o % pc.parts;
  const uint r0 = c * pc.chunk, r1 = min(pc.R, r0 + pc.chunk);
  const uint out0 = o * pc.B;
  for (uint r = r0; r < r1; ++r) {
    const uint in0 = pc.inOff + (a * pc.R + r) * pc.B;
    uint b = 0u;
    if (pc.vec != 0u && !kLogical) {
      for (; b + 8u <= pc.B; b += 8u) {
        float v[8]; int iv[8]; uint x[8];
        if (r == r0) {
          for (uint j = 0u; j < 8u; ++j) identity(v[j], iv[j], x[j]);
        } else {
          u64vec4 p = buf32[0].d[(out0 + b) >> 3];
          uvec2 pw[4] = {unpackUint2x32(p.x), unpackUint2x32(p.y), unpackUint2x32(p.z), unpackUint2x32(p.w)};
          for (uint j = 0u; j < 8u; ++j) {
            const uint w = pw[j >> 1][j & 1u];
            v[j] = uintBitsToFloat(w);
            iv[j] = int(w);
            x[j] = 0u;
          }
        }
        uvec2 w[4];
        if (kTin == DT_BOOL) {  // eight bytes, each element's word its byte
          uvec2 q = unpackUint2x32(buf64[1].d[(in0 + b) >> 3]);
          for (uint j = 0u; j < 8u; ++j) w[j >> 1][j & 1u] = ((j < 4u ? q.x : q.y) >> (8u * (j & 3u))) & 0xffu;
        } else {
          u64vec4 q = buf32[1].d[(in0 + b) >> 3];
          w = uvec2[4](unpackUint2x32(q.x), unpackUint2x32(q.y), unpackUint2x32(q.z), unpackUint2x32(q.w));
        }
        uvec2 res[4];
        for (uint j = 0u; j < 8u; ++j) {
          addWord(v[j], iv[j], x[j], w[j >> 1][j & 1u], r);
          res[j >> 1][j & 1u] = kFloat ? floatBitsToUint(v[j]) : uint(iv[j]);
        }
        buf32[0].d[(out0 + b) >> 3] = u64vec4(packUint2x32(res[0]), packUint2x32(res[1]),
                                              packUint2x32(res[2]), packUint2x32(res[3]));
      }
    }
    for (; b < pc.B; ++b) {
      float v; int iv; uint x = 0u;
      if (r == r0) identity(v, iv, x);
      else loadPartial(out0 + b, v, iv);
      addOne(v, iv, x, in0 + b, r);
      if (kLogical) storeByte(0, out0 + b, iv != 0 ? 1u : 0u);
      else if (kFloat) buf[0].d[out0 + b] = floatBitsToUint(v);
      else buf[0].d[out0 + b] = uint(iv);
    }
  }
}

void main() {
  if (pc.mode == M_BLOCKS) blocksMain();
  else if (pc.mode == M_COLUMN) columnMain();
  else if (pc.mode == M_SERIAL) serialMain();
  else treeMain();
}
