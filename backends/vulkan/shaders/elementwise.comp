// Every elementwise op (unary, binary, ternary, cast, copy) over strided operands of rank <= 4
// (the host merges contiguous dims first and loops over any leading dims beyond 4). Operand 0
// is the output; the op and the dtypes come in push constants, so one pipeline serves all.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "common.glsl"
layout(local_size_x = 256) in;

void raiseFlag(uint bit) { atomicOr(buf[3].d[0], bit); }
// The ops of ops/elementwise.ops: their formulas and ewDefinedF/ewDefinedI (generated), and
// the helpers of ops/elementwise_math.h that float_math.glsl uses too. A build with
// -DEW_ONLY_OP=code is the module of that one defined op (backends/vulkan/CMakeLists.txt).
#include "elementwise.glsl"
#include "float_math.glsl"

// Whether op reads operand b (c): by the ranges of ew_ops.h.
bool ewBinary(uint op) {
  return (op >= EW_FIRST_BINARY && op < EW_FIRST_DEFINED) || op >= EW_FIRST_DEFINED_BINARY;
}
bool ewTernary(uint op) {
  return (op >= EW_FIRST_TERNARY && op < EW_FIRST_DEFINED) || op >= EW_FIRST_DEFINED_TERNARY;
}

// The op and dtypes are a specialization constant (one pipeline per combination in use, none
// per size): llvmpipe runs every case of a switch on a push constant, since it cannot tell the
// value is uniform, which made this kernel 20x slower than with constants it can fold.
layout(constant_id = 0) const uint kVariant = 0;  // op | types << 8

layout(push_constant) uniform PC {
  uint n;       // elements (linear path) or runs (strided path: Note [Strided runs])
  uint run;     // strided path: elements of the innermost dim per invocation
  uint ndim;    // 1..4
  uint unused2;
  uint shape[4];
  uint offs[4];      // element offset of each operand
  uint strides[16];  // operand k, dim j at [k * 4 + j]
} pc;

float opF(uint op, float a, float b, float c) {
  switch (op) {
    case EW_COPY: return a;
    case EW_NONZERO: return a != 0.0 ? 1.0 : 0.0;
    case EW_ADD: return a + b;
    case EW_SUB: return a - b;
    case EW_MUL: return a * b;
    case EW_DIV: return a / b;
    case EW_GELU_BACKWARD: return geluBackwardF(a, b);
    case EW_FLOORDIV: return floorDivF(a, b);
    case EW_MOD: return modF(a, b);
    case EW_POW: return powF(a, b);
    case EW_MAXIMUM: return maxF(a, b);
    case EW_MINIMUM: return minF(a, b);
    case EW_EQ: return a == b ? 1.0 : 0.0;
    case EW_NE: return a != b ? 1.0 : 0.0;
    case EW_LT: return a < b ? 1.0 : 0.0;
    case EW_LE: return a <= b ? 1.0 : 0.0;
    case EW_GT: return a > b ? 1.0 : 0.0;
    case EW_GE: return a >= b ? 1.0 : 0.0;
    case EW_AND: return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
    case EW_OR: return (a != 0.0 || b != 0.0) ? 1.0 : 0.0;
    case EW_SQDIFF: return (a - b) * (a - b);
    case EW_CLAMP: return clampF(a, b, c);
    default: return ewDefinedF(a, b, c);  // the module's one defined op (EW_ONLY_OP)
  }
}

