// Pooling and resizing of contiguous f32 planes [P, H, W] -> [P, OH, OW] (max_pool2d,
// avg_pool2d, adaptive_avg_pool2d, interpolate nearest/bilinear) and their backward ops. The
// formulas are those of shapes/pool_geometry.h (PyTorch's), in the same order of operations.
// Forward: one invocation per output element (operand 0: out, 1: x at xOff).
// Backward: one invocation per plane walks that plane's outputs in order and adds each grad
// into the input positions it came from, so no two invocations write one word and the sums
// are ordered as on the cpu (operand 0: grad of x, 1: x at xOff (max only), 2: grad at gOff).
// max_pool2d_double_backward (V_MAX + V_GATHER): one invocation per output element reads the
// x-shaped gradient (operand 2 at gOff) at its window's first maximum.
// Sizes are push constants: one pipeline per op serves every size.
#version 450
#include "common.glsl"
layout(local_size_x = 256) in;

#define V_MAX 0u
#define V_AVG 1u
#define V_ADAPTIVE 2u
#define V_NEAREST 3u
#define V_BILINEAR 4u
#define V_BACKWARD 8u
#define V_GATHER 16u
// The op: V_* (+ V_BACKWARD).
layout(constant_id = 0) const uint kVariant = 0u;

layout(push_constant) uniform PC {
  uint planes, H, W, OH, OW;
  int kh, kw, sh, sw, ph, pw, dh, dw;
  uint flags;  // bit 0: count_include_pad; bit 1: align_corners
  int divisor;
  float scaleH, scaleW;  // interpolate's f32 step per output (interpScale)
  uint xOff, gOff;
} pc;

uint op() { return kVariant & 7u; }

// avg_pool2d's divisor count along one dim (avgCount in backends/cpu/pool.cpp).
int avgCount(int o, int n, int k, int s, int p) {
  int start = o * s - p, end = min(start + k, n + p);
  if ((pc.flags & 1u) != 0u) return end - start;
  return min(end, n) - max(start, 0);
}

int adaptiveStart(int o, int n, int osz) { return (o * n) / osz; }
int adaptiveEnd(int o, int n, int osz) { return ((o + 1) * n + osz - 1) / osz; }

int nearestSource(int o, int n, int osz, float s) {
  if (osz == n) return o;
  if (osz == 2 * n) return o >> 1;
  return min(int(floor(float(o) * s)), n - 1);
}

// Bilinear taps along one dim: indices i.x, i.y and weights l.x, l.y.
void linearSource(int o, int n, int osz, float s, out ivec2 i, out vec2 l) {
  if (osz == n) {
    i = ivec2(o, o);
    l = vec2(1.0, 0.0);
    return;
  }
  float src = (pc.flags & 2u) != 0u ? s * float(o) : s * (float(o) + 0.5) - 0.5;
  src = max(src, 0.0);
  int i0 = min(int(src), n - 1);
  float l1 = clamp(src - float(i0), 0.0, 1.0);
  i = ivec2(i0, i0 + (i0 < n - 1 ? 1 : 0));
  l = vec2(1.0 - l1, l1);
}

float loadX(uint plane, int ih, int iw) {
  return uintBitsToFloat(buf[1].d[pc.xOff + plane * pc.H * pc.W + uint(ih) * pc.W + uint(iw)]);
}

float forwardAt(uint plane, int oh, int ow) {
  int H = int(pc.H), W = int(pc.W), OH = int(pc.OH), OW = int(pc.OW);
  if (op() == V_MAX || op() == V_AVG) {
    float acc = op() == V_MAX ? -kInf : 0.0;
    for (int i = 0; i < pc.kh; ++i) {
      int ih = oh * pc.sh - pc.ph + i * pc.dh;
      if (ih < 0 || ih >= H) continue;
      for (int j = 0; j < pc.kw; ++j) {
        int iw = ow * pc.sw - pc.pw + j * pc.dw;
        if (iw < 0 || iw >= W) continue;
        float v = loadX(plane, ih, iw);
        if (op() == V_MAX) acc = (v > acc || isnan(v)) ? v : acc;
        else acc += v;
      }
    }
    if (op() == V_AVG) {
      float div = pc.divisor != 0 ? float(pc.divisor)
                                  : float(avgCount(oh, H, pc.kh, pc.sh, pc.ph)) *
                                        float(avgCount(ow, W, pc.kw, pc.sw, pc.pw));
      acc /= div;
    }
    return acc;
  }
  if (op() == V_ADAPTIVE) {
    int h0 = adaptiveStart(oh, H, OH), h1 = adaptiveEnd(oh, H, OH);
    int w0 = adaptiveStart(ow, W, OW), w1 = adaptiveEnd(ow, W, OW);
    float sum = 0.0;
    for (int ih = h0; ih < h1; ++ih)
      for (int iw = w0; iw < w1; ++iw) sum += loadX(plane, ih, iw);
    return sum / float(h1 - h0) / float(w1 - w0);
  }
  if (op() == V_NEAREST)
    return loadX(plane, nearestSource(oh, H, OH, pc.scaleH), nearestSource(ow, W, OW, pc.scaleW));
  ivec2 ih, iw;
  vec2 lh, lw;
  linearSource(oh, H, OH, pc.scaleH, ih, lh);
  linearSource(ow, W, OW, pc.scaleW, iw, lw);
  return lh.x * (lw.x * loadX(plane, ih.x, iw.x) + lw.y * loadX(plane, ih.x, iw.y)) +
         lh.y * (lw.x * loadX(plane, ih.y, iw.x) + lw.y * loadX(plane, ih.y, iw.y));
}

