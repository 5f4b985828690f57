// index_select and gather: out[c] = x[c with c[dim] replaced by idx[position of c]] for a
// contiguous output of rank <= 6. A bad index raises FLAG_BAD_INDEX in operand 3.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

layout(push_constant) uniform PC {
  uint n, rank, dim, dimSize;  // n: runs (Note [Strided runs] in elementwise.comp)
  uint xOff, idxOff, dtype, run;  // run: output elements of the innermost dim per invocation
  uint shape[6];
  uint xStrides[6];
  uint idxStrides[6];
} pc;

void main() {
  const uint g = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (g >= pc.n) return;
  const uint last = pc.rank - 1u, len = pc.shape[last];
  const uint runsPerRow = (len + pc.run - 1u) / pc.run;
  const uint row = g / runsPerRow, c0 = (g % runsPerRow) * pc.run;
  // The run's first element: index math once, then each step moves along the innermost dim.
  uint rem = row, xe = pc.xOff, ie = pc.idxOff + c0 * pc.idxStrides[last];
  if (last != pc.dim) xe += c0 * pc.xStrides[last];
  for (int j = int(last) - 1; j >= 0; --j) {
    uint c = rem % pc.shape[j];
    rem /= pc.shape[j];
    if (uint(j) != pc.dim) xe += c * pc.xStrides[j];
    ie += c * pc.idxStrides[j];
  }
  const uint xStep = last != pc.dim ? pc.xStrides[last] : 0u;
  const int size = int(pc.dimSize);
  const uint end = min(len, c0 + pc.run);
  for (uint c = c0; c < end; ++c) {
    int v = int(buf[2].d[ie]);
    if (v < -size || v >= size) {
      atomicOr(buf[3].d[0], FLAG_BAD_INDEX);
      v = 0;
    }
    if (v < 0) v += size;
    const uint src = xe + uint(v) * pc.xStrides[pc.dim], i = row * len + c;
    if (pc.dtype == DT_BOOL) storeByte(0, i, loadByte(1, src));
    else buf[0].d[i] = buf[1].d[src];
    ie += pc.idxStrides[last];
    xe += xStep;
  }
}
