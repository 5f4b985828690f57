// The fused attention kernels of the cpu backend (Note [Fused attention] in
// attention_kernel.cpp): raw pointers and sizes, one batch entry per call, so that the op glue
// (attention.cpp) can spread batch entries and query ranges over threads. Internal to
// backends/cpu.
#pragma once

#include <cstdint>
#include <vector>

namespace tessel::backends::cpu::attn {

/// The mask of one batch entry: element (t, s) is data[t * strideT + s * strideS] (a stride is
/// 0 where the mask broadcasts). Bool masks say which keys take part; f32 masks are added to
/// the scores.
struct MaskView {
  const void* data = nullptr;  ///< nullptr: no mask
  bool isBool = false;
  int64_t strideT = 0, strideS = 0;
};

/// Sizes of one batch entry: q [T, D], k [S, D], v [S, Dv] and the backward's dout [T, Dv],
/// row-major with rows ldq, ldk, ldv and lddo elements apart (Note [Strided attention
/// operands] in attention.cpp); the forward's out is contiguous.
struct Problem {
  int64_t T = 0, S = 0, D = 0, Dv = 0;
  int64_t ldq = 0, ldk = 0, ldv = 0, lddo = 0;
  float scale = 1.0f;
  bool causal = false;  ///< key s takes part for query t only when s <= t (top-left aligned)
};

/// Per-thread buffers; they keep their capacity from call to call. Every one is O((T + S) * D)
/// or a fixed tile: none is [T, S].
struct Scratch {
  std::vector<float> kt, vp, vt, qs, dop, tile, tile2, o, m, l, dk, dv, dq, delta, lse;
};

/// out[t, :] (when out is not null) and lse[t] = logsumexp_s(score[t, s]) (when lse is not
/// null) for the queries t in [t0, t1). A query whose every key is masked gets NaN outputs and
/// lse -inf, as softmax over nothing but -inf does; S == 0 gives zeros (an empty sum).
void forward(const Problem& p, const float* q, const float* k, const float* v, MaskView mask,
             float* out, float* lse, int64_t t0, int64_t t1, Scratch& sc);

/// The gradients of one batch entry from the output gradient dout [T, Dv], the forward's out
/// and lse: dq [T, D], dk [S, D], dv [S, Dv] (overwritten). Scores are recomputed tile by tile.
void backward(const Problem& p, const float* q, const float* k, const float* v, const float* out,
              const float* dout, const float* lse, MaskView mask, float* dq, float* dk, float* dv,
              Scratch& sc);

}  // namespace tessel::backends::cpu::attn
