// The scatter step of data-dependent ops, given the inclusive scan of 0/1 flags (operand 1):
// nonzero writes coordinates, select copies chosen values (masked_select, unique), scatter
// fills chosen slots from a source (masked_scatter).
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

#define C_NONZERO 0u
#define C_SELECT 1u
#define C_SCATTER 2u

layout(push_constant) uniform PC {
  uint n, mode, rank, dtype;
  uint shape[8];
} pc;

void copyElem(uint dst, uint k, uint src) {
  if (pc.dtype == DT_BOOL) storeByte(0, dst, loadByte(k, src));
  else buf[0].d[dst] = buf[k].d[src];
}

void main() {
  uint e = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (e >= pc.n) return;
  uint incl = buf[1].d[e];
  bool chosen = incl != (e > 0u ? buf[1].d[e - 1u] : 0u);
  uint pos = incl - 1u;
  if (pc.mode == C_SCATTER) {
    if (chosen) copyElem(e, 3, pos);
    else copyElem(e, 2, e);
    return;
  }
  if (!chosen) return;
  if (pc.mode == C_SELECT) {
    copyElem(pos, 2, e);
    return;
  }
  uint rem = e;
  for (int j = int(pc.rank) - 1; j >= 0; --j) {
    buf[0].d[pos * pc.rank + uint(j)] = rem % pc.shape[j];
    rem /= pc.shape[j];
  }
}
