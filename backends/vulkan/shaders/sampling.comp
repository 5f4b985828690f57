// randperm, multinomial, bernoulli on the device (ops_sampling.cpp). Each element's randomness is
// the Philox word of its index, as on the cpu (backends/cpu/sampling.cpp), and multinomial's keys
// and running sums are integers computed exactly as backends/cpu/sampling_keys.h does them
// (Note [Exact sampling keys]): the two backends give the same indices under one seed().
// Probabilities are classified by their bits, not float compares, so a device that flushes
// subnormals to zero still counts a subnormal weight as nonzero, as the cpu does.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "common.glsl"
#include "philox.glsl"
layout(local_size_x = 256) in;

#define S_BERNOULLI 0u   // buf0 out f32, buf1 p, buf2 aux (flag); an invocation per 4 elements
#define S_PERM_KEYS 1u   // buf0 keys i32 (the word, sign bit flipped); per 4 elements
#define S_RACE_KEYS 2u   // buf0 keys [rows, k] i32, buf1 p; per 4 elements
#define S_ROW_STATS 3u   // buf1 p, buf2 aux; an invocation per (row, chunk of 256 categories)
#define S_ROW_CHECK 4u   // buf2 aux; an invocation per row
#define S_LOCAL_SCAN 5u  // buf0 running sums in the chunk (u64), buf1 p, buf2 aux; per (row, chunk)
#define S_CHUNK_SCAN 6u  // buf2 aux: the chunk totals' running sums, an invocation per row
#define S_DRAW 7u        // buf0 running sums, buf2 aux, buf3 out i32; per 4 draws

#define FLAG_BAD_VALUE 1u  // a negative, infinite or NaN weight (or p outside [0, 1])
#define FLAG_BAD_ROW 2u    // a row without mass, or fewer nonzero categories than draws
#define CHUNK 256u

layout(constant_id = 0) const uint kMode = 0;

// aux: word 0 the flags; words 1 + 2 r and 2 + 2 r row r's nonzero count and largest exponent;
// from totalsOff the chunk totals (then their running sums), two words (lo, hi) per chunk.
layout(push_constant) uniform PC {
  uint count;  // work items of the mode: elements, (row, chunk) pairs or rows
  uint rows, k, draws;
  uint pOff;
  uint keyLo, keyHi, baseLo, baseHi;
  uint replacement, chunks, totalsOff;
} pc;

uint wordOf(uvec4 w, uint i) { return w[i % 4u]; }

bool positive(uint b) { return (b >> 31) == 0u && b != 0u && (b >> 23) != 255u; }
bool badWeight(uint b) {
  return ((b >> 23) & 0xffu) == 255u || ((b >> 31) != 0u && (b & 0x7fffffffu) != 0u);
}

// sampling::log2Fixed, expFixed, splitFloat, raceKey, quantized, drawTarget (sampling_keys.h).
uint log2Fixed(uint x) {
  const uint e = uint(findMSB(x));
  uint m = x << (31u - e);
  uint frac = 0u;
  for (int i = 0; i < 26; ++i) {
    uint hi, lo;
    umulExtended(m, m, hi, lo);
    const uint bit = hi >> 31;
    m = bit != 0u ? hi : (hi << 1) | (lo >> 31);
    frac = (frac << 1) | bit;
  }
  return (e << 26) | frac;
}

uint expFixed(uint w) { return w == 0xffffffffu ? 0u : (32u << 26) - log2Fixed(w + 1u); }

void splitFloat(uint b, out uint mant, out uint ex) {
  ex = (b >> 23) & 0xffu;
  mant = b & 0x7fffffu;
  if (ex == 0u) ex = 1u;
  else mant |= 0x800000u;
}

int raceKey(uint w, uint b) {
  uint mant, ex;
  splitFloat(b, mant, ex);
  const uint64_t q = (uint64_t(expFixed(w)) << 32) / uint64_t(mant);
  if (q == 0ul) return 0;
  const uint qhi = uint(q >> 32);
  const uint top = qhi != 0u ? 32u + uint(findMSB(qhi)) : uint(findMSB(uint(q)));
  const uint biased = top + 92u + 256u - ex;
  const uint m = uint(top >= 22u ? (q >> (top - 22u)) : (q << (22u - top))) & 0x3fffffu;
  return int((biased << 22) | m);
}

uint quantized(uint b, uint emax) {
  uint mant, ex;
  splitFloat(b, mant, ex);
  const uint shift = emax - ex;
  return shift < 32u ? (mant << 8) >> shift : 0u;
}

uint64_t drawTarget(uint w, uint64_t total) {
  return (total >> 32) * uint64_t(w) + (((total & 0xfffffffful) * uint64_t(w)) >> 32);
}

