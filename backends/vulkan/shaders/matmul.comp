#version 450
// f32 matmul (see matmul.glsl).
#define T float
#define T4 vec4
#define LOAD(k, e) uintBitsToFloat(buf[k].d[e])
#define LOAD4(k, v) uintBitsToFloat(bufv4[k].d[v])
#define STORE(v) floatBitsToUint(v)
#include "matmul.glsl"
