// Fused scaled-dot-product attention on the cpu: forward with an online softmax, backward that
// recomputes the scores tile by tile.
#include "backends/cpu/attention_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "backends/cpu/isa_clones.h"
#include "backends/cpu/vec16.h"

// Note [Fused attention]
// ~~~~~~~~~~~~~~~~~~~~~~
// softmax(q k^T * scale + mask) v is computed over tiles of 64 queries x 64 keys and never
// holds the [T, S] score matrix (FlashAttention's schedule). For each query tile the keys are
// visited in tiles; each query keeps a running max m, a running sum l of exp(score - m) and an
// output accumulator o; a new tile with a larger max rescales l and o by exp(m_old - m_new)
// first. At the end out = o / l and lse = m + log(l). Memory is the tiles plus K transposed
// and V padded for the vector loops: O((T + S) * D).
// The backward (dq, dk, dv) visits key tiles in the outer loop and query tiles in the inner
// one, recomputing P = exp(score - lse) from q, k and the forward's logsumexp (the only thing
// kept of the forward besides its output):
//   dV += P^T dO,  dP = dO V^T,  dS = P * (dP - rowsum(dO * O)),
//   dK += dS^T q * scale,  dQ += dS k * scale.
// The products are small register tiles (4 rows x 64 columns of f32 = 16 AVX-512 registers)
// written with GCC's vector extensions and compiled for each ISA level (Note [ISA clones]),
// where GCC contracts acc += x * b into one multiply-add. Their rate is the core's multiply-add
// rate, so the softmax step around them is kept vector-wide too: row maxes by halving,
// rescale factors 16 rows at a time, and an exp specialised to its x <= 0 (expNonPositive).
// Masked keys: a bool mask's false, an additive -inf, causal s > t and the padding past S all
// become a score of -inf. A query whose every key is masked has m = -inf and l = 0: its output
// is 0 / 0 = NaN, as PyTorch's softmax over a row of -inf gives (the subtraction uses 0 for an
// infinite max, so no inf - inf NaN appears in rows that do have keys).

// Note [Key tile width]
// ~~~~~~~~~~~~~~~~~~~~~
// Key tiles start every 64 keys, but a tile is only as wide as the keys it holds rounded up to
// 16 (one vector): min(64, roundUp(S - kb, 16)), and under causal masking only up to the query
// tile's last query. A batch of 14-character words (S = 14) works on 16 key columns, not 64,
// and S = 80 on 64 + 16. The products, the mask and the softmax step are templates on the
// number of 16-column groups (the 64-wide code unchanged); the tile's row stride stays 64. K
// transposed, V and the backward's copies are padded to a multiple of 16 keys, not 64. The
// backward's query tiles stop at the last query rounded up to 4 rows, as the forward's do.
// For finite inputs the results are the same bits as with 64-wide tiles: the columns left out
// were masked (exp gives exact zeros), the softmax sum keeps the full width's addition order,
// and the products only drop trailing zero terms. (An inf or NaN in a key or value that every
// query of the tile masks out no longer reaches the tile's products.)

