// Batched C[b] = A[b] @ B[b] over strided operands: 64x64 output tiles per workgroup, K in
// steps of 16 through shared memory, each invocation accumulating a 4x4 block in registers.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(push_constant) uniform PC {
  uint M, N, K, batch;
  uint aOff, bOff, cOff, pad;
  uint aRs, aCs, bRs, bCs;
  uint aBs, bBs, cBs;
} pc;

#define TILE 64u
#define TK 16u
shared T As[TK][TILE];
shared T Bs[TK][TILE];

void main() {
  uint tilesM = (pc.M + TILE - 1u) / TILE, tilesN = (pc.N + TILE - 1u) / TILE;
  uint g = linearGroup();
  uint bIdx = g / (tilesM * tilesN);
  if (bIdx >= pc.batch) return;
  uint tile = g % (tilesM * tilesN);
  uint m0 = (tile / tilesN) * TILE, n0 = (tile % tilesN) * TILE;
  uint t = gl_LocalInvocationID.x, tx = t % 16u, ty = t / 16u;
  uint aBase = pc.aOff + bIdx * pc.aBs, bBase = pc.bOff + bIdx * pc.bBs;
  T acc[4][4];
  for (uint i = 0u; i < 4u; ++i)
    for (uint j = 0u; j < 4u; ++j) acc[i][j] = T(0);
  for (uint k0 = 0u; k0 < pc.K; k0 += TK) {
    for (uint l = 0u; l < 4u; ++l) {
      uint idx = t + l * 256u;
      // A tile: 64 rows x 16 k; idx -> (row = idx / 16, k = idx % 16).
      uint ar = idx / TK, ak = idx % TK;
      uint gm = m0 + ar, gk = k0 + ak;
      As[ak][ar] = (gm < pc.M && gk < pc.K) ? LOAD(1, aBase + gm * pc.aRs + gk * pc.aCs) : T(0);
      // B tile: 16 k x 64 cols; idx -> (k = idx / 64, col = idx % 64).
      uint bk = idx / TILE, bc = idx % TILE;
      uint gk2 = k0 + bk, gn = n0 + bc;
      Bs[bk][bc] = (gk2 < pc.K && gn < pc.N) ? LOAD(2, bBase + gk2 * pc.bRs + gn * pc.bCs) : T(0);
    }
    barrier();
    for (uint kk = 0u; kk < TK; ++kk) {
      T a[4], b[4];
      for (uint i = 0u; i < 4u; ++i) a[i] = As[kk][ty + 16u * i];
      for (uint j = 0u; j < 4u; ++j) b[j] = Bs[kk][tx + 16u * j];
      for (uint i = 0u; i < 4u; ++i)
        for (uint j = 0u; j < 4u; ++j) acc[i][j] += a[i] * b[j];
    }
    barrier();
  }
  uint cBase = pc.cOff + bIdx * pc.cBs;
  for (uint i = 0u; i < 4u; ++i)
    for (uint j = 0u; j < 4u; ++j) {
      uint gm = m0 + ty + 16u * i, gn = n0 + tx + 16u * j;
      if (gm < pc.M && gn < pc.N) buf[0].d[cBase + gm * pc.N + gn] = STORE(acc[i][j]);
    }
}
