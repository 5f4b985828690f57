// The data-dependent ops on a CPU device (Note [Chunked compaction] in ops_data_dependent.cpp):
// every invocation owns `chunk` consecutive elements (a multiple of 8) of the 0/1 flag bytes
// (operand 1, bool bytes at byte offset foff, a multiple of 8) and walks them alone, eight
// flags (one uint64_t) per step. Mode K_COUNT writes the chunk's count of set flags to
// operand 2; the host scans those counts in place (scan.comp), and the other modes walk the
// chunk again from the scanned count of the chunks before it, writing operand 0: nonzero the
// coordinates, select the chosen values of operand 3 (element offset voff), scatter every
// element: x (operand 2) or, where chosen, the next value of operand 3 (scatterChunk). The
// mode and dtype (nonzero: rank 1, 2 or any) are the specialization constant, since llvmpipe
// runs every branch on a push constant.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require
#include "common.glsl"
layout(local_size_x = 64) in;

layout(constant_id = 0) const uint kVariant = 0;  // mode | dtype << 4

#define K_COUNT 0u
#define K_NONZERO 1u
#define K_SELECT 2u
#define K_SCATTER 3u

layout(push_constant) uniform PC {
  uint n, chunk, rank, foff, voff, chunks, soff, xoff;
  uint shape[8];
} pc;

layout(std430, set = 0, binding = 0) buffer BufB8 { uint64_t d[]; } bufB8[4];
layout(std430, set = 0, binding = 0) buffer Buf16 { u64vec4 d[]; } buf16[4];

// Eight flags from element e (e a multiple of 8), the bytes past `end` read as zero.
uvec2 flagWord(uint e, uint end) {
  if (e + 8u <= end) return unpackUint2x32(bufB8[1].d[(pc.foff + e) >> 3]);
  uvec2 w = uvec2(0u);
  for (uint j = 0u; j < end - e; ++j) {
    uint b = loadByte(1, pc.foff + e + j);
    if (j < 4u) w.x |= b << (8u * j);
    else w.y |= b << (8u * (j - 4u));
  }
  return w;
}

// The number of nonzero bytes of a word.
uint nonzeroBytes(uint x) {
  x |= x >> 4;
  x |= x >> 2;
  x |= x >> 1;
  return bitCount(x & 0x01010101u);
}

void copyElem(uint dt, uint dst, uint src) {
  if (dt == DT_BOOL) storeByte(0, dst, loadByte(3, src));
  else buf[0].d[dst] = buf[3].d[src];
}

// masked_scatter: out (operand 0, offset 0) gets x (operand 2 at xoff, a multiple of 8) or,
// where the flag is set, the next value of the source (operand 3 at voff). The scanned chunk
// counts follow the flags in operand 1, at word soff. Every element of the chunk is written.
void scatterChunk(uint inv, uint begin, uint end) {
  const uint dt = kVariant >> 4;
  uint pos = inv > 0u ? buf[1].d[pc.soff + inv - 1u] : 0u;
  const uint stop = buf[1].d[pc.soff + inv];
  for (uint e = begin; e < end; e += 8u) {
    uvec2 w = flagWord(e, end);
    if (e + 8u > end) {
      for (uint j = 0u; j < end - e; ++j) {
        const bool b = ((j < 4u ? w.x : w.y) >> (8u * (j & 3u)) & 0xffu) != 0u;
        const uint s = pc.voff + min(pos, stop - 1u);  // in range even if read regardless
        if (dt == DT_BOOL) storeByte(0, e + j, b ? loadByte(3, s) : loadByte(2, pc.xoff + e + j));
        else buf[0].d[e + j] = b ? buf[3].d[s] : buf[2].d[pc.xoff + e + j];
        pos += b ? 1u : 0u;
      }
      return;
    }
    uint v[8];
    if (dt == DT_BOOL) {
      uvec2 q = unpackUint2x32(bufB8[2].d[(pc.xoff + e) >> 3]);
      [[unroll]] for (uint j = 0u; j < 8u; ++j)
        v[j] = ((j < 4u ? q.x : q.y) >> (8u * (j & 3u))) & 0xffu;
    } else {
      u64vec4 q = buf16[2].d[(pc.xoff + e) >> 3];
      [[unroll]] for (uint j = 0u; j < 4u; ++j) {
        uvec2 p = unpackUint2x32(q[j]);
        v[2u * j] = p.x;
        v[2u * j + 1u] = p.y;
      }
    }
    if ((w.x | w.y) != 0u) {
      // The source is read at the next slot whether or not the element is chosen (its last
      // slot once the chunk's are used up; count > 0, so slot 0 exists): no load on a mask.
      [[unroll]] for (uint j = 0u; j < 8u; ++j) {
        const uint b = (((j < 4u ? w.x : w.y) >> (8u * (j & 3u))) & 0xffu) != 0u ? 1u : 0u;
        const uint s = pc.voff + min(pos, stop - 1u);
        const uint sv = dt == DT_BOOL ? loadByte(3, s) : buf[3].d[s];
        v[j] = b != 0u ? sv : v[j];
        pos += b;
      }
    }
    if (dt == DT_BOOL)
      bufB8[0].d[e >> 3] = packUint2x32(uvec2(v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24,
                                              v[4] | v[5] << 8 | v[6] << 16 | v[7] << 24));
    else
      buf16[0].d[e >> 3] = u64vec4(packUint2x32(uvec2(v[0], v[1])), packUint2x32(uvec2(v[2], v[3])),
                                   packUint2x32(uvec2(v[4], v[5])), packUint2x32(uvec2(v[6], v[7])));
  }
}

