#version 450
// i32 matmul, wrapping like the cpu backend (see matmul.glsl).
#define T int
#define T4 ivec4
#define LOAD(k, e) int(buf[k].d[e])
#define LOAD4(k, v) ivec4(bufv4[k].d[v])
#define STORE(v) uint(v)
#include "matmul.glsl"