void addGrad(uint plane, int ih, int iw, float v) {
  uint e = plane * pc.H * pc.W + uint(ih) * pc.W + uint(iw);
  buf[0].d[e] = floatBitsToUint(uintBitsToFloat(buf[0].d[e]) + v);
}

// The first maximum of a max window in row-major order (a NaN counts; the last one wins), in
// bh, bw; false for a window of padding only (no input read).
bool windowArgmax(uint plane, int oh, int ow, out int bh, out int bw) {
  int h0 = oh * pc.sh - pc.ph, w0 = ow * pc.sw - pc.pw;
  while (h0 < 0) h0 += pc.dh;
  while (w0 < 0) w0 += pc.dw;
  int hEnd = min(oh * pc.sh - pc.ph + (pc.kh - 1) * pc.dh + 1, int(pc.H));
  int wEnd = min(ow * pc.sw - pc.pw + (pc.kw - 1) * pc.dw + 1, int(pc.W));
  bh = h0;
  bw = w0;
  if (h0 >= hEnd || w0 >= wEnd) return false;
  float best = -kInf;
  for (int ih = h0; ih < hEnd; ih += pc.dh)
    for (int iw = w0; iw < wEnd; iw += pc.dw) {
      float v = loadX(plane, ih, iw);
      if (v > best || isnan(v)) {
        best = v;
        bh = ih;
        bw = iw;
      }
    }
  return true;
}

// max_pool2d_double_backward of one output element: the x-shaped gradient at the argmax.
float gatherAt(uint plane, int oh, int ow) {
  int bh, bw;
  if (!windowArgmax(plane, oh, ow, bh, bw)) return 0.0;
  return uintBitsToFloat(buf[2].d[pc.gOff + plane * pc.H * pc.W + uint(bh) * pc.W + uint(bw)]);
}

// The backward of one output element's grad g.
void backwardAt(uint plane, int oh, int ow, float g) {
  int H = int(pc.H), W = int(pc.W), OH = int(pc.OH), OW = int(pc.OW);
  if (op() == V_MAX) {
    int bh, bw;
    if (windowArgmax(plane, oh, ow, bh, bw)) addGrad(plane, bh, bw, g);
  } else if (op() == V_AVG) {
    float div = pc.divisor != 0 ? float(pc.divisor)
                                : float(avgCount(oh, H, pc.kh, pc.sh, pc.ph) *
                                        avgCount(ow, W, pc.kw, pc.sw, pc.pw));
    float v = g / div;
    int h0 = max(oh * pc.sh - pc.ph, 0), h1 = min(oh * pc.sh - pc.ph + pc.kh, H);
    int w0 = max(ow * pc.sw - pc.pw, 0), w1 = min(ow * pc.sw - pc.pw + pc.kw, W);
    for (int ih = h0; ih < h1; ++ih)
      for (int iw = w0; iw < w1; ++iw) addGrad(plane, ih, iw, v);
  } else if (op() == V_ADAPTIVE) {
    int h0 = adaptiveStart(oh, H, OH), h1 = adaptiveEnd(oh, H, OH);
    int w0 = adaptiveStart(ow, W, OW), w1 = adaptiveEnd(ow, W, OW);
    float v = g / float(h1 - h0) / float(w1 - w0);
    for (int ih = h0; ih < h1; ++ih)
      for (int iw = w0; iw < w1; ++iw) addGrad(plane, ih, iw, v);
  } else if (op() == V_NEAREST) {
    addGrad(plane, nearestSource(oh, H, OH, pc.scaleH), nearestSource(ow, W, OW, pc.scaleW), g);
  } else {
    ivec2 ih, iw;
    vec2 lh, lw;
    linearSource(oh, H, OH, pc.scaleH, ih, lh);
    linearSource(ow, W, OW, pc.scaleW, iw, lw);
    addGrad(plane, ih.x, iw.x, lh.x * lw.x * g);
    addGrad(plane, ih.x, iw.y, lh.x * lw.y * g);
    addGrad(plane, ih.y, iw.x, lh.y * lw.x * g);
    addGrad(plane, ih.y, iw.y, lh.y * lw.y * g);
  }
}

void main() {
  uint e = linearGroup() * 256u + gl_LocalInvocationID.x;
  if ((kVariant & V_BACKWARD) == 0u) {
    if (e >= pc.planes * pc.OH * pc.OW) return;
    uint ow = e % pc.OW, rest = e / pc.OW;
    uint plane = rest / pc.OH;
    int oh = int(rest % pc.OH);
    float y = (kVariant & V_GATHER) != 0u ? gatherAt(plane, oh, int(ow))
                                           : forwardAt(plane, oh, int(ow));
    buf[0].d[e] = floatBitsToUint(y);
    return;
  }
  if (e >= pc.planes) return;
  // Loops bounded per entry (Note [Loop limit]): rows and columns each stay below 2^16.
  for (uint ih = 0u; ih < pc.H; ++ih)
    for (uint iw = 0u; iw < pc.W; ++iw) buf[0].d[e * pc.H * pc.W + ih * pc.W + iw] = 0u;
  for (uint oh = 0u; oh < pc.OH; ++oh)
    for (uint ow = 0u; ow < pc.OW; ++ow) {
      float g = uintBitsToFloat(buf[2].d[pc.gOff + (e * pc.OH + oh) * pc.OW + ow]);
      backwardAt(e, int(oh), int(ow), g);
    }
}
