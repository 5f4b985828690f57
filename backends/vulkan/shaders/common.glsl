// Helpers every kernel shares: typed loads and stores on raw word buffers, grid indexing.
// Every kernel binds up to four storage buffers as arrays of 32-bit words (binding 0, array of
// 4). bool tensors are bytes, so they are read by extracting a byte and written with atomics
// (neighbouring bytes belong to other invocations).
#extension GL_GOOGLE_include_directive : require
#include "ew_ops.h"

layout(std430, set = 0, binding = 0) buffer Buf { uint d[]; } buf[4];

#define kNaN uintBitsToFloat(0x7fc00000u)
#define kInf uintBitsToFloat(0x7f800000u)

// Note [Loop limit]
// llvmpipe (lavapipe) ends any single loop after 65535 iterations, silently, so a loop whose
// trip count grows with the data is written as two nested loops, each bounded by 2^14 steps
// per entry (STRIDED_LOOP below).
#define STRIDED_LOOP(i, start, end, step) \
  for (uint i##0 = (start); i##0 < (end); i##0 += (step) * 16384u) \
    for (uint i = i##0; i < min((end), i##0 + (step) * 16384u); i += (step))

// Workgroups beyond 65535 spill into y (the host splits the grid).
uint linearGroup() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// Float to i32 like the cpu backend: truncate, NaN -> 0, saturate.
int f2i(float v) {
  if (isnan(v)) return 0;
  if (v >= 2147483647.0) return 2147483647;
  if (v <= -2147483648.0) return int(0x80000000u);
  return int(v);
}

uint loadByte(uint k, uint e) { return (buf[k].d[e >> 2] >> ((e & 3u) << 3)) & 0xffu; }

float loadF(uint k, uint e, uint t) {
  if (t == DT_F32) return uintBitsToFloat(buf[k].d[e]);
  if (t == DT_I32) return float(int(buf[k].d[e]));
  return float(loadByte(k, e));
}
int loadI(uint k, uint e, uint t) {
  if (t == DT_F32) return f2i(uintBitsToFloat(buf[k].d[e]));
  if (t == DT_I32) return int(buf[k].d[e]);
  return int(loadByte(k, e));
}
bool loadB(uint k, uint e, uint t) {
  if (t == DT_F32) return uintBitsToFloat(buf[k].d[e]) != 0.0;
  if (t == DT_I32) return buf[k].d[e] != 0u;
  return loadByte(k, e) != 0u;
}

void storeByte(uint k, uint e, uint v) {
  uint w = e >> 2, sh = (e & 3u) << 3;
  atomicAnd(buf[k].d[w], ~(0xffu << sh));
  if (v != 0u) atomicOr(buf[k].d[w], v << sh);
}
void storeF(uint k, uint e, uint t, float v) {
  if (t == DT_F32) buf[k].d[e] = floatBitsToUint(v);
  else if (t == DT_I32) buf[k].d[e] = uint(f2i(v));
  else storeByte(k, e, v != 0.0 ? 1u : 0u);
}
void storeI(uint k, uint e, uint t, int v) {
  if (t == DT_F32) buf[k].d[e] = floatBitsToUint(float(v));
  else if (t == DT_I32) buf[k].d[e] = uint(v);
  else storeByte(k, e, v != 0 ? 1u : 0u);
}
