// Fused attention on attention.comp (scaled_dot_product_attention, attention_logsumexp,
// attention_backward). A kernel binds four buffers, so q, k and v (and, for the backward, out,
// dout and lse) are copied into one packed buffer, each broadcast to the batch: O((T + S) * D)
// per batch entry, never [T, S]. The mask is read in place through its strides.
#include <cmath>

#include "backends/vulkan/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct AttentionPush {
  uint32_t T, S, D, Dv, n, qOff, kOff, vOff, oOff, doOff, lOff, mOff, mT, mS, flags;
  float scale;
  uint32_t bSize[4], bStride[4];
};

Dims withTail(Dims batch, std::initializer_list<int64_t> tail) {
  batch.insert(batch.end(), tail.begin(), tail.end());
  return batch;
}

// Copies each part, broadcast to its shape, into one f32 buffer; returns the element offsets.
Tensor pack(const std::vector<std::pair<Tensor, Dims>>& parts, std::vector<uint32_t>& offsets) {
  int64_t total = 0;
  for (const auto& [t, shape] : parts) total += numelOf(shape);
  Tensor packed = emptyDevice({std::max<int64_t>(total, 1)}, DType::F32);
  int64_t at = 0;
  for (const auto& [t, shape] : parts) {
    offsets.push_back(u32(at, "element offset"));
    const int64_t len = numelOf(shape);
    if (len > 0) {
      Tensor dst = packed.slice(0, at, at + len, 1).reshape(shape);
      Tensor src = castDevice(t, DType::F32);
      Dims lifted = src.shape();
      lifted.insert(lifted.begin(), shape.size() - lifted.size(), 1);
      copyInto(dst, reshapeDevice(src, lifted).expand(shape));
    }
    at += len;
  }
  return packed;
}

// Fills the mask fields: the mask seen as [batch..., T', S'] (T', S' its own sizes, 1 or T,
// S), its batch dims merged into at most four (a contiguous copy when they do not merge).
void bindMask(const Tensor& mask0, const Dims& batch, AttentionPush& pc, Tensor& keep) {
  Dims lifted = mask0.shape();
  lifted.insert(lifted.begin(), batch.size() + 2 - lifted.size(), 1);
  Dims target = withTail(batch, {lifted[batch.size()], lifted[batch.size() + 1]});
  Tensor m = reshapeDevice(mask0, lifted).expand(target);
  // (size, stride) of the batch dims, merged where a walk over both is one stride.
  std::vector<std::pair<int64_t, int64_t>> dims;
  for (size_t d = 0; d < batch.size(); ++d) {
    const int64_t size = m.size(int64_t(d)), stride = size == 1 ? 0 : m.strides()[d];
    if (size == 1) continue;
    if (!dims.empty() && dims.back().second == stride * size) {
      dims.back() = {dims.back().first * size, stride};
      continue;
    }
    dims.push_back({size, stride});
  }
  if (dims.size() > 4) {
    m = contiguousDevice(m);
    dims = {{numelOf(batch), m.size(int64_t(batch.size())) * m.size(int64_t(batch.size()) + 1)}};
  }
  for (int i = 0; i < 4; ++i) pc.bSize[i] = 1, pc.bStride[i] = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    pc.bSize[4 - dims.size() + i] = u32(dims[i].first, "batch size");
    pc.bStride[4 - dims.size() + i] = u32(dims[i].second, "mask stride");
  }
  const int64_t r = int64_t(batch.size());
  pc.mT = u32(m.size(r) == 1 ? 0 : m.strides()[size_t(r)], "mask stride");
  pc.mS = u32(m.size(r + 1) == 1 ? 0 : m.strides()[size_t(r + 1)], "mask stride");
  pc.mOff = u32(m.offset(), "element offset");
  pc.flags |= 2u | (m.dtype() == DType::Bool ? 4u : 0u);
  keep = m;
}

AttentionPush pushFor(const Tensor& q, const Tensor& k, const Tensor& v, int64_t n,
                      const OpAttrs& attrs) {
  AttentionPush pc{};
  pc.T = u32(q.size(q.ndim() - 2), "sequence length");
  pc.S = u32(k.size(k.ndim() - 2), "sequence length");
  pc.D = u32(q.size(q.ndim() - 1), "embedding size");
  pc.Dv = u32(v.size(v.ndim() - 1), "embedding size");
  pc.n = u32(n, "batch size");
  pc.flags = attrs.causal ? 1u : 0u;
  pc.scale = attrs.scalars.empty() ? float(1.0 / std::sqrt(double(pc.D))) : float(attrs.scalars[0]);
  for (int i = 0; i < 4; ++i) pc.bSize[i] = 1;
  return pc;
}

}  // namespace

Tensor runAttention(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                    const OpSignature& sig) {
  const Dims outShape = concreteShape(sig.shape);
  const bool backward = op == OpKind::AttentionBackward;
  const Tensor &q = in[0], &k = in[1], &v = in[2];
  const Tensor* mask = nullptr;
  if (in.size() == (backward ? 7u : 4u)) mask = &in[in.size() - 1];
  // The batch: the output's leading dims (the backward's from its `out` operand).
  const Dims& ref = backward ? in[3].shape() : outShape;
  const Dims batch(ref.begin(), ref.end() - (op == OpKind::AttentionLse ? 1 : 2));
  const int64_t n = numelOf(batch);
  AttentionPush pc = pushFor(q, k, v, n, attrs);
  Tensor out = emptyDevice(outShape, DType::F32);
  if (numelOf(outShape) == 0) return out;
  std::vector<std::pair<Tensor, Dims>> parts = {
      {q, withTail(batch, {pc.T, pc.D})}, {k, withTail(batch, {pc.S, pc.D})},
      {v, withTail(batch, {pc.S, pc.Dv})}};
  if (backward) {
    parts.push_back({in[3], withTail(batch, {pc.T, pc.Dv})});
    parts.push_back({in[4], withTail(batch, {pc.T, pc.Dv})});
    parts.push_back({in[5], withTail(batch, {pc.T})});
  }
  std::vector<uint32_t> off;
  Tensor packed = pack(parts, off);
  pc.qOff = off[0], pc.kOff = off[1], pc.vOff = off[2];
  if (backward) pc.oOff = off[3], pc.doOff = off[4], pc.lOff = off[5];
  Tensor maskView;
  if (mask) bindMask(*mask, batch, pc, maskView);
  BufferArg bufs[4] = {bufferOf(out), bufferOf(packed), {}, {}};
  bufs[2] = mask ? bufferOf(maskView) : bufs[1];
  u32(n * int64_t(std::max(pc.T, pc.S)) * std::max(pc.D, pc.Dv), "element count");
  const uint64_t queryGroups = uint64_t(n) * ((pc.T + 63) / 64);
  if (!backward) {
    bufs[3] = bufs[1];
    if (queryGroups > 0)
      launch("attention", bufs, pc, queryGroups, op == OpKind::AttentionLse ? 1u : 0u, 1u);
    return out;
  }
  Scratch delta = scratch(size_t(std::max<int64_t>(n * pc.T, 1)) * 4);
  bufs[3] = delta.arg;
  if (queryGroups > 0) launch("attention", bufs, pc, queryGroups, 2u, 1u | 8u);
  const uint64_t keyGroups = uint64_t(n) * ((pc.S + 63) / 64);
  if (keyGroups > 0) launch("attention", bufs, pc, keyGroups, 3u, 1u);
  return out;
}

}  // namespace tessel::backends::vulkan
