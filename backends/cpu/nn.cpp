// Neural-network ops: softmax, log_softmax, layer_norm, linear, mse_loss, cross_entropy,
// dropout. Softmax-like ops subtract the row maximum first so exp never overflows.
#include <cmath>
#include <cstring>
#include <vector>

#include "backends/cpu/gemm.h"
#include "backends/cpu/kernels.h"
#include "backends/cpu/map.h"
#include "backends/cpu/norm_rows.h"
#include "backends/cpu/vec_math.h"
#include "backends/cpu/vec_rows.h"
#include "shapes/pool_geometry.h"
#include "backends/rng.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

float rowMax(const float* x, int64_t n) {
  float m = -INFINITY;
  for (int64_t i = 0; i < n; ++i) m = (x[i] > m || x[i] != x[i]) ? x[i] : m;
  return m;
}

// log(sum(exp(x - max))) + max, stable for any magnitudes; `tmp` holds n floats.
float logSumExp(const float* x, int64_t n, float* tmp) {
  const float m = rowMax(x, n);
  if (std::isinf(m)) return m;  // all -inf (-inf) or some +inf (+inf)
  expShiftedRow(tmp, x, m, n);
  return m + static_cast<float>(std::log(sumFloats(tmp, n)));
}

// Applies row(in, out, n) to every slice along `dim`, with that dim made innermost.
template <class Row>
Tensor alongDim(const Tensor& x, int64_t dim, Row row) {
  const int64_t rank = x.ndim();
  Tensor moved = rank == 0 ? x.reshape(Dims{1}) : x.transpose(dim, rank - 1).contiguous();
  Tensor out = Tensor::empty(moved.shape(), DType::F32);
  const int64_t n = moved.numel() == 0 ? 0 : moved.size(moved.ndim() - 1);
  const int64_t rows = n == 0 ? 0 : moved.numel() / n;
  for (int64_t r = 0; r < rows; ++r) row(moved.data<float>() + r * n, out.data<float>() + r * n, n);
  if (rank == 0) return out.reshape(Dims{});
  return out.transpose(dim, rank - 1).contiguous();
}

Tensor softmax(const Tensor& x, int64_t dim, bool log) {
  return alongDim(x, dim, [log](const float* in, float* out, int64_t n) {
    if (log) {
      // (x - max) - log(sum): subtracting the max first keeps the result exact for large
      // logits, where x - logsumexp(x) would lose the digits below 1000's float spacing.
      const float m = rowMax(in, n);
      if (std::isinf(m)) {
        for (int64_t i = 0; i < n; ++i) out[i] = in[i] - m;
        return;
      }
      expShiftedRow(out, in, m, n);
      const float logSum = static_cast<float>(std::log(sumFloats(out, n)));
      for (int64_t i = 0; i < n; ++i) out[i] = (in[i] - m) - logSum;
      return;
    }
    const float m = rowMax(in, n);
    expShiftedRow(out, in, m, n);
    const float inv = static_cast<float>(1.0 / sumFloats(out, n));
    for (int64_t i = 0; i < n; ++i) out[i] *= inv;
  });
}

Tensor layerNorm(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  Tensor x = castTo(in[0], DType::F32).contiguous();
  const int64_t n = numelOf(concreteShape(attrs.shape));
  Tensor w = in.size() > 1 ? castTo(in[1], DType::F32).contiguous() : Tensor();
  Tensor b = in.size() > 2 ? castTo(in[2], DType::F32).contiguous() : Tensor();
  Tensor out = emptyLike(sig);
  const int64_t rows = n == 0 ? 0 : x.numel() / n;
  // Two passes per row (mean, then squared deviations) avoid the cancellation of
  // E[x^2] - E[x]^2 (Note [Layer norm rows]).
  layerNormRows(x.data<float>(), w.defined() ? w.data<float>() : nullptr,
                b.defined() ? b.data<float>() : nullptr, out.data<float>(), rows, n,
                static_cast<float>(attrs.eps));
  return out;
}

// [grad, x, (weight)] -> dx, then with a weight dweight and dbias, in one flat tensor.
Tensor layerNormBackward(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  Tensor g = castTo(in[0], DType::F32).contiguous();
  Tensor x = castTo(in[1], DType::F32).contiguous();
  Tensor w = in.size() > 2 ? castTo(in[2], DType::F32).contiguous() : Tensor();
  const int64_t n = numelOf(concreteShape(attrs.shape));
  const int64_t rows = n == 0 ? 0 : x.numel() / n;
  Tensor out = emptyLike(sig);
  float* o = out.data<float>();
  std::vector<double> dw(w.defined() ? size_t(n) : 0), db(dw.size());
  layerNormBackwardRows(g.data<float>(), x.data<float>(), w.defined() ? w.data<float>() : nullptr,
                        o, dw.data(), db.data(), rows, n, static_cast<float>(attrs.eps));
  float* tail = o + x.numel();
  for (size_t i = 0; i < dw.size(); ++i) {
    tail[i] = static_cast<float>(dw[i]);
    tail[dw.size() + i] = static_cast<float>(db[i]);
  }
  return out;
}