int opI(uint op, int a, int b, int c) {
  switch (op) {
    case EW_COPY: return a;
    case EW_NONZERO: return a != 0 ? 1 : 0;
    case EW_ADD: return a + b;
    case EW_SUB: return a - b;
    case EW_MUL: return a * b;
    case EW_FLOORDIV: return ew_floordiv_i(a, b);
    case EW_MOD: return ew_mod_i(a, b);
    case EW_POW: return ew_pow_i(a, b);
    case EW_MAXIMUM: return a > b ? a : b;
    case EW_MINIMUM: return a < b ? a : b;
    case EW_EQ: return a == b ? 1 : 0;
    case EW_NE: return a != b ? 1 : 0;
    case EW_LT: return a < b ? 1 : 0;
    case EW_LE: return a <= b ? 1 : 0;
    case EW_GT: return a > b ? 1 : 0;
    case EW_GE: return a >= b ? 1 : 0;
    case EW_AND: return (a != 0 && b != 0) ? 1 : 0;
    case EW_OR: return (a != 0 || b != 0) ? 1 : 0;
    case EW_SQDIFF: return (a - b) * (a - b);
    case EW_CLAMP: {
      int r = a < b ? b : a;
      return r > c ? c : r;
    }
    default: return ewDefinedI(a, b, c);
  }
}

// Note [Linear elementwise]
// llvmpipe runs a workgroup as SIMD vectors of invocations and loads every lane's SSBO
// element in a scalar loop, and the strided path's div/mod index math costs more than the op,
// so operands that all walk one merged dim with stride 1 (or 0: a broadcast scalar) take a
// chunked loop instead (EW_LINEAR): no index math, the broadcast operands loaded once, and
// with EW_VEC4 (offsets multiple of 4) four elements per invocation and step, or EW_VEC8
// (offsets multiple of 8) eight. llvmpipe loads a vector's components lane by lane, one
// bounds-checked scalar load each, so the words move as 64-bit components (u64vec2 / u64vec4,
// unpacked in registers): half the scalar loads and stores of uvec4, and the vec8 step halves
// the per-lane loop overhead again (AddF32 16M: 3.3 -> 4.1 -> 4.5 GB/s). The host dispatches
// few workgroups, so each invocation runs many iterations (kept under Note [Loop limit] by the
// host's group count).
//
// Note [Linear bool operands]
// A bool operand (one byte per element) walks the same steps: its 4 (8) bytes of a step are
// one uint (one uint64_t) at byte offset offs + 4 * i4 (8 * i8), aligned because the walking
// offsets are multiples of 4 (8) and bindings start on the pool's 256-byte alignment. In
// registers each byte becomes a word holding the byte's value (what loadF/loadI/loadB read),
// and a bool result is packed back, one byte 0/1 per element (storeByte's layout), and stored
// as one plain uint / uint64_t: every byte of it lies in [offs, offs + n & ~3 (~7)), inside the
// output's range, so no other tensor's byte is written. The tail (n mod 4 or 8 elements)
// starts on a word boundary and goes through storeByte's atomics, as before. where is
// vectorized the same way (its condition is usually a bool operand). 16M f32 on lavapipe:
// `x > 0.5` 104 -> 14 ms, `logical_not(m)` 94 -> 9 ms, `where(m, x, 0.0)` 97 -> 22 ms
// (`x + 0.5`: 15 ms; docs/vulkan.md).
layout(std430, set = 0, binding = 0) buffer Buf4 { uvec4 d[]; } buf4[4];
layout(std430, set = 0, binding = 0) buffer Buf8 { u64vec2 d[]; } buf8[4];
layout(std430, set = 0, binding = 0) buffer Buf16 { u64vec4 d[]; } buf16[4];
layout(std430, set = 0, binding = 0) buffer BufB8 { uint64_t d[]; } bufB8[4];

// Four bool bytes as four words holding the byte values, and back (bytes of 0/1 words).
uvec4 bytesToWords(uint w) { return uvec4(w & 0xffu, (w >> 8) & 0xffu, (w >> 16) & 0xffu, w >> 24); }
uint wordsToBytes(uvec4 b) { return b.x | (b.y << 8) | (b.z << 16) | (b.w << 24); }

// Operand k's one element when it is a broadcast scalar (stride 0), at a uniform address.
uint broadcastWord(uint k, uint t) {
  return t == DT_BOOL ? loadByte(k, pc.offs[k]) : buf[k].d[pc.offs[k]];
}

