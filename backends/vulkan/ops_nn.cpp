// Neural-network ops: softmax, log_softmax, layer_norm and cross_entropy on rows.comp; linear
// as matmul plus a bias add; mse_loss as a squared difference and a mean; dropout on the
// Philox stream in create.comp.
#include "backends/rng.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/shaders/ew_ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/pool_geometry.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct RowsPush {
  uint32_t rows, n, alone, xOff;
  uint32_t wOff, bOff, flags;
  float eps;
};
constexpr uint32_t kSoftmax = 0, kLogSoftmax = 1, kLayerNorm = 2, kCrossEntropy = 3;
constexpr int64_t kAloneMinRows = 64;

void launchRows(uint32_t op, const Tensor& out, const Tensor& x, int64_t rows, int64_t n,
                const Tensor* w, const Tensor* b, const BufferArg* flag, float eps,
                std::optional<int32_t> ignoreIndex = std::nullopt) {
  if (rows == 0) return;
  RowsPush pc{};
  pc.rows = u32(rows, "rows");
  pc.n = u32(n, "row length");
  u32(rows * n, "element count");
  // Note [Rows alone] in rows.comp: an invocation per row when a CPU device has rows enough
  // to fill its SIMD lanes.
  const bool alone = !rowsInWorkgroups() && rows >= kAloneMinRows;
  pc.alone = alone;
  pc.xOff = u32(x.offset(), "element offset");
  pc.eps = eps;
  BufferArg bufs[4] = {bufferOf(out), bufferOf(x), {}, {}};
  bufs[2] = bufs[3] = bufs[1];
  if (w) bufs[2] = bufferOf(*w), pc.wOff = u32(w->offset(), "element offset"), pc.flags |= 1;
  if (b) bufs[3] = bufferOf(*b), pc.bOff = u32(b->offset(), "element offset"), pc.flags |= 2;
  if (flag) bufs[3] = *flag;
  if (ignoreIndex) pc.bOff = static_cast<uint32_t>(*ignoreIndex), pc.flags |= 4;
  launch("rows", bufs, pc, alone ? groupsFor(uint64_t(rows)) : uint64_t(rows), op);
}

Tensor softmax(const Tensor& x0, int64_t dim, bool log) {
  Tensor x = castDevice(x0, DType::F32);
  const int64_t rank = x.ndim();
  Tensor moved = rank == 0 ? reshapeDevice(x, Dims{1})
                           : contiguousDevice(x.transpose(dim, rank - 1));
  Tensor out = emptyDevice(moved.shape(), DType::F32);
  const int64_t n = moved.numel() == 0 ? 0 : moved.size(moved.ndim() - 1);
  const int64_t rows = n == 0 ? 0 : moved.numel() / n;
  launchRows(log ? kLogSoftmax : kSoftmax, out, moved, rows, n, nullptr, nullptr, nullptr, 0);
  if (rank == 0) return reshapeDevice(out, Dims{});
  return contiguousDevice(out.transpose(dim, rank - 1));
}

Tensor layerNorm(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  Tensor x = contiguousDevice(castDevice(in[0], DType::F32));
  const int64_t n = numelOf(concreteShape(attrs.shape));
  Tensor w = in.size() > 1 ? contiguousDevice(castDevice(in[1], DType::F32)) : Tensor();
  Tensor b = in.size() > 2 ? contiguousDevice(castDevice(in[2], DType::F32)) : Tensor();
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  const int64_t rows = n == 0 ? 0 : x.numel() / n;
  launchRows(kLayerNorm, out, x, rows, n, w.defined() ? &w : nullptr, b.defined() ? &b : nullptr,
             nullptr, float(attrs.eps));
  return out;
}

