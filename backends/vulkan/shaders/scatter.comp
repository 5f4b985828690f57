// Writes along a dim into a contiguous output (a copy of x): index_add, index_copy, scatter,
// scatter_add, scatter_reduce. One invocation per position p of the iteration shape (src's
// for slice writes, the index's otherwise): target = p with p[dim] replaced by the index there.
// Concurrent writes to one target combine with atomics (compare-and-swap loops for f32 and
// for products), so sums may be added in any order. Operand 3 holds the error flag (word 0)
// and, for "mean", a count per output element (words 1..). A bad index raises FLAG_BAD_INDEX.
// Pass 0 writes the reduction's identity to every target (include_self = false), pass 1
// combines, pass 2 (mean) divides each counted element by its count (+1 with include_self).
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

#define M_ASSIGN 0u
#define M_SUM 1u
#define M_PROD 2u
#define M_MEAN 3u
#define M_AMAX 4u
#define M_AMIN 5u
// Bits 0-3: mode; bits 4-5: dtype (DT_*).
layout(constant_id = 0) const uint kVariant = 0;

layout(push_constant) uniform PC {
  uint n, rank, dim, dimSize;
  uint srcOff, idxOff, flags, alpha;  // flags: 1 slices, 2 scalar src, 4 include self, 8 alpha;
                                      // pass << 4. alpha: f32 bits or i32 (index_add)
  uint shape[6];
  uint srcStrides[6];
  uint idxStrides[6];
  uint outStrides[6];  // the contiguous output (x's shape), which the index may not cover
} pc;

uint mode() { return kVariant & 15u; }
uint dtype() { return (kVariant >> 4) & 3u; }

float fcombine(float a, float b) {
  uint m = mode();
  if (m == M_ASSIGN) return b;
  if (m == M_SUM || m == M_MEAN) return a + b;
  if (m == M_PROD) return a * b;
  if (m == M_AMAX) return (b > a || isnan(b)) ? b : a;
  return (b < a || isnan(b)) ? b : a;
}
int icombine(int a, int b) {
  uint m = mode();
  if (m == M_ASSIGN) return b;
  if (m == M_SUM || m == M_MEAN) return int(uint(a) + uint(b));
  if (m == M_PROD) return int(uint(a) * uint(b));
  if (m == M_AMAX) return max(a, b);
  return min(a, b);
}

uint identityBits() {
  uint m = mode();
  bool f = dtype() == DT_F32;
  if (m == M_PROD) return f ? floatBitsToUint(1.0) : 1u;
  if (m == M_AMAX) return f ? floatBitsToUint(-kInf) : 0x80000000u;
  if (m == M_AMIN) return f ? floatBitsToUint(kInf) : 0x7fffffffu;
  return 0u;
}

void combineAt(uint t, uint v) {
  uint m = mode(), dt = dtype();
  if (dt == DT_BOOL) {
    uint w = t >> 2, sh = (t & 3u) << 3;
    bool orLike = m == M_SUM || m == M_MEAN || m == M_AMAX;
    if (m == M_ASSIGN) storeByte(0, t, v);
    else if (orLike) { if (v != 0u) atomicOr(buf[0].d[w], 1u << sh); }
    else if (v == 0u) atomicAnd(buf[0].d[w], ~(0xffu << sh));
    return;
  }
  if (m == M_ASSIGN) { buf[0].d[t] = v; return; }
  if (dt == DT_I32) {
    // (atomicMax/atomicMin on these uint words would compare unsigned: they take the loop.)
    if (m == M_SUM || m == M_MEAN) { atomicAdd(buf[0].d[t], v); return; }
  }
  uint old = buf[0].d[t];
  for (uint k = 0u; k < 65535u; ++k) {
    uint want = dt == DT_F32 ? floatBitsToUint(fcombine(uintBitsToFloat(old), uintBitsToFloat(v)))
                             : uint(icombine(int(old), int(v)));
    uint seen = atomicCompSwap(buf[0].d[t], old, want);
    if (seen == old) return;
    old = seen;
  }
}

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (g >= pc.n) return;
  const uint pass = pc.flags >> 4;
  const bool slices = (pc.flags & 1u) != 0u, scalarSrc = (pc.flags & 2u) != 0u;
  if (pass == 2u) {  // mean: g is an output element
    uint c = buf[3].d[1u + g];
    if (c == 0u) return;
    c += (pc.flags & 4u) != 0u ? 1u : 0u;
    if (dtype() == DT_F32) buf[0].d[g] = floatBitsToUint(uintBitsToFloat(buf[0].d[g]) / float(c));
    else buf[0].d[g] = uint(int(floor(float(int(buf[0].d[g])) / float(c))));
    return;
  }
  // The position's coordinates, its index and source elements, and the target's offset.
  uint rem = g, se = pc.srcOff, ie = pc.idxOff, t = 0u;
  uint coord[6];
  for (int j = int(pc.rank) - 1; j >= 0; --j) {
    uint c = rem % pc.shape[j];
    rem /= pc.shape[j];
    coord[j] = c;
    se += c * pc.srcStrides[j];
    if (!slices) ie += c * pc.idxStrides[j];
  }
  if (slices) ie += coord[pc.dim] * pc.idxStrides[0];
  int v = int(buf[2].d[ie]);
  if (v < 0 || v >= int(pc.dimSize)) {
    atomicOr(buf[3].d[0], FLAG_BAD_INDEX);
    return;
  }
  for (uint j = 0u; j < pc.rank; ++j) t += (j == pc.dim ? uint(v) : coord[j]) * pc.outStrides[j];
  if (pass == 0u) {
    if (dtype() == DT_BOOL) storeByte(0, t, mode() == M_PROD || mode() == M_AMIN ? 1u : 0u);
    else buf[0].d[t] = identityBits();
    return;
  }
  const uint s = scalarSrc ? pc.srcOff : se;
  uint val = dtype() == DT_BOOL ? loadByte(1, s) : buf[1].d[s];
  if ((pc.flags & 8u) != 0u)
    val = dtype() == DT_F32 ? floatBitsToUint(uintBitsToFloat(val) * uintBitsToFloat(pc.alpha))
                            : uint(int(val) * int(pc.alpha));
  combineAt(t, val);
  if (mode() == M_MEAN) atomicAdd(buf[3].d[1u + t], 1u);
}