void loadWords8(uint k, uint t, uint i8, out uvec4 lo, out uvec4 hi) {
  if (pc.strides[4u * k] == 0u) {
    lo = hi = uvec4(broadcastWord(k, t));
    return;
  }
  if (t == DT_BOOL) {
    uvec2 v = unpackUint2x32(bufB8[k].d[(pc.offs[k] >> 3) + i8]);
    lo = bytesToWords(v.x);
    hi = bytesToWords(v.y);
    return;
  }
  u64vec4 v = buf16[k].d[(pc.offs[k] >> 3) + i8];
  lo = uvec4(unpackUint2x32(v.x), unpackUint2x32(v.y));
  hi = uvec4(unpackUint2x32(v.z), unpackUint2x32(v.w));
}

uvec4 loadWords4(uint k, uint t, uint i4) {
  if (pc.strides[4u * k] == 0u) return uvec4(broadcastWord(k, t));
  if (t == DT_BOOL) return bytesToWords(buf[k].d[(pc.offs[k] >> 2) + i4]);
  u64vec2 v = buf8[k].d[(pc.offs[k] >> 2) + i4];
  return uvec4(unpackUint2x32(v.x), unpackUint2x32(v.y));
}

// Words in registers (a bool is its byte's value) as the compute dtype, as loadF/loadI/loadB.
float wordF(uint w, uint t) { return t == DT_F32 ? uintBitsToFloat(w) : float(int(w)); }
int wordI(uint w, uint t) { return t == DT_F32 ? f2i(uintBitsToFloat(w)) : int(w); }
bool wordB(uint w, uint t) { return t == DT_F32 ? uintBitsToFloat(w) != 0.0 : w != 0u; }
// A result as the output's word (bool: 0 or 1, packed into bytes by the store), as storeF/storeI.
uint fWord(float v, uint t) {
  return t == DT_F32 ? floatBitsToUint(v) : t == DT_I32 ? uint(f2i(v)) : (v != 0.0 ? 1u : 0u);
}
uint iWord(int v, uint t) {
  return t == DT_F32 ? floatBitsToUint(float(v)) : t == DT_I32 ? uint(v) : (v != 0 ? 1u : 0u);
}

// One element of a vectorized step from its operands' words: linearElement's formulas.
uint wordOp(uint op, uint tOut, uint ta, uint tb, uint tc, uint compute, uint a, uint b, uint c) {
  if (op == EW_WHERE) {
    const bool cond = wordB(a, ta);
    if (compute == DT_F32) return fWord(cond ? wordF(b, tb) : wordF(c, tc), tOut);
    return iWord(cond ? wordI(b, tb) : wordI(c, tc), tOut);
  }
  if (compute == DT_F32) return fWord(opF(op, wordF(a, ta), wordF(b, tb), wordF(c, tc)), tOut);
  if (compute == DT_BOOL) return iWord(wordB(a, ta) ? 1 : 0, tOut);
  return iWord(opI(op, wordI(a, ta), wordI(b, tb), wordI(c, tc)), tOut);
}

// One element of a linear dispatch: operand k at offs[k] + i * strides[4k] (stride 0 or 1).
void linearElement(uint op, uint tOut, uint ta, uint tb, uint tc, uint compute, uint i) {
  uint e0 = pc.offs[0] + i, e1 = pc.offs[1] + i * pc.strides[4];
  uint e2 = pc.offs[2] + i * pc.strides[8], e3 = pc.offs[3] + i * pc.strides[12];
  const bool binary = ewBinary(op), ternary = ewTernary(op);
  if (op == EW_WHERE) {
    bool cond = loadB(1, e1, ta);
    if (compute == DT_F32) storeF(0, e0, tOut, cond ? loadF(2, e2, tb) : loadF(3, e3, tc));
    else storeI(0, e0, tOut, cond ? loadI(2, e2, tb) : loadI(3, e3, tc));
  } else if (compute == DT_F32) {
    float a = loadF(1, e1, ta);
    float b = binary ? loadF(2, e2, tb) : 0.0;
    float c = ternary ? loadF(3, e3, tc) : 0.0;
    storeF(0, e0, tOut, opF(op, a, b, c));
  } else if (compute == DT_BOOL) {
    storeI(0, e0, tOut, loadB(1, e1, ta) ? 1 : 0);
  } else {
    int a = loadI(1, e1, ta);
    int b = binary ? loadI(2, e2, tb) : 0;
    int c = ternary ? loadI(3, e3, tc) : 0;
    storeI(0, e0, tOut, opI(op, a, b, c));
  }
}