uint64_t load64(uint k, uint at) { return uint64_t(buf[k].d[at]) | (uint64_t(buf[k].d[at + 1u]) << 32); }
void store64(uint k, uint at, uint64_t v) {
  buf[k].d[at] = uint(v);
  buf[k].d[at + 1u] = uint(v >> 32);
}

// Chunk j's inclusive running total of row r (after S_CHUNK_SCAN).
uint64_t chunkSum(uint r, uint j) { return load64(2, pc.totalsOff + 2u * (r * pc.chunks + j)); }

// The category of draw i (row i / draws): the first whose running sum passes the target.
uint draw(uint i, uint word) {
  const uint r = i / pc.draws;
  if (pc.k == 0u) return 0u;  // a row without categories: flagged, the output is not used
  const uint64_t t = drawTarget(word, chunkSum(r, pc.chunks - 1u));
  uint lo = 0u, hi = pc.chunks - 1u;  // the first chunk whose running total exceeds t
  while (lo < hi) {
    const uint mid = (lo + hi) / 2u;
    if (chunkSum(r, mid) > t) hi = mid;
    else lo = mid + 1u;
  }
  const uint64_t rel = t - (lo > 0u ? chunkSum(r, lo - 1u) : 0ul);
  uint a = lo * CHUNK, b = min(pc.k, a + CHUNK) - 1u;  // then the first category in it
  while (a < b) {
    const uint mid = (a + b) / 2u;
    if (load64(0, 2u * (r * pc.k + mid)) > rel) b = mid;
    else a = mid + 1u;
  }
  return a;
}

void element(uint i, uint word) {
  if (kMode == S_BERNOULLI) {
    uint b = buf[1].d[pc.pOff + i];
    if (badWeight(b) || (positive(b) && b > 0x3f800000u)) atomicOr(buf[2].d[0], FLAG_BAD_VALUE);
    if (b == 0x80000000u) b = 0u;  // -0.0
    // u < p as the bits of non-negative floats compare (exact, even where floats flush).
    buf[0].d[i] = floatBitsToUint(floatBitsToUint(uniformFromBits(word)) < b ? 1.0 : 0.0);
  } else if (kMode == S_PERM_KEYS) {
    buf[0].d[i] = word ^ 0x80000000u;  // i32 order of the keys is the u32 order of the words
  } else if (kMode == S_RACE_KEYS) {
    const uint b = buf[1].d[pc.pOff + i];
    buf[0].d[i] = uint(positive(b) ? raceKey(word, b) : 0x7fffffff);
  } else {
    buf[3].d[i] = draw(i, word);
  }
}

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (kMode <= S_RACE_KEYS || kMode == S_DRAW) {
    const uint i0 = 4u * g;
    if (i0 >= pc.count) return;
    const uvec4 w = philoxBlock(g, pc.keyLo, pc.keyHi, pc.baseLo, pc.baseHi);
    for (uint i = i0; i < min(pc.count, i0 + 4u); ++i) element(i, wordOf(w, i));
    return;
  }
  if (g >= pc.count) return;
  if (kMode == S_ROW_CHECK) {
    const uint nonzero = buf[2].d[1u + 2u * g];
    if (nonzero == 0u || (pc.replacement == 0u && nonzero < pc.draws))
      atomicOr(buf[2].d[0], FLAG_BAD_ROW);
    return;
  }
  if (kMode == S_CHUNK_SCAN) {
    uint64_t run = 0ul;
    STRIDED_LOOP(j, 0u, pc.chunks, 1u) {
      const uint at = pc.totalsOff + 2u * (g * pc.chunks + j);
      run += load64(2, at);
      store64(2, at, run);
    }
    return;
  }
  const uint r = g / pc.chunks, first = (g % pc.chunks) * CHUNK;
  const uint end = min(pc.k, first + CHUNK);
  const uint base = pc.pOff + r * pc.k;
  if (kMode == S_ROW_STATS) {
    uint nonzero = 0u, emax = 0u;
    bool bad = false;
    for (uint c = first; c < end; ++c) {
      const uint b = buf[1].d[base + c];
      bad = bad || badWeight(b);
      if (positive(b)) {
        ++nonzero;
        emax = max(emax, max(1u, b >> 23));
      }
    }
    if (bad) atomicOr(buf[2].d[0], FLAG_BAD_VALUE);
    if (nonzero > 0u) {
      atomicAdd(buf[2].d[1u + 2u * r], nonzero);
      atomicMax(buf[2].d[2u + 2u * r], emax);
    }
    return;
  }
  // S_LOCAL_SCAN: running sums of the quantized weights within the chunk, and its total.
  const uint emax = buf[2].d[2u + 2u * r];
  uint64_t run = 0ul;
  for (uint c = first; c < end; ++c) {
    const uint b = buf[1].d[base + c];
    if (positive(b)) run += uint64_t(quantized(b, emax));
    store64(0, 2u * (r * pc.k + c), run);
  }
  store64(2, pc.totalsOff + 2u * g, run);
}
