// Batched C[b] = A[b] @ B[b] over strided operands: 64x64 output tiles per workgroup of 64
// invocations, K in steps of 16 through shared memory, each invocation accumulating an 8x8
// block in registers from vec4 shared loads (Note [Matmul on llvmpipe]).
//
// Note [Matmul on llvmpipe]
// llvmpipe runs invocations as SIMD lanes and does every load whose address differs per lane
// (shared memory included) as a scalar loop over the lanes, one pass per load instruction,
// while the FMAs are full-width vector ops. So the cost is the loads per FMA: an 8x8 block
// from four vec4 loads per k step (16 words for 64 FMAs) instead of 4x4 from eight scalar
// loads (8 for 16).
//
// The tile fills have the same cost model: with kAligned (specialization constant, set by the
// host when A and B are row-major with unit column stride and every row start, offset and batch
// stride, K and N multiples of 4) each invocation fills with four vec4 global loads and four
// vec4 shared stores per operand (A transposed 4x4 in registers) instead of 16 scalar loads
// and stores; otherwise the general strided fill runs.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint kAligned = 0;
layout(std430, set = 0, binding = 0) readonly buffer BufV4 { uvec4 d[]; } bufv4[4];

layout(push_constant) uniform PC {
  uint M, N, K, batch;
  uint aOff, bOff, cOff, pad;
  uint aRs, aCs, bRs, bCs;
  uint aBs, bBs, cBs;
} pc;

#define TILE 64u
#define TK 16u
// As4[k][r] holds rows 4r..4r+3 of the A tile at k; Bs4[k][c] columns 4c..4c+3 of the B tile.
shared T4 As4[TK][TILE / 4u];
shared T4 Bs4[TK][TILE / 4u];

void main() {
  uint tilesM = (pc.M + TILE - 1u) / TILE, tilesN = (pc.N + TILE - 1u) / TILE;
  uint g = linearGroup();
  uint bIdx = g / (tilesM * tilesN);
  if (bIdx >= pc.batch) return;
  uint tile = g % (tilesM * tilesN);
  uint m0 = (tile / tilesN) * TILE, n0 = (tile % tilesN) * TILE;
  uint t = gl_LocalInvocationID.x, tx = t % 8u, ty = t / 8u;
  uint aBase = pc.aOff + bIdx * pc.aBs, bBase = pc.bOff + bIdx * pc.bBs;
  T4 acc[8][2];
  for (uint i = 0u; i < 8u; ++i) {
    acc[i][0] = T4(0);
    acc[i][1] = T4(0);
  }
  for (uint k0 = 0u; k0 < pc.K; k0 += TK) {
    // Each invocation fills 16 words of each tile: A as (row = t, k = 0..15), B as
    // (k = t / 4, cols 16 * (t % 4) + 0..15).
    if (kAligned != 0u) {
      // A: rows 4r..4r+3 (r = t % 16), k 4q..4q+3 (q = t / 16); bounds are per vec4 because
      // K % 4 == 0 and N % 4 == 0.
      uint r = t & 15u, q = t >> 4, gk = k0 + 4u * q;
      T4 v[4];
      for (uint i = 0u; i < 4u; ++i) {
        uint gm = m0 + 4u * r + i;
        v[i] = (gm < pc.M && gk < pc.K) ? LOAD4(1, (aBase + gm * pc.aRs + gk) >> 2) : T4(0);
      }
      for (uint j = 0u; j < 4u; ++j) As4[4u * q + j][r] = T4(v[0][j], v[1][j], v[2][j], v[3][j]);
      // B: row k = t / 4, columns 16 * (t % 4) + 0..15.
      uint bk = t >> 2, gk2 = k0 + bk;
      for (uint c = 0u; c < 4u; ++c) {
        uint c4 = 4u * (t & 3u) + c, gn = n0 + 4u * c4;
        Bs4[bk][c4] = (gk2 < pc.K && gn < pc.N) ? LOAD4(2, (bBase + gk2 * pc.bRs + gn) >> 2) : T4(0);
      }
    } else {
      uint gm = m0 + t;
      for (uint kk = 0u; kk < TK; ++kk) {
        uint gk = k0 + kk;
        As4[kk][t >> 2][t & 3u] = (gm < pc.M && gk < pc.K) ? LOAD(1, aBase + gm * pc.aRs + gk * pc.aCs) : T(0);
      }
      uint bk = t >> 2, gk2 = k0 + bk;
      for (uint c = 0u; c < 16u; ++c) {
        uint col = 16u * (t & 3u) + c, gn = n0 + col;
        Bs4[bk][col >> 2][col & 3u] = (gk2 < pc.K && gn < pc.N) ? LOAD(2, bBase + gk2 * pc.bRs + gn * pc.bCs) : T(0);
      }
    }
    barrier();
    for (uint kk = 0u; kk < TK; ++kk) {
      T4 a0 = As4[kk][2u * ty], a1 = As4[kk][2u * ty + 1u];
      T4 b0 = Bs4[kk][2u * tx], b1 = Bs4[kk][2u * tx + 1u];
      for (uint i = 0u; i < 4u; ++i) {
        acc[i][0] += a0[i] * b0;
        acc[i][1] += a0[i] * b1;
        acc[i + 4u][0] += a1[i] * b0;
        acc[i + 4u][1] += a1[i] * b1;
      }
    }
    barrier();
  }
  uint cBase = pc.cOff + bIdx * pc.cBs;
  for (uint i = 0u; i < 8u; ++i)
    for (uint j = 0u; j < 8u; ++j) {
      uint gm = m0 + 8u * ty + i, gn = n0 + 8u * tx + j;
      if (gm < pc.M && gn < pc.N) buf[0].d[cBase + gm * pc.N + gn] = STORE(acc[i][j >> 2][j & 3u]);
    }
}