// This subgroup's share [begin, end) of n items: each subgroup walks its own contiguous chunk,
// a subgroup-wide vector at a time. On llvmpipe a subgroup is one SIMD vector run from start to
// end, so every stream it touches is sequential (a grid stride jumped 1 MiB per step and ran
// at DRAM latency, 4x slower); on a GPU the accesses of a subgroup stay coalesced.
void subgroupChunk(uint n, out uint begin, out uint end) {
  const uint subgroups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumSubgroups;
  const uint sg = linearGroup() * gl_NumSubgroups + gl_SubgroupID;
  const uint chunk = ((n + subgroups - 1u) / subgroups + gl_SubgroupSize - 1u) /
                     gl_SubgroupSize * gl_SubgroupSize;
  begin = min(n, sg * chunk);
  end = min(n, begin + chunk);
}

void linearMain(uint op, uint tOut, uint ta, uint tb, uint tc, uint compute) {
  const uint gid = linearGroup() * 256u + gl_LocalInvocationID.x;
  const bool binary = ewBinary(op), ternary = ewTernary(op);
  if ((kVariant & EW_VEC8) != 0u) {
    // As EW_VEC4, eight elements (one u64vec4 of words, one uint64_t of bools) per step.
    uint begin, end;
    subgroupChunk(pc.n >> 3, begin, end);
    STRIDED_LOOP(i8, begin + gl_SubgroupInvocationID, end, gl_SubgroupSize) {
      uvec4 wa[2], wb[2], wc[2];
      loadWords8(1u, ta, i8, wa[0], wa[1]);
      if (binary) loadWords8(2u, tb, i8, wb[0], wb[1]); else wb[0] = wb[1] = uvec4(0u);
      if (ternary) loadWords8(3u, tc, i8, wc[0], wc[1]); else wc[0] = wc[1] = uvec4(0u);
      uvec4 r[2];
      for (uint h = 0u; h < 2u; ++h)
        for (uint j = 0u; j < 4u; ++j)
          r[h][j] = wordOp(op, tOut, ta, tb, tc, compute, wa[h][j], wb[h][j], wc[h][j]);
      if (tOut == DT_BOOL)
        bufB8[0].d[(pc.offs[0] >> 3) + i8] = packUint2x32(uvec2(wordsToBytes(r[0]), wordsToBytes(r[1])));
      else
        buf16[0].d[(pc.offs[0] >> 3) + i8] = u64vec4(packUint2x32(r[0].xy), packUint2x32(r[0].zw),
                                                    packUint2x32(r[1].xy), packUint2x32(r[1].zw));
    }
    const uint tail = (pc.n & ~7u) + gid;
    if (tail < pc.n) linearElement(op, tOut, ta, tb, tc, compute, tail);
    return;
  }
  if ((kVariant & EW_VEC4) != 0u) {
    // Bool operands and results as Note [Linear bool operands]: four bytes, one uint.
    uint begin, end;
    subgroupChunk(pc.n >> 2, begin, end);
    STRIDED_LOOP(i4, begin + gl_SubgroupInvocationID, end, gl_SubgroupSize) {
      uvec4 wa = loadWords4(1u, ta, i4);
      uvec4 wb = binary ? loadWords4(2u, tb, i4) : uvec4(0u);
      uvec4 wc = ternary ? loadWords4(3u, tc, i4) : uvec4(0u);
      uvec4 r;
      for (uint j = 0u; j < 4u; ++j) r[j] = wordOp(op, tOut, ta, tb, tc, compute, wa[j], wb[j], wc[j]);
      if (tOut == DT_BOOL) buf[0].d[(pc.offs[0] >> 2) + i4] = wordsToBytes(r);
      else buf8[0].d[(pc.offs[0] >> 2) + i4] = u64vec2(packUint2x32(r.xy), packUint2x32(r.zw));
    }
    const uint tail = (pc.n & ~3u) + gid;
    if (tail < pc.n) linearElement(op, tOut, ta, tb, tc, compute, tail);
    return;
  }
  uint begin, end;
  subgroupChunk(pc.n, begin, end);
  STRIDED_LOOP(i, begin + gl_SubgroupInvocationID, end, gl_SubgroupSize)
    linearElement(op, tOut, ta, tb, tc, compute, i);
}