namespace tessel::backends::cpu::attn {

namespace {

constexpr int64_t kBlock = 64;  // queries and keys per tile
constexpr int kRows = 4;        // rows per register tile
constexpr float kInf = std::numeric_limits<float>::infinity();

using namespace vec16;  // V16, load, store, splat, laneMax (vec16.h)
// Inlined into each ISA clone, so that they are compiled for its vector width.
#define TESSEL_ATTN_INLINE inline __attribute__((always_inline))

int64_t roundUp(int64_t n, int64_t m) {
  return (n + m - 1) / m * m;
}

template <class T>
T* sized(std::vector<T>& v, int64_t n) {
  if (static_cast<int64_t>(v.size()) < n) v.resize(static_cast<size_t>(n));
  return v.data();
}

// c[4][16 G] = a[4][K] (row stride lda) @ bt[K][16 G] (row stride ldb): scores, dP. c's row
// stride is kBlock whatever the width (Note [Key tile width]).
template <int G>
TESSEL_ATTN_INLINE void ntTile(const float* a, int64_t lda, const float* bt, int64_t ldb, int64_t K,
                   float* c) {
  V16 acc[kRows][G] = {};
  for (int64_t k = 0; k < K; ++k) {
    const float* b = bt + k * ldb;
    V16 bv[G];
#pragma GCC unroll 4
    for (int w = 0; w < G; ++w) bv[w] = load(b + 16 * w);
#pragma GCC unroll 4
    for (int r = 0; r < kRows; ++r) {
      const float x = a[r * lda + k];
#pragma GCC unroll 4
      for (int w = 0; w < G; ++w) acc[r][w] += x * bv[w];
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < kRows; ++r)
#pragma GCC unroll 4
    for (int w = 0; w < G; ++w) store(c + r * kBlock + 16 * w, acc[r][w]);
}

// c[4][16 W] += a[4][K] (row stride lda) @ b[K][16 W] (row stride ldb). With kTransA, a is
// stored transposed: element (r, k) at a[k * lda + r] (P^T and dS^T without a transposed copy).
template <int W, bool kTransA = false>
TESSEL_ATTN_INLINE void nnTile(const float* a, int64_t lda, int64_t K, const float* b, int64_t ldb, float* c,
                   int64_t ldc) {
  V16 acc[kRows][W];
#pragma GCC unroll 4
  for (int r = 0; r < kRows; ++r)
#pragma GCC unroll 4
    for (int w = 0; w < W; ++w) acc[r][w] = load(c + r * ldc + 16 * w);
  for (int64_t k = 0; k < K; ++k) {
    V16 bv[W];
#pragma GCC unroll 4
    for (int w = 0; w < W; ++w) bv[w] = load(b + k * ldb + 16 * w);
#pragma GCC unroll 4
    for (int r = 0; r < kRows; ++r) {
      const float x = kTransA ? a[k * lda + r] : a[r * lda + k];
#pragma GCC unroll 4
      for (int w = 0; w < W; ++w) acc[r][w] += x * bv[w];
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < kRows; ++r)
#pragma GCC unroll 4
    for (int w = 0; w < W; ++w) store(c + r * ldc + 16 * w, acc[r][w]);
}

// c[rows][width] += a[rows][K] @ b[K][width]; rows a multiple of 4, width of 16.
template <bool kTransA>
TESSEL_ATTN_INLINE void nnRowsOf(const float* a, int64_t lda, int64_t rows, int64_t K,
                                 const float* b, int64_t ldb, int64_t width, float* c,
                                 int64_t ldc) {
  for (int64_t r = 0; r < rows; r += kRows) {
    const float* ar = kTransA ? a + r : a + r * lda;
    int64_t col = 0;
    for (; col + 64 <= width; col += 64)
      nnTile<4, kTransA>(ar, lda, K, b + col, ldb, c + r * ldc + col, ldc);
    for (; col < width; col += 16)
      nnTile<1, kTransA>(ar, lda, K, b + col, ldb, c + r * ldc + col, ldc);
  }
}
TESSEL_ISA_CLONES void nnRows(const float* a, int64_t lda, int64_t rows, int64_t K, const float* b,
                              int64_t ldb, int64_t width, float* c, int64_t ldc) {
  nnRowsOf<false>(a, lda, rows, K, b, ldb, width, c, ldc);
}
// The same with a stored transposed: c += a^T @ b, a [K][rows].
TESSEL_ISA_CLONES void nnRowsT(const float* a, int64_t lda, int64_t rows, int64_t K,
                               const float* b, int64_t ldb, int64_t width, float* c, int64_t ldc) {
  nnRowsOf<true>(a, lda, rows, K, b, ldb, width, c, ldc);
}

template <int G>
TESSEL_ATTN_INLINE void ntRowsOf(const float* a, int64_t lda, int64_t rows, const float* bt,
                                 int64_t ldb, int64_t K, float* c) {
  for (int64_t r = 0; r < rows; r += kRows)
    ntTile<G>(a + r * lda, lda, bt, ldb, K, c + r * kBlock);
}
// c[rows][width] = a[rows][K] @ bt[K][width] (row stride kBlock); rows a multiple of 4, width
// one of 16, 32, 48, 64.
TESSEL_ISA_CLONES void ntRows(const float* a, int64_t lda, int64_t rows, const float* bt,
                              int64_t ldb, int64_t K, int64_t width, float* c) {
  switch (width / 16) {
    case 1: return ntRowsOf<1>(a, lda, rows, bt, ldb, K, c);
    case 2: return ntRowsOf<2>(a, lda, rows, bt, ldb, K, c);
    case 3: return ntRowsOf<3>(a, lda, rows, bt, ldb, K, c);
    default: return ntRowsOf<4>(a, lda, rows, bt, ldb, K, c);
  }
}

// Sets masked scores of a tile `width` keys wide to -inf (and adds an additive mask): keys past
// S (cols is the number before it), the mask, causal keys after the query. Tiles with none of
// these are skipped by the caller.
void maskTile(float* tile, int64_t rows, int64_t t0, int64_t s0, int64_t cols, int64_t width,
              const MaskView& m, bool causal) {
  for (int64_t r = 0; r < rows; ++r) {
    float* row = tile + r * kBlock;
    const int64_t t = t0 + r;
    if (m.data != nullptr) {
      if (m.isBool) {
        const auto* mk = static_cast<const uint8_t*>(m.data) + t * m.strideT + s0 * m.strideS;
        for (int64_t c = 0; c < cols; ++c)
          if (!mk[c * m.strideS]) row[c] = -kInf;
      } else {
        const float* mk = static_cast<const float*>(m.data) + t * m.strideT + s0 * m.strideS;
        for (int64_t c = 0; c < cols; ++c) row[c] += mk[c * m.strideS];
      }
    }
    // Causal: key s0 + c takes part while s0 + c <= t.
    const int64_t visible = causal ? std::clamp<int64_t>(t - s0 + 1, 0, cols) : cols;
    for (int64_t c = visible; c < width; ++c) row[c] = -kInf;
  }
}

typedef int32_t I16 __attribute__((vector_size(64)));

// The largest of a row of 16 G scores (a pairwise tree for the full width).
template <int G>
TESSEL_ATTN_INLINE float rowMax(const float* row) {
  V16 a = load(row);
  if constexpr (G == 4) {
    V16 b = load(row + 16), c = load(row + 32), d = load(row + 48);
    a = a > b ? a : b;
    c = c > d ? c : d;
    return laneMax(a > c ? a : c);
  }
#pragma GCC unroll 4
  for (int w = 1; w < G; ++w) {
    const V16 b = load(row + 16 * w);
    a = a > b ? a : b;
  }
  return laneMax(a);
}
// The sum of a row's 16 lane sums.
float laneSum(const float* lanes) {
  float total = 0;
  for (int i = 0; i < 16; ++i) total += lanes[i];
  return total;
}

// e^x of 16 lanes for x <= 0, -inf or NaN: the softmax's exp(score - max). vexp's polynomial
// (vec_math.h), with what that domain allows left out: no upper clamp, and 2^n read straight
// from the bits of the rounding sum (n in [-127, 0] after clamping x at -88; n = -127 gives
// the bits of 0.0). Below -88 the result is 0 where e^x is a denormal under 6e-39, nothing
// next to the row's largest term, 1. -inf gives 0. NaN needs no test: the clamp lets it
// through (a comparison with NaN is false), the polynomial keeps it, and NaN times the
// scale, whatever its bits, is NaN (the bits are reinterpreted, not converted: no UB).
TESSEL_ATTN_INLINE V16 expNonPositive(V16 x) {
  const V16 lo = splat(-88.0f);
  const V16 xc = x < lo ? lo : x;
  const float kRound = 12582912.0f;  // 1.5 * 2^23: t's low mantissa bits hold n
  const V16 t = xc * 1.44269504088896341f + kRound;
  const V16 n = t - kRound;
  V16 r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  V16 p = splat(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const V16 y = p * r * r + r + 1.0f;
  // (bits(t) + 127) << 23: kRound's own bits shift out past bit 31, leaving (n + 127) << 23.
  const V16 scale = (V16)(((I16)t + 127) << 23);  // vector casts reinterpret the bits
  return y * scale;
}

// The backward's P = exp(score - lse) of a tile's `rows` x `width` (score <= lse; padding
// rows have lse +inf), and dS = P * (dP - delta) in place of P.
TESSEL_ISA_CLONES void probabilities(float* tile, const float* lse, int64_t rows, int64_t width) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < width; c += 16)
      store(tile + r * kBlock + c, expNonPositive(load(tile + r * kBlock + c) - lse[r]));
}
TESSEL_ISA_CLONES void scoreGradients(float* p, const float* dp, const float* delta, int64_t rows,
                                      int64_t width) {
  for (int64_t r = 0; r < rows; ++r) {
    const V16 d = splat(delta[r]);
    for (int64_t c = 0; c < width; c += 16) {
      float* pr = p + r * kBlock + c;
      store(pr, load(pr) * (load(dp + r * kBlock + c) - d));
    }
  }
}

// The online softmax step of one tile of scores (Note [Fused attention]): for each of `rows`
// rows, the new max, P = exp(score - max) in place, the running sum, and the output rows
// rescaled when the max grew (o may be null: logsumexp only). The running sums stay 16 lane
// sums per row (l [rows][16]), added up once at the end. One cloned function, so that the
// row loops use the widest vectors too. The maxes and rescale factors of all rows come first,
// 16 rows to a vector, so that no row waits on a scalar exp. The tile is 16 G keys wide.
template <int G>
TESSEL_ATTN_INLINE void softmaxStepOf(float* tile, int64_t rows, float* m, float* l, float* o,
                                      int64_t ldo) {
  alignas(64) float ref[kBlock], alpha[kBlock];
  for (int64_t r = 0; r < rows; ++r) {
    const float mNew = std::max(m[r], rowMax<G>(tile + r * kBlock));
    alpha[r] = m[r];
    ref[r] = mNew == -kInf ? 0.0f : mNew;
    m[r] = mNew;
  }
  for (int64_t r = rows; r < roundUp(rows, 16); ++r) alpha[r] = ref[r] = 0.0f;
  for (int64_t r = 0; r < rows; r += 16)
    store(alpha + r, expNonPositive(load(alpha + r) - load(ref + r)));
  for (int64_t r = 0; r < rows; ++r) {
    float* row = tile + r * kBlock;
    const V16 sub = splat(ref[r]);
    V16 p[G];
#pragma GCC unroll 4
    for (int w = 0; w < G; ++w) {
      p[w] = expNonPositive(load(row + 16 * w) - sub);
      store(row + 16 * w, p[w]);
    }
    // The full width's pairwise order; a narrower tile's sum is the same bits as the full
    // one's would be, its padding adding exact zeros.
    V16 sum;
    if constexpr (G == 4) sum = (p[0] + p[1]) + (p[2] + p[3]);
    else if constexpr (G == 3) sum = (p[0] + p[1]) + p[2];
    else if constexpr (G == 2) sum = p[0] + p[1];
    else sum = p[0];
    const float a = alpha[r];
    store(l + r * 16, load(l + r * 16) * a + sum);
    if (o && a != 1.0f)
      for (int64_t e = 0; e < ldo; e += 16) store(o + r * ldo + e, load(o + r * ldo + e) * a);
  }
}
TESSEL_ISA_CLONES void softmaxStep(float* tile, int64_t rows, int64_t width, float* m, float* l,
                                   float* o, int64_t ldo) {
  switch (width / 16) {
    case 1: return softmaxStepOf<1>(tile, rows, m, l, o, ldo);
    case 2: return softmaxStepOf<2>(tile, rows, m, l, o, ldo);
    case 3: return softmaxStepOf<3>(tile, rows, m, l, o, ldo);
    default: return softmaxStepOf<4>(tile, rows, m, l, o, ldo);
  }
}

// Copies `rows` rows of x [*, n] (row stride ldx) into dst [padRows][ld] times `mul`, zero
// padded.
TESSEL_ISA_CLONES void copyPadded(const float* x, int64_t n, int64_t ldx, int64_t rows,
                                  int64_t padRows, float mul, float* dst, int64_t ld) {
  for (int64_t r = 0; r < padRows; ++r) {
    float* d = dst + r * ld;
    if (r < rows)
      for (int64_t i = 0; i < n; ++i) d[i] = x[r * ldx + i] * mul;
    else
      std::fill(d, d + n, 0.0f);
    std::fill(d + n, d + ld, 0.0f);
  }
}

// One stage of a 16 x 16 transpose in registers: rows i and i + S (bit S of i clear) swap
// their off-diagonal S x S blocks, which swaps bit S of each element's row and column where
// they differ. After the stages 8, 4, 2, 1 element (i, c) is at (c, i).
template <int S>
TESSEL_ATTN_INLINE void transposeStage(V16* r) {
#pragma GCC unroll 16
  for (int k = 0; k < 8; ++k) {
    const int i = k / S * 2 * S + k % S;  // the k-th row with bit S clear
    const V16 a = r[i], b = r[i + S];
    if constexpr (S == 8) {
      r[i] = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
      r[i + S] =
          __builtin_shufflevector(a, b, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
    } else if constexpr (S == 4) {
      r[i] = __builtin_shufflevector(a, b, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
      r[i + S] =
          __builtin_shufflevector(a, b, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
    } else if constexpr (S == 2) {
      r[i] = __builtin_shufflevector(a, b, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29);
      r[i + S] =
          __builtin_shufflevector(a, b, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
    } else {
      r[i] = __builtin_shufflevector(a, b, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
      r[i + S] =
          __builtin_shufflevector(a, b, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31);
    }
  }
}

// dst [n][ld] = x [rows][n] (row stride ldx) transposed, columns past rows zero. Whole 16 x 16 blocks go
// through registers (a column walk read one float of each row from L2 and was most of the
// forward's own time); the rest element by element.
TESSEL_ISA_CLONES void transposePadded(const float* x, int64_t rows, int64_t n, int64_t ldx,
                                       float* dst, int64_t ld) {
  const int64_t rows16 = rows / 16 * 16, n16 = n / 16 * 16;
  for (int64_t r0 = 0; r0 < rows16; r0 += 16) {
    for (int64_t i0 = 0; i0 < n16; i0 += 16) {
      V16 r[16];
#pragma GCC unroll 16
      for (int i = 0; i < 16; ++i) r[i] = load(x + (r0 + i) * ldx + i0);
      transposeStage<8>(r);
      transposeStage<4>(r);
      transposeStage<2>(r);
      transposeStage<1>(r);
#pragma GCC unroll 16
      for (int i = 0; i < 16; ++i) store(dst + (i0 + i) * ld + r0, r[i]);
    }
    for (int64_t i = n16; i < n; ++i)
      for (int64_t r = r0; r < r0 + 16; ++r) dst[i * ld + r] = x[r * ldx + i];
  }
  for (int64_t i = 0; i < n; ++i) {
    float* d = dst + i * ld;
    for (int64_t r = rows16; r < rows; ++r) d[r] = x[r * ldx + i];
    std::fill(d + rows, d + ld, 0.0f);
  }
}

// The end of a query tile: out = o / l and lse = m + log(l) for each of its rows (either
// output may be null).
TESSEL_ISA_CLONES void finishRows(int64_t rows, const float* m, const float* l, const float* o,
                                  int64_t ldo, int64_t Dv, float* out, float* lse) {
  for (int64_t r = 0; r < rows; ++r) {
    const float sum = laneSum(l + r * 16);
    if (out) {
      const float inv = 1.0f / sum;  // sum == 0 (every key masked): 0 * inf = NaN
      for (int64_t e = 0; e < Dv; ++e) out[r * Dv + e] = o[r * ldo + e] * inv;
    }
    if (lse) lse[r] = m[r] + std::log(sum);
  }
}

// Whether a tile of keys [s0, s0 + width) for the queries from t0 on has any masked score.
bool tileNeedsMask(const Problem& p, const MaskView& m, int64_t t0, int64_t s0, int64_t width) {
  return m.data != nullptr || s0 + width > p.S || (p.causal && s0 + width - 1 > t0);
}

// The keys of the tile starting at kb when the keys that matter end at sEnd (Note [Key tile
// width]).
int64_t tileWidth(int64_t kb, int64_t sEnd) {
  return std::min(kBlock, roundUp(sEnd - kb, 16));
}

}  // namespace

void forward(const Problem& p, const float* q, const float* k, const float* v, MaskView mask,
             float* out, float* lse, int64_t t0, int64_t t1, Scratch& sc) {
  const int64_t S = p.S, D = p.D, Dv = p.Dv;
  if (S == 0) {
    // softmax over no keys: the empty sum. PyTorch's q @ k^T is [T, 0] and @ v gives zeros.
    if (out) std::fill(out + t0 * Dv, out + t1 * Dv, 0.0f);
    if (lse) std::fill(lse + t0, lse + t1, -kInf);
    return;
  }
  const int64_t Sp = roundUp(S, 16), Dvp = roundUp(Dv, 16);
  float* kt = sized(sc.kt, D * Sp);
  transposePadded(k, S, D, p.ldk, kt, Sp);
  // v as the P V tiles read it: key tiles of 16-float rows (v itself, with its row stride,
  // when it is so).
  const float* vp = v;
  int64_t ldvp = p.ldv;
  if (out && (Sp != S || Dvp != Dv)) {
    float* padded = sized(sc.vp, Sp * Dvp);
    copyPadded(v, Dv, p.ldv, S, Sp, 1.0f, padded, Dvp);
    vp = padded;
    ldvp = Dvp;
  }
  float* qs = sized(sc.qs, kBlock * D);
  float* tile = sized(sc.tile, kBlock * kBlock);
  float* o = sized(sc.o, kBlock * Dvp);
  float* m = sized(sc.m, kBlock);
  float* l = sized(sc.l, kBlock * 16);
  for (int64_t qb = t0; qb < t1; qb += kBlock) {
    const int64_t rows = std::min(kBlock, t1 - qb), rowsP = roundUp(rows, kRows);
    copyPadded(q + qb * p.ldq, D, p.ldq, rows, rowsP, p.scale, qs, D);
    if (out) std::fill(o, o + rowsP * Dvp, 0.0f);
    std::fill(m, m + rows, -kInf);
    std::fill(l, l + rows * 16, 0.0f);
    // Causal: no query of this tile sees a key past its last query.
    const int64_t sEnd = p.causal ? std::min(S, qb + rows) : S;
    for (int64_t kb = 0; kb < sEnd; kb += kBlock) {
      const int64_t width = tileWidth(kb, sEnd);
      ntRows(qs, D, rowsP, kt + kb, Sp, D, width, tile);
      if (tileNeedsMask(p, mask, qb, kb, width))
        maskTile(tile, rows, qb, kb, std::min(width, S - kb), width, mask, p.causal);
      softmaxStep(tile, rows, width, m, l, out ? o : nullptr, Dvp);
      if (out) {
        std::fill(tile + rows * kBlock, tile + rowsP * kBlock, 0.0f);
        nnRows(tile, kBlock, rowsP, width, vp + kb * ldvp, ldvp, Dvp, o, Dvp);
      }
    }
    finishRows(rows, m, l, o, Dvp, Dv, out ? out + qb * Dv : nullptr, lse ? lse + qb : nullptr);
  }
}

void backward(const Problem& p, const float* q, const float* k, const float* v, const float* out,
              const float* dout, const float* lse, MaskView mask, float* dq, float* dk, float* dv,
              Scratch& sc) {
  const int64_t T = p.T, S = p.S, D = p.D, Dv = p.Dv;
  std::fill(dq, dq + T * D, 0.0f);
  std::fill(dk, dk + S * D, 0.0f);
  std::fill(dv, dv + S * Dv, 0.0f);
  if (T == 0 || S == 0) return;
  const int64_t Sp = roundUp(S, 16), Tp = roundUp(T, kBlock);
  const int64_t Dp = roundUp(D, 16), Dvp = roundUp(Dv, 16);
  float* kt = sized(sc.kt, D * Sp);
  transposePadded(k, S, D, p.ldk, kt, Sp);
  float* vt = sized(sc.vt, Dv * Sp);
  transposePadded(v, S, Dv, p.ldv, vt, Sp);
  float* kp = sized(sc.vp, Sp * Dp);
  copyPadded(k, D, p.ldk, S, Sp, 1.0f, kp, Dp);
  float* qs = sized(sc.qs, Tp * Dp);
  copyPadded(q, D, p.ldq, T, Tp, p.scale, qs, Dp);
  float* dop = sized(sc.dop, Tp * Dvp);
  copyPadded(dout, Dv, p.lddo, T, Tp, 1.0f, dop, Dvp);
  // Padding rows get lse = +inf, so their P is exp(-inf) = 0 and they add nothing.
  float* lp = sized(sc.lse, Tp);
  float* delta = sized(sc.delta, Tp);
  for (int64_t t = 0; t < Tp; ++t) {
    lp[t] = t < T ? lse[t] : kInf;
    float s = 0;
    if (t < T)
      for (int64_t e = 0; e < Dv; ++e) s += dout[t * p.lddo + e] * out[t * Dv + e];
    delta[t] = s;
  }
  float* dqa = sized(sc.dq, Tp * Dp);
  std::fill(dqa, dqa + Tp * Dp, 0.0f);
  float* dka = sized(sc.dk, kBlock * Dp);
  float* dva = sized(sc.dv, kBlock * Dvp);
  float* tile = sized(sc.tile, kBlock * kBlock);
  float* tile2 = sized(sc.tile2, kBlock * kBlock);
  for (int64_t kb = 0; kb < S; kb += kBlock) {
    const int64_t cols = std::min(kBlock, S - kb), width = tileWidth(kb, S);
    std::fill(dka, dka + width * Dp, 0.0f);
    std::fill(dva, dva + width * Dvp, 0.0f);
    // Causal: queries before kb see none of these keys.
    const int64_t qStart = p.causal ? kb / kBlock * kBlock : 0;
    for (int64_t qb = qStart; qb < T; qb += kBlock) {
      // Query rows past T up to a multiple of 4 are zero with lse +inf: P = 0 there.
      const int64_t rows = std::min(kBlock, T - qb), rowsP = roundUp(rows, kRows);
      ntRows(qs + qb * Dp, Dp, rowsP, kt + kb, Sp, D, width, tile);
      if (tileNeedsMask(p, mask, qb, kb, width))
        maskTile(tile, rows, qb, kb, cols, width, mask, p.causal);
      probabilities(tile, lp + qb, rowsP, width);
      // dV += P^T dO
      nnRowsT(tile, kBlock, width, rowsP, dop + qb * Dvp, Dvp, Dvp, dva, Dvp);
      // dP = dO V^T, then dS = P * (dP - delta) in place of P
      ntRows(dop + qb * Dvp, Dvp, rowsP, vt + kb, Sp, Dv, width, tile2);
      scoreGradients(tile, tile2, delta + qb, rowsP, width);
      // dQ += dS k (scaled at the end); dK += dS^T (q * scale)
      nnRows(tile, kBlock, rowsP, width, kp + kb * Dp, Dp, Dp, dqa + qb * Dp, Dp);
      nnRowsT(tile, kBlock, width, rowsP, qs + qb * Dp, Dp, Dp, dka, Dp);
    }
    for (int64_t c = 0; c < cols; ++c) {
      std::copy(dka + c * Dp, dka + c * Dp + D, dk + (kb + c) * D);
      std::copy(dva + c * Dvp, dva + c * Dvp + Dv, dv + (kb + c) * Dv);
    }
  }
  for (int64_t t = 0; t < T; ++t)
    for (int64_t d = 0; d < D; ++d) dq[t * D + d] = dqa[t * Dp + d] * p.scale;
}

}  // namespace tessel::backends::cpu::attn
