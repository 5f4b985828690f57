// index_select and gather: out[c] = x[c with c[dim] replaced by idx[position of c]] for a
// contiguous output of rank <= 6. A bad index raises FLAG_BAD_INDEX in operand 3.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

layout(push_constant) uniform PC {
  uint n, rank, dim, dimSize;
  uint xOff, idxOff, dtype, pad;
  uint shape[6];
  uint xStrides[6];
  uint idxStrides[6];
} pc;

void main() {
  uint i = linearGroup() * 256u + gl_LocalInvocationID.x;
  if (i >= pc.n) return;
  uint rem = i, xe = pc.xOff, ie = pc.idxOff;
  for (int j = int(pc.rank) - 1; j >= 0; --j) {
    uint c = rem % pc.shape[j];
    rem /= pc.shape[j];
    if (uint(j) != pc.dim) xe += c * pc.xStrides[j];
    ie += c * pc.idxStrides[j];
  }
  int v = int(buf[2].d[ie]);
  int size = int(pc.dimSize);
  if (v < -size || v >= size) {
    atomicOr(buf[3].d[0], FLAG_BAD_INDEX);
    v = 0;
  }
  if (v < 0) v += size;
  xe += uint(v) * pc.xStrides[pc.dim];
  if (pc.dtype == DT_BOOL) storeByte(0, i, loadByte(1, xe));
  else buf[0].d[i] = buf[1].d[xe];
}