// linear(x[..., in], w[out, in], b[out]) = x @ w^T + b: one gemm over all leading dims, with
// the bias copied into the output first and accumulated onto.
Tensor linear(std::span<const Tensor> in, const OpSignature& sig) {
  Tensor x = castTo(in[0], DType::F32);
  Tensor w = castTo(in[1], DType::F32);
  const int64_t K = x.size(x.ndim() - 1), N = w.size(0);
  Tensor x2 = x.reshape(Dims{x.numel() / std::max<int64_t>(K, 1), K});
  if (K == 0) x2 = x.reshape(Dims{numelOf(Dims(x.shape().begin(), x.shape().end() - 1)), 0});
  Tensor out = emptyLike(sig);
  const int64_t M = x2.size(0);
  float* o = out.data<float>();
  bool bias = in.size() > 2;
  if (bias) {
    Tensor b = castTo(in[2], DType::F32).contiguous();
    for (int64_t m = 0; m < M; ++m) std::memcpy(o + m * N, b.data<float>(), sizeof(float) * N);
  }
  gemmInto(x2, w.transpose(0, 1), o, bias);
  return out;
}

Tensor mseLoss(const Tensor& a0, const Tensor& b0, const OpSignature& sig) {
  Tensor a = castTo(a0, DType::F32), b = castTo(b0, DType::F32);
  Dims shape = concreteShape(
      shapes::broadcastShapes(shapes::SymShape(a.shape().begin(), a.shape().end()),
                              shapes::SymShape(b.shape().begin(), b.shape().end()), "mse_loss"));
  Tensor sq = Tensor::empty(shape, DType::F32);
  mapBinary<float, float>(a, b, sq, [](float x, float y) { return (x - y) * (x - y); });
  Tensor out = emptyLike(sig);
  *out.data<float>() =
      static_cast<float>(sumFloats(sq.data<float>(), sq.numel()) / double(sq.numel()));
  return out;
}

// Mean over rows of logsumexp(logits[i]) - logits[i, label[i]], leaving out the rows whose label
// is the ignore index (attrs.scalars[0] when given; nan when every row is left out).
Tensor crossEntropy(const Tensor& logits0, const Tensor& labels0, const OpAttrs& attrs,
                    const OpSignature& sig) {
  const bool ignores = !attrs.scalars.empty();
  const int64_t ignore = ignores ? static_cast<int64_t>(attrs.scalars[0]) : 0;
  Tensor logits = castTo(logits0, DType::F32).contiguous();
  if (logits.ndim() == 1) logits = logits.unsqueeze(0);
  const int64_t N = logits.size(0), C = logits.size(1);
  std::vector<int64_t> labels = labels0.toInts();
  std::vector<float> tmp(C);
  double total = 0;
  int64_t counted = 0;
  for (int64_t i = 0; i < N; ++i) {
    const int64_t y = labels[i];
    if (ignores && y == ignore) continue;
    ++counted;
    if (y < 0 || y >= C)
      throwUserError(ErrorKind::IndexError, "cross_entropy: label " + std::to_string(y) +
                                                " is out of range for " + std::to_string(C) +
                                                " classes");
    const float* row = logits.data<float>() + i * C;
    total += double(logSumExp(row, C, tmp.data())) - double(row[y]);
  }
  Tensor out = emptyLike(sig);
  *out.data<float>() = static_cast<float>(total / double(counted));
  return out;
}

// Inverted dropout: each element is zeroed with probability p (drawn from the Philox stream,
// element i from word i) and the survivors are scaled by 1 / (1 - p).
Tensor dropout(const Tensor& x0, double p, const OpSignature& sig) {
  if (p < 0 || p > 1)
    throwUserError(ErrorKind::ValueError,
                   "dropout: probability must be in [0, 1], got " + std::to_string(p));
  Tensor x = castTo(x0, DType::F32).contiguous();
  Tensor out = emptyLike(sig);
  const int64_t n = x.numel();
  PhiloxStream s = reserveRandom(uint64_t(n));
  const float scale = p < 1 ? static_cast<float>(1.0 / (1.0 - p)) : 0.0f;
  const float threshold = static_cast<float>(p);
  const float* in = x.data<float>();
  float* o = out.data<float>();
  for (int64_t blk = 0; blk * 4 < n; ++blk) {
    std::array<uint32_t, 4> w = s.block(blk);
    for (int64_t j = 0; j < 4 && blk * 4 + j < n; ++j) {
      const int64_t i = blk * 4 + j;
      o[i] = uniformFromBits(w[j]) < threshold ? 0.0f : in[i] * scale;
    }
  }
  return out;
}

}  // namespace

Tensor runNN(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  switch (op) {
    case OpKind::Matmul:
      return matmul(in[0], in[1], sig);
    case OpKind::Softmax:
    case OpKind::LogSoftmax: {
      Tensor x = castTo(in[0], DType::F32);
      return softmax(x, x.ndim() == 0 ? 0 : wrapDim(attrs.dim, x.ndim()), op == OpKind::LogSoftmax);
    }
    case OpKind::LayerNorm:
      return layerNorm(in, attrs, sig);
    case OpKind::LayerNormBackward:
      return layerNormBackward(in, attrs, sig);
    case OpKind::Linear:
      return linear(in, sig);
    case OpKind::MseLoss:
      return mseLoss(in[0], in[1], sig);
    case OpKind::CrossEntropy:
      return crossEntropy(in[0], in[1], attrs, sig);
    case OpKind::Dropout:
      return dropout(in[0], attrs.p, sig);
    case OpKind::Multinomial:
    case OpKind::Bernoulli:
      return runSampling(op, in, attrs, sig);
    case OpKind::Conv2d:
    case OpKind::Conv2dBackwardInput:
    case OpKind::Conv2dBackwardWeight:
      return runConv(op, in, attrs, sig);
    case OpKind::Attention:
    case OpKind::AttentionLse:
    case OpKind::AttentionBackward:
      return runAttention(op, in, attrs, sig);
    default:
      if (shapes::isPoolOp(op)) return runPool(op, in, attrs, sig);
      TESSEL_ASSERT(false, "not an nn op");
  }
  return {};
}

}  // namespace tessel::backends::cpu