void main() {
  const uint mode = kVariant & 15u, dt = kVariant >> 4;
  const uint inv = linearGroup() * 64u + gl_LocalInvocationID.x;
  if (inv >= pc.chunks) return;  // ceil(n / chunk), from the host: n + chunk may pass 2^32
  const uint begin = inv * pc.chunk;
  const uint end = begin + min(pc.chunk, pc.n - begin);
  if (mode == K_COUNT) {
    uint count = 0u;
    for (uint e = begin; e < end; e += 8u) {
      uvec2 w = flagWord(e, end);
      count += nonzeroBytes(w.x) + nonzeroBytes(w.y);
    }
    buf[2].d[inv] = count;
    return;
  }
  if (mode == K_SCATTER) {
    scatterChunk(inv, begin, end);
    return;
  }
  // Stores go to slot pos while pos < stop (this chunk's slots) whether or not the element is
  // chosen (an unchosen element's value is overwritten by the next chosen one): a store under
  // a random mask costs a mispredicted branch per lane on llvmpipe, 10x the store itself.
  uint pos = inv > 0u ? buf[2].d[inv - 1u] : 0u;
  const uint stop = buf[2].d[inv];
  const uint last = pc.rank - 1u;
  // nonzero: e's coordinate in the last dim and its row (e / shape[last]), stepped with e.
  uint col = 0u, row = 0u;
  if (mode == K_NONZERO) {
    col = begin % pc.shape[last];
    row = begin / pc.shape[last];
  }
  for (uint e = begin; e < end && pos < stop; e += 8u) {
    uvec2 w = flagWord(e, end);
    if (mode == K_NONZERO) {
      // dt is 1 or 2 for ranks 1 and 2 (their own pipelines), 0 for any rank.
      [[unroll]] for (uint j = 0u; j < 8u; ++j) {
        const uint b = (((j < 4u ? w.x : w.y) >> (8u * (j & 3u))) & 0xffu) != 0u ? 1u : 0u;
        if (pos < stop) {
          if (dt == 1u) {
            buf[0].d[pos] = col;
          } else if (dt == 2u) {
            bufB8[0].d[pos] = packUint2x32(uvec2(row, col));
          } else {
            buf[0].d[pos * pc.rank + last] = col;
            uint r = row;
            for (int k = int(last) - 1; k >= 0; --k) {
              buf[0].d[pos * pc.rank + uint(k)] = r % pc.shape[k];
              r /= pc.shape[k];
            }
          }
        }
        pos += b;
        if (dt == 1u) {
          ++col;
        } else if (++col == pc.shape[last]) {
          col = 0u;
          ++row;
        }
      }
      continue;
    }
    if ((w.x | w.y) == 0u) continue;
    if (mode == K_SELECT) {
      // Eight values of operand 3 (voff is a multiple of 8: the host sees to it).
      uint v[8];
      if (e + 8u > end) {
        [[unroll]] for (uint j = 0u; j < 8u; ++j)
          v[j] = e + j >= end ? 0u : dt == DT_BOOL ? loadByte(3, pc.voff + e + j)
                                                   : buf[3].d[pc.voff + e + j];
      } else if (dt == DT_BOOL) {
        uvec2 q = unpackUint2x32(bufB8[3].d[(pc.voff + e) >> 3]);
        [[unroll]] for (uint j = 0u; j < 8u; ++j)
          v[j] = ((j < 4u ? q.x : q.y) >> (8u * (j & 3u))) & 0xffu;
      } else {
        u64vec4 q = buf16[3].d[(pc.voff + e) >> 3];
        [[unroll]] for (uint j = 0u; j < 4u; ++j) {
          uvec2 p = unpackUint2x32(q[j]);
          v[2u * j] = p.x;
          v[2u * j + 1u] = p.y;
        }
      }
      [[unroll]] for (uint j = 0u; j < 8u; ++j) {
        const uint b = (((j < 4u ? w.x : w.y) >> (8u * (j & 3u))) & 0xffu) != 0u ? 1u : 0u;
        if (pos < stop) {
          if (dt == DT_BOOL) storeByte(0, pos, v[j]);
          else buf[0].d[pos] = v[j];
        }
        pos += b;
      }
      continue;
    }
  }
}