// layer_norm_backward by its formula on the device's own elementwise and reduction kernels
// (the cpu's one pass per row, Note [Layer norm rows], has no shader yet): the same dx, dw and
// db as the composite gradient it replaces, written into the flat output.
Tensor layerNormBackward(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  const int64_t n = numelOf(concreteShape(attrs.shape));
  Tensor g = contiguousDevice(castDevice(in[0], DType::F32));
  Tensor x = contiguousDevice(castDevice(in[1], DType::F32));
  const int64_t total = x.numel(), rows = n == 0 ? 0 : total / n;
  Tensor out = emptyDevice(concreteShape(sig.shape), DType::F32);
  auto bin = [](OpKind op, const Tensor& a, const Tensor& b) {
    const shapes::SymShape s = shapes::broadcastShapes(
        shapes::SymShape(a.shape().begin(), a.shape().end()),
        shapes::SymShape(b.shape().begin(), b.shape().end()), shapes::opName(op));
    return runBinary(op, a, b, OpSignature{s, DType::F32});
  };
  auto put = [&](int64_t start, const Tensor& v) {  // v's elements at out[start...]
    if (v.numel() == 0) return;
    const Tensor src[] = {v};
    elementwise(EW_COPY, DType::F32, out.slice(0, start, start + v.numel(), 1).reshape(v.shape()),
                src);
  };
  const Dims rowsN{rows, n};
  Tensor dxhat;
  if (rows > 0) {
    Tensor x2 = reshapeDevice(x, rowsN), g2 = reshapeDevice(g, rowsN);
    auto rowMean = [&](const Tensor& t) {
      return reduceARB(OpKind::Mean, t, rows, n, 1, DType::F32, Dims{rows, 1}, DType::F32);
    };
    OpAttrs epsAttrs;
    epsAttrs.scalars = {attrs.eps};
    const Tensor eps = runCreate(OpKind::Full, epsAttrs, OpSignature{{}, DType::F32});
    Tensor xc = bin(OpKind::Sub, x2, rowMean(x2));
    Tensor var = rowMean(bin(OpKind::Mul, xc, xc));
    Tensor rstd = runUnary(OpKind::Rsqrt, bin(OpKind::Add, var, eps),
                           OpSignature{{rows, 1}, DType::F32});
    Tensor xhat = bin(OpKind::Mul, xc, rstd);
    dxhat = in.size() > 2 ? bin(OpKind::Mul, g2,
                                reshapeDevice(contiguousDevice(castDevice(in[2], DType::F32)),
                                              Dims{n}))
                          : g2;
    Tensor inner = bin(OpKind::Sub, bin(OpKind::Sub, dxhat, rowMean(dxhat)),
                       bin(OpKind::Mul, xhat, rowMean(bin(OpKind::Mul, dxhat, xhat))));
    put(0, bin(OpKind::Mul, rstd, inner));
    if (in.size() > 2) {
      auto colSum = [&](const Tensor& t) {
        return reduceARB(OpKind::Sum, t, 1, rows, n, DType::F32, Dims{n}, DType::F32);
      };
      put(total, colSum(bin(OpKind::Mul, g2, xhat)));
      put(total + n, colSum(g2));
    }
    return out;
  }
  if (in.size() > 2 && n > 0) {  // no rows: dweight and dbias are sums of nothing
    OpAttrs zero;
    zero.scalars = {0.0};
    put(total, runCreate(OpKind::Full, zero, OpSignature{{2 * n}, DType::F32}));
  }
  return out;
}

Tensor linear(std::span<const Tensor> in, const OpSignature& sig) {
  Tensor x = castDevice(in[0], DType::F32);
  Tensor w = castDevice(in[1], DType::F32);
  Tensor y = matmul(x, w.transpose(0, 1), OpSignature{sig.shape, DType::F32});
  if (in.size() < 3) return y;
  Tensor out = emptyDevice(y.shape(), DType::F32);
  const Tensor ops[] = {y, in[2]};
  elementwise(EW_ADD, DType::F32, out, ops);
  return out;
}

Tensor mseLoss(const Tensor& a, const Tensor& b, const OpSignature& sig) {
  Dims shape = concreteShape(shapes::broadcastShapes(
      shapes::SymShape(a.shape().begin(), a.shape().end()),
      shapes::SymShape(b.shape().begin(), b.shape().end()), "mse_loss"));
  Tensor sq = emptyDevice(shape, DType::F32);
  const Tensor ops[] = {a, b};
  elementwise(EW_SQDIFF, DType::F32, sq, ops);
  return reduceARB(OpKind::Mean, sq, 1, sq.numel(), 1, DType::F32, concreteShape(sig.shape),
                   DType::F32);
}

