// matmul with NumPy semantics on matmul.comp: 1-D operands promoted, batch dims broadcast
// (one batch dim per dispatch after merging, a host loop over any others).
#include <algorithm>

#include "backends/vulkan/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct MatmulPush {
  uint32_t M, N, K, batch;
  uint32_t aOff, bOff, cOff, pad;
  uint32_t aRs, aCs, bRs, bCs;
  uint32_t aBs, bBs, cBs;
};

}  // namespace

Tensor matmul(const Tensor& a0, const Tensor& b0, const OpSignature& sig) {
  const DType compute = sig.dtype == DType::F32 ? DType::F32 : DType::I32;
  Tensor a = castDevice(a0, compute), b = castDevice(b0, compute);
  if (a.ndim() == 1) a = a.unsqueeze(0);
  if (b.ndim() == 1) b = b.unsqueeze(1);
  const int64_t M = a.size(a.ndim() - 2), K = a.size(a.ndim() - 1), N = b.size(b.ndim() - 1);
  // Note [Matmul operand copies]
  // The vec4 tile fills (Note [Matmul on llvmpipe]) need unit column strides and row starts on
  // multiples of 4. A transposed or sliced operand of a large product (linear's weight, the
  // x^T and w of a backward pass) is copied to a contiguous tensor first: the copy is one pass
  // over the operand, the aligned fills make the product itself 1.5x faster (linear of
  // 2048x1024 by a 1024x1024 weight: 450 -> 330 ms on lavapipe).
  if (K % 4 == 0 && N % 4 == 0 && M * N * K >= (int64_t(1) << 18)) {
    const auto fillsAligned = [](const Tensor& t) {
      if (t.strides().back() != 1 || t.offset() % 4 != 0) return false;
      for (int64_t d = 0; d + 1 < t.ndim(); ++d)
        if (t.strides()[d] % 4 != 0) return false;
      return true;
    };
    if (!fillsAligned(a)) a = contiguousDevice(a);
    if (!fillsAligned(b)) b = contiguousDevice(b);
  }
  Dims batch;
  {
    const int64_t ra = a.ndim() - 2, rb = b.ndim() - 2, r = std::max(ra, rb);
    for (int64_t i = 0; i < r; ++i) {
      int64_t da = i - (r - ra) >= 0 ? a.size(i - (r - ra)) : 1;
      int64_t db = i - (r - rb) >= 0 ? b.size(i - (r - rb)) : 1;
      batch.push_back(da == 1 ? db : da);
    }
  }
  Dims outShape = batch;
  outShape.push_back(M);
  outShape.push_back(N);
  Tensor out = emptyDevice(outShape, compute);
  const int64_t nb = numelOf(batch);
  if (out.numel() > 0) {
    Dims fullA = batch, fullB = batch;
    fullA.insert(fullA.end(), {M, K});
    fullB.insert(fullB.end(), {K, N});
    Tensor ea = a.expand(fullA), eb = b.expand(fullB);
    // The innermost batch dim runs in the kernel (workgroups per batch entry); outer ones loop.
    const int64_t nbd = int64_t(batch.size());
    const int64_t inner = nbd ? batch.back() : 1;
    MatmulPush pc{};
    pc.M = u32(M, "matmul size");
    pc.N = u32(N, "matmul size");
    pc.K = u32(K, "matmul size");
    pc.batch = u32(inner, "batch size");
    const Dims& sa = ea.strides();
    const Dims& sb = eb.strides();
    pc.aRs = u32(sa[nbd], "stride");
    pc.aCs = u32(sa[nbd + 1], "stride");
    pc.bRs = u32(sb[nbd], "stride");
    pc.bCs = u32(sb[nbd + 1], "stride");
    pc.aBs = nbd ? u32(sa[nbd - 1], "stride") : 0;
    pc.bBs = nbd ? u32(sb[nbd - 1], "stride") : 0;
    pc.cBs = u32(M * N, "stride");
    // The vec4 tile fills (Note [Matmul on llvmpipe]): unit column strides, word offsets of
    // every row start a multiple of 4, and K, N multiples of 4 so a vec4 is all in or all out.
    const auto m4 = [](uint32_t v) { return v % 4 == 0; };
    const bool aligned = pc.aCs == 1 && pc.bCs == 1 && m4(pc.aRs) && m4(pc.bRs) && m4(pc.aBs) &&
                         m4(pc.bBs) && m4(pc.K) && m4(pc.N) && m4(u32(ea.offset(), "offset")) &&
                         m4(u32(eb.offset(), "offset")) &&
                         (nbd <= 1 || (std::all_of(sa.begin(), sa.begin() + nbd - 1, [](int64_t s) { return s % 4 == 0; }) &&
                                       std::all_of(sb.begin(), sb.begin() + nbd - 1, [](int64_t s) { return s % 4 == 0; })));
    const BufferArg bufs[] = {bufferOf(out), bufferOf(ea), bufferOf(eb)};
    const uint64_t tiles = groupsFor(uint64_t(M), 64) * groupsFor(uint64_t(N), 64);
    Dims pos(std::max<int64_t>(nbd - 1, 0), 0);
    for (int64_t o = 0; o < nb / std::max<int64_t>(inner, 1); ++o) {
      int64_t offA = ea.offset(), offB = eb.offset(), offC = 0, stride = inner * M * N;
      for (size_t d = 0; d < pos.size(); ++d) {
        offA += pos[d] * sa[d];
        offB += pos[d] * sb[d];
      }
      offC = o * stride;
      pc.aOff = u32(offA, "element offset");
      pc.bOff = u32(offB, "element offset");
      pc.cOff = u32(offC, "element offset");
      launch(compute == DType::F32 ? "matmul" : "matmul_int", bufs, pc, tiles * uint64_t(inner),
             aligned ? 1u : 0u);
      for (int64_t d = int64_t(pos.size()) - 1; d >= 0; --d) {
        if (++pos[d] < batch[d]) break;
        pos[d] = 0;
      }
    }
  }
  Tensor result = reshapeDevice(out, concreteShape(sig.shape));
  return castDevice(result, sig.dtype);
}

}  // namespace tessel::backends::vulkan