// One element of the strided path: operand k at element e<k>.
void stridedElement(uint op, uint tOut, uint ta, uint tb, uint tc, uint compute, uint e0, uint e1,
                    uint e2, uint e3) {
  if (op == EW_WHERE) {
    bool cond = loadB(1, e1, ta);
    if (compute == DT_F32) storeF(0, e0, tOut, cond ? loadF(2, e2, tb) : loadF(3, e3, tc));
    else storeI(0, e0, tOut, cond ? loadI(2, e2, tb) : loadI(3, e3, tc));
    return;
  }
  const bool binary = ewBinary(op), ternary = ewTernary(op);
  if (compute == DT_F32) {
    float a = loadF(1, e1, ta);
    float b = binary ? loadF(2, e2, tb) : 0.0;
    float c = ternary ? loadF(3, e3, tc) : 0.0;
    storeF(0, e0, tOut, opF(op, a, b, c));
  } else if (compute == DT_BOOL) {
    // Casts to bool: nonzero test in the source dtype (NaN counts as true).
    storeI(0, e0, tOut, loadB(1, e1, ta) ? 1 : 0);
  } else {
    int a = loadI(1, e1, ta);
    int b = binary ? loadI(2, e2, tb) : 0;
    int c = ternary ? loadI(3, e3, tc) : 0;
    storeI(0, e0, tOut, opI(op, a, b, c));
  }
}

void main() {
  const uint op = kVariant & 255u, types = (kVariant >> 8) & 0xfffffu;
  const uint tOut = types & 15u, ta = (types >> 4) & 15u, tb = (types >> 8) & 15u;
  const uint tc = (types >> 12) & 15u, compute = (types >> 16) & 15u;
  if ((kVariant & EW_LINEAR) != 0u) {
    linearMain(op, tOut, ta, tb, tc, compute);
    return;
  }
  // Note [Strided runs]
  // Invocation g owns run g of the innermost dim (pc.run elements of one row): the div/mod
  // index math runs once per run, then each operand steps by its innermost stride. On llvmpipe
  // the index math per element cost more than the load and the op (a transpose copy of
  // 2048 x 2048 f32: 33 -> 10 ms with runs of 64); on a GPU the host passes runs of one
  // element, so neighbouring lanes touch neighbouring addresses.
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (g >= pc.n) return;
  const uint last = pc.ndim - 1u, len = pc.shape[last];
  const uint runsPerRow = (len + pc.run - 1u) / pc.run;
  const uint c0 = (g % runsPerRow) * pc.run;
  uint e0 = pc.offs[0] + c0 * pc.strides[last], e1 = pc.offs[1] + c0 * pc.strides[4u + last];
  uint e2 = pc.offs[2] + c0 * pc.strides[8u + last], e3 = pc.offs[3] + c0 * pc.strides[12u + last];
  uint rem = g / runsPerRow;
  for (int j = int(last) - 1; j >= 0; --j) {
    uint s = pc.shape[j];
    uint c = rem % s;
    rem /= s;
    e0 += c * pc.strides[j];
    e1 += c * pc.strides[4 + j];
    e2 += c * pc.strides[8 + j];
    e3 += c * pc.strides[12 + j];
  }
  const uint end = min(len, c0 + pc.run);
  for (uint c = c0; c < end; ++c) {
    stridedElement(op, tOut, ta, tb, tc, compute, e0, e1, e2, e3);
    e0 += pc.strides[last];
    e1 += pc.strides[4u + last];
    e2 += pc.strides[8u + last];
    e3 += pc.strides[12u + last];
  }
}