// Per-row losses on rows.comp, then their mean; with an ignore index (attrs.scalars[0]) those
// rows give 0 and the sum is divided by the count of the others, all on the device.
Tensor crossEntropy(const Tensor& logits0, const Tensor& labels0, const OpAttrs& attrs,
                    const OpSignature& sig) {
  std::optional<int32_t> ignore;
  if (!attrs.scalars.empty()) ignore = static_cast<int32_t>(attrs.scalars[0]);
  Tensor logits = contiguousDevice(castDevice(logits0, DType::F32));
  if (logits.ndim() == 1) logits = logits.unsqueeze(0);
  const int64_t N = logits.size(0), C = logits.size(1);
  Tensor labels = contiguousDevice(castDevice(labels0, DType::I32));
  Tensor losses = emptyDevice(Dims{N}, DType::F32);
  Scratch flag = errorFlag();
  launchRows(kCrossEntropy, losses, logits, N, C, &labels, nullptr, &flag.arg, 0, ignore);
  if (N > 0 && (readFlag(flag) & FLAG_BAD_INDEX)) {
    for (int64_t y : toCpu(labels).toInts())
      if ((y < 0 || y >= C) && !(ignore && y == *ignore))
        throwUserError(ErrorKind::IndexError, "cross_entropy: label " + std::to_string(y) +
                                                  " is out of range for " + std::to_string(C) +
                                                  " classes");
  }
  const Dims scalar = concreteShape(sig.shape);
  if (!ignore) return reduceARB(OpKind::Mean, losses, 1, N, 1, DType::F32, scalar, DType::F32);
  const Tensor ignoreT = toVulkan(Tensor::scalar(*ignore, DType::I32));
  Tensor kept =
      runBinary(OpKind::Ne, labels, ignoreT, OpSignature{{shapes::SymInt(N)}, DType::Bool});
  Tensor count =
      reduceARB(OpKind::Sum, castDevice(kept, DType::F32), 1, N, 1, DType::F32, scalar, DType::F32);
  Tensor total = reduceARB(OpKind::Sum, losses, 1, N, 1, DType::F32, scalar, DType::F32);
  return runBinary(OpKind::Div, total, count, sig);
}

struct DropoutPush {
  uint32_t n, mode, dtype, cols;
  uint32_t keyLo, keyHi, baseLo, baseHi;
  uint32_t valueBits;
  float p, scale;
  uint32_t xOff;
  int64_t start, step;
};

Tensor dropout(const Tensor& x0, double p, const OpSignature& sig) {
  if (p < 0 || p > 1)
    throwUserError(ErrorKind::ValueError,
                   "dropout: probability must be in [0, 1], got " + std::to_string(p));
  Tensor x = contiguousDevice(castDevice(x0, DType::F32));
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  const int64_t n = x.numel();
  PhiloxStream s = reserveRandom(uint64_t(n));
  if (n == 0) return out;
  DropoutPush pc{};
  pc.n = u32(n, "element count");
  pc.mode = 6;
  pc.dtype = dtypeCode(DType::F32);
  pc.keyLo = uint32_t(s.key), pc.keyHi = uint32_t(s.key >> 32);
  pc.baseLo = uint32_t(s.base), pc.baseHi = uint32_t(s.base >> 32);
  pc.p = float(p);
  pc.scale = p < 1 ? float(1.0 / (1.0 - p)) : 0.0f;
  pc.xOff = u32(x.offset(), "element offset");
  const BufferArg bufs[] = {bufferOf(out), bufferOf(x)};
  launch("create", bufs, pc, groupsFor((uint64_t(pc.n) + 3) / 4), pc.mode);  // one Philox block per invocation
  return out;
}

}  // namespace

Tensor runNN(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  switch (op) {
    case OpKind::Matmul:
      return matmul(in[0], in[1], sig);
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
      return softmax(in[0], in[0].ndim() == 0 ? 0 : wrapDim(attrs.dim, in[0].ndim()),
                     op == OpKind::LogSoftmax);
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

}  // namespace tessel::backends::vulkan
