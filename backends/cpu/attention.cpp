// The cpu backend's fused attention ops (scaled_dot_product_attention, attention_logsumexp,
// attention_backward): broadcast batch entries and threads around the kernels of
// attention_kernel.cpp.
#include <cmath>
#include <cstdlib>
#include <thread>

#include "backends/cpu/attention_kernel.h"
#include "backends/cpu/kernels.h"

namespace tessel::backends::cpu {

namespace {

// Threads for one op: OMP_NUM_THREADS when set (the knob oneDNN's sgemm and PyTorch read),
// else every core; never more than there are tasks.
int threadsFor(int64_t tasks) {
  static const int configured = [] {
    const char* env = std::getenv("OMP_NUM_THREADS");
    const int n = env ? std::atoi(env) : 0;
    return n > 0 ? n : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  }();
  return static_cast<int>(std::min<int64_t>(configured, std::max<int64_t>(tasks, 1)));
}

// Runs fn(task, scratch) for task in [0, tasks) on threadsFor(tasks) threads (the calling one
// included), each with its own scratch. Tasks are handed out round-robin: they are of similar
// size.
template <class F>
void parallelTasks(int64_t tasks, int64_t flopsPerTask, F&& fn) {
  // Below ~1 Mflop in all, starting a thread costs more than it saves.
  const int threads = tasks * flopsPerTask < (int64_t{1} << 20) ? 1 : threadsFor(tasks);
  auto worker = [&](int id) {
    // Kept per thread from call to call: a training step runs these ops a few times per layer,
    // and fresh buffers each time were page faults in the profile (glibc trims the heap).
    thread_local attn::Scratch sc;
    for (int64_t t = id; t < tasks; t += threads) fn(t, sc);
  };
  std::vector<std::thread> pool;
  for (int id = 1; id < threads; ++id) pool.emplace_back(worker, id);
  worker(0);
  for (auto& th : pool) th.join();
}

// Offset (in elements) of the [rows, cols] matrix of each broadcast batch entry in x, whose
// last `tail` dims are the matrix (0 where x broadcasts), from x's strides.
std::vector<int64_t> batchOffsets(const Tensor& x, const Dims& batch, int tail) {
  const int64_t nb = static_cast<int64_t>(batch.size());
  const int64_t xb = x.ndim() - tail;  // x's batch rank (<= nb)
  Dims stride(static_cast<size_t>(nb), 0);
  for (int64_t d = 0; d < xb; ++d)
    if (x.size(d) != 1) stride[static_cast<size_t>(nb - xb + d)] = x.strides()[d];
  int64_t n = 1;
  for (int64_t b : batch) n *= b;
  std::vector<int64_t> off(static_cast<size_t>(n));
  Dims idx(static_cast<size_t>(nb), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t o = 0;
    for (int64_t d = 0; d < nb; ++d) o += idx[d] * stride[d];
    off[i] = o;
    for (int64_t d = nb - 1; d >= 0; --d) {
      if (++idx[d] < batch[d]) break;
      idx[d] = 0;
    }
  }
  return off;
}

struct Layout {
  attn::Problem p;
  Dims batch;
  int64_t n = 1;
  std::vector<int64_t> qo, ko, vo, mo;
  Tensor q, k, v, mask;
  attn::MaskView maskView;  // data and strides; the batch offset is added per entry
};

// Note [Strided attention operands]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A transformer's q, k and v are views of one projection, [B, T, 3, H, D] permuted to
// [3, B, H, T, D] and selected: each row of D floats is contiguous, but rows are 3 H D apart
// and heads D apart. The kernels copy every row they read into padded or transposed scratch
// anyway (copyPadded, transposePadded), so they take such views as they lie, with a row stride
// and per-entry offsets from the strides, instead of a contiguous copy of each operand first
// (done by the forward and again by the backward, it was a tenth of a small model's attention
// time). Only a view whose rows are not contiguous (a transposed last dim) is copied.
Tensor rowsContiguous(const Tensor& x) {
  const int64_t n = x.ndim();
  if (n >= 2 && (x.size(n - 1) <= 1 || x.strides()[n - 1] == 1)) return x;
  return x.contiguous();
}
// The distance between rows of x's last two dims (any value serves a single row).
int64_t rowStride(const Tensor& x) {
  const int64_t n = x.ndim();
  return x.size(n - 2) > 1 ? x.strides()[n - 2] : x.size(n - 1);
}

Layout layoutOf(std::span<const Tensor> in, const Dims& batch, std::optional<Tensor> mask,
                const OpAttrs& attrs) {
  Layout L;
  L.q = rowsContiguous(castTo(in[0], DType::F32));
  L.k = rowsContiguous(castTo(in[1], DType::F32));
  L.v = rowsContiguous(castTo(in[2], DType::F32));
  L.p.ldq = rowStride(L.q);
  L.p.ldk = rowStride(L.k);
  L.p.ldv = rowStride(L.v);
  L.batch = batch;
  for (int64_t b : batch) L.n *= b;
  L.p.T = L.q.size(L.q.ndim() - 2);
  L.p.S = L.k.size(L.k.ndim() - 2);
  L.p.D = L.q.size(L.q.ndim() - 1);
  L.p.Dv = L.v.size(L.v.ndim() - 1);
  L.p.causal = attrs.causal;
  L.p.scale = attrs.scalars.empty() ? static_cast<float>(1.0 / std::sqrt(double(L.p.D)))
                                    : static_cast<float>(attrs.scalars[0]);
  L.qo = batchOffsets(L.q, batch, 2);
  L.ko = batchOffsets(L.k, batch, 2);
  L.vo = batchOffsets(L.v, batch, 2);
  if (mask) {
    L.mask = mask->contiguous();
    const int64_t r = L.mask.ndim();
    // Strides of the mask's last two dims as seen from [T, S] (0 where it broadcasts).
    const int64_t sS = r >= 1 && L.mask.size(r - 1) != 1 ? 1 : 0;
    const int64_t sT = r >= 2 && L.mask.size(r - 2) != 1 ? L.mask.size(r - 1) : 0;
    L.maskView.isBool = L.mask.dtype() == DType::Bool;
    L.maskView.strideS = sS;
    L.maskView.strideT = sT;
    // The mask's batch dims are those before its last two (a 1-D mask has none).
    if (r >= 2) {
      L.mo = batchOffsets(L.mask, batch, 2);
    } else {
      L.mo.assign(static_cast<size_t>(L.n), 0);
    }
  }
  return L;
}

attn::MaskView maskAt(const Layout& L, int64_t i) {
  attn::MaskView m = L.maskView;
  if (!L.mask.defined()) return m;
  if (m.isBool)
    m.data = L.mask.data<uint8_t>() + L.mo[i];
  else
    m.data = L.mask.data<float>() + L.mo[i];
  return m;
}

Dims dropTail(const Dims& shape, int tail) {
  return Dims(shape.begin(), shape.end() - tail);
}

// scaled_dot_product_attention into `out` and/or attention_logsumexp into `lse` (either may be
// null; both come out of one pass).
void attentionForward(std::span<const Tensor> in, const OpAttrs& attrs, Tensor* out,
                      Tensor* lse) {
  const Dims batch = out ? dropTail(out->shape(), 2) : dropTail(lse->shape(), 1);
  std::optional<Tensor> mask;
  if (in.size() == 4) mask = in[3];
  Layout L = layoutOf(in, batch, mask, attrs);
  const attn::Problem& p = L.p;
  if ((!out || out->numel() == 0) && (!lse || lse->numel() == 0)) return;
  // Tasks: batch entries, each cut into query chunks (whole tiles of 64) when there are fewer
  // entries than threads, so that a single head still uses every core.
  const int64_t tiles = (p.T + 63) / 64;
  const int threads = threadsFor(L.n * tiles);
  const int64_t chunks = L.n >= threads ? 1 : std::min<int64_t>((threads + L.n - 1) / L.n, tiles);
  const int64_t perChunk = (tiles + chunks - 1) / chunks * 64;
  float* o = out ? out->data<float>() : nullptr;
  float* ls = lse ? lse->data<float>() : nullptr;
  parallelTasks(L.n * chunks, 2 * perChunk * p.S * (p.D + p.Dv), [&](int64_t task, attn::Scratch& sc) {
    const int64_t i = task / chunks, c = task % chunks;
    const int64_t t0 = std::min(p.T, c * perChunk), t1 = std::min(p.T, t0 + perChunk);
    if (t0 >= t1) return;
    attn::forward(p, L.q.data<float>() + L.qo[i], L.k.data<float>() + L.ko[i],
                  L.v.data<float>() + L.vo[i], maskAt(L, i), o ? o + i * p.T * p.Dv : nullptr,
                  ls ? ls + i * p.T : nullptr, t0, t1, sc);
  });
}

// attention_backward [q, k, v, out, dout, lse, (mask)] -> dq | dk | dv over the broadcast
// batch, flattened.
Tensor attentionBackward(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  Tensor grads = emptyLike(sig);
  const Tensor out = castTo(in[3], DType::F32).contiguous();
  const Tensor dout = rowsContiguous(castTo(in[4], DType::F32));
  const Tensor lse = castTo(in[5], DType::F32).contiguous();
  const Dims batch = dropTail(out.shape(), 2);
  std::optional<Tensor> mask;
  if (in.size() == 7) mask = in[6];
  Layout L = layoutOf(in.subspan(0, 3), batch, mask, attrs);
  L.p.lddo = rowStride(dout);
  const std::vector<int64_t> doo = batchOffsets(dout, batch, 2);
  const attn::Problem& p = L.p;
  float* g = grads.data<float>();
  float* dq = g;
  float* dk = dq + L.n * p.T * p.D;
  float* dv = dk + L.n * p.S * p.D;
  parallelTasks(L.n, 5 * p.T * p.S * (p.D + p.Dv), [&](int64_t i, attn::Scratch& sc) {
    attn::backward(p, L.q.data<float>() + L.qo[i], L.k.data<float>() + L.ko[i],
                   L.v.data<float>() + L.vo[i], out.data<float>() + i * p.T * p.Dv,
                   dout.data<float>() + doo[i], lse.data<float>() + i * p.T, maskAt(L, i),
                   dq + i * p.T * p.D, dk + i * p.S * p.D, dv + i * p.S * p.Dv, sc);
  });
  return grads;
}

}  // namespace

Tensor runAttention(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                    const OpSignature& sig) {
  if (op == OpKind::AttentionBackward) return attentionBackward(in, attrs, sig);
  Tensor out = emptyLike(sig);
  if (op == OpKind::AttentionLse)
    attentionForward(in, attrs, nullptr, &out);
  else
    attentionForward(in, attrs, &out, nullptr);
  return out;
}

Tensor attentionWithLse(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig,
                        Tensor& lse) {
  Tensor out = emptyLike(sig);
  lse = emptyLike({shapes::SymShape(sig.shape.begin(), sig.shape.end() - 1), DType::F32});
  attentionForward(in, attrs, &out, &lse);
  return out;
}

}  // namespace tessel::backends::cpu
