// argsort, topk, searchsorted and nms on the device (sort_rows.comp, nms.comp). Everything
// stays on the device except nms's kept count, read back like every data-dependent size.
#include "backends/vulkan/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct SortRowsPush {
  uint32_t rows, n, mode, width, seg, xOff, desc, yOff;
};
struct NmsPush {
  uint32_t n, words, mode, xOff;
  float thr;
};

// Note [Row merge sort]
// argsort sorts the indices of each row with a bottom-up merge sort (as unique's keys, Note
// [Merge sort] in ops_data_dependent.cpp): runs of kRun indices sorted in place by one
// invocation each, then log2(n / kRun) passes each merging pairs of runs into the other index
// buffer, every invocation writing kSegment consecutive outputs of one row after a binary
// search on the merge path. Rows are independent, so one dispatch serves every row of a pass.
// The comparison is a total order (key, then index), which makes the result the stable order.
// Sizes and the pass are push constants: one pipeline per key type for every shape.
constexpr uint32_t kRun = 32, kSegment = 256;

// Note [Row radix sort]
// On a CPU device (rowsInWorkgroups() false, lavapipe) argsort is an LSD radix sort instead
// (radix_rows.comp), as unique's is (Note [Radix sort]): the merge sort's binary searches and
// divergent merges cost llvmpipe 560 ms for one row of 1M floats. Pairs of (key, flat index)
// go through four key passes of eight bits, then as many row passes as the row count needs
// (a stable sort by row keeps each row's key order), then the in-row indices are written.
struct RadixRowsPush {
  uint32_t n, mode, shift, chunk, chunks, rowLen, rowPass, flip, xOff;
};
enum RadixRowsMode : uint32_t {
  kRREncode, kRRCount, kRRScanChunks, kRRScanDigits, kRRScatter, kRRDecode
};

Tensor radixArgsortRows(const Tensor& keys, int64_t rows, int64_t n, bool descending) {
  const int64_t total = rows * n;
  u32(2 * total, "sort size");
  Tensor a = emptyDevice(Dims{2 * total}, DType::I32), b = emptyDevice(Dims{2 * total}, DType::I32);
  RadixRowsPush pc{uint32_t(total), kRREncode, 0, 0, 0, uint32_t(n), 0, descending ? ~0u : 0u,
                   u32(keys.offset(), "element offset")};
  pc.chunk = uint32_t(std::max<int64_t>(1024, (total + 511) / 512));
  pc.chunks = uint32_t((total + pc.chunk - 1) / pc.chunk);
  Tensor counts = emptyDevice(Dims{int64_t(pc.chunks) * 256}, DType::I32);
  Tensor totals = emptyDevice(Dims{512}, DType::I32);
  const uint32_t isFloat = keys.dtype() == DType::F32 ? 1 : 0;
  auto run = [&](const Tensor& from, const Tensor& to, uint32_t mode, uint64_t invocations) {
    pc.mode = mode;
    const BufferArg bufs[] = {bufferOf(from), bufferOf(to), bufferOf(counts), bufferOf(totals)};
    launch("radix_rows", bufs, pc, groupsFor(invocations), isFloat);
  };
  auto pass = [&](uint32_t shift, bool rowPass) {
    pc.shift = shift;
    pc.rowPass = rowPass ? 1 : 0;
    run(a, b, kRRCount, pc.chunks);
    run(a, b, kRRScanChunks, 256);
    run(a, b, kRRScanDigits, 1);
    run(a, b, kRRScatter, pc.chunks);
    std::swap(a, b);
  };
  run(keys, a, kRREncode, uint64_t(total));
  for (uint32_t shift = 0; shift < 32; shift += 8) pass(shift, false);
  for (uint32_t shift = 0; shift < 32 && (uint64_t(rows - 1) >> shift) != 0; shift += 8)
    pass(shift, true);
  Tensor out = emptyDevice(Dims{rows, n}, DType::I32);
  run(a, out, kRRDecode, uint64_t(total));
  return out;
}

}  // namespace

Tensor argsortRows(const Tensor& keys, int64_t rows, int64_t n, bool descending) {
  if (!rowsInWorkgroups()) return radixArgsortRows(keys, rows, n, descending);
  u32(2 * rows * n, "sort size");
  Tensor a = emptyDevice(Dims{rows, n}, DType::I32), b = emptyDevice(Dims{rows, n}, DType::I32);
  const uint32_t isFloat = keys.dtype() == DType::F32 ? 1 : 0;
  SortRowsPush pc{uint32_t(rows), uint32_t(n), 0, kRun, kRun,
                  u32(keys.offset(), "element offset"), descending ? 1u : 0u, 0};
  auto pass = [&](const Tensor& src, const Tensor& dst) {
    const uint64_t per = (uint64_t(n) + pc.seg - 1) / pc.seg;
    const BufferArg bufs[] = {bufferOf(keys), bufferOf(src), bufferOf(dst)};
    launch("sort_rows", bufs, pc, groupsFor(uint64_t(rows) * per), isFloat,
           pc.mode == 0 ? 2u : 4u);
  };
  pass(a, a);
  Tensor* src = &a;
  Tensor* dst = &b;
  pc.mode = 1;
  for (uint64_t w = kRun; w < uint64_t(n); w *= 2) {
    pc.width = uint32_t(w);
    pc.seg = uint32_t(std::min<uint64_t>(kSegment, 2 * w));
    pass(*src, *dst);
    std::swap(src, dst);
  }
  return *src;
}

namespace {

// x with `dim` moved last, contiguous, as f32 or i32 keys.
Tensor keysLast(const Tensor& x0, int64_t dim) {
  const Tensor x = castDevice(x0, x0.dtype() == DType::F32 ? DType::F32 : DType::I32);
  const int64_t rank = x.ndim();
  return rank == 0 || dim == rank - 1 ? contiguousDevice(x)
                                      : contiguousDevice(x.transpose(dim, rank - 1));
}

Tensor sortOrTopk(OpKind op, const Tensor& x, const OpAttrs& attrs, const OpSignature& sig) {
  const Dims outShape = concreteShape(sig.shape);
  if (numelOf(outShape) == 0) return emptyDevice(outShape, DType::I32);
  const int64_t rank = x.ndim();
  const int64_t dim = rank == 0 ? 0 : wrapDim(attrs.dim, rank);
  const Tensor keys = keysLast(x, dim);
  const int64_t n = rank == 0 ? 1 : keys.size(rank - 1);
  const int64_t rows = keys.numel() / n;
  Tensor idx = argsortRows(keys, rows, n, attrs.descending);
  Dims moved = keys.shape();
  if (moved.empty()) return reshapeDevice(idx, {});
  idx = reshapeDevice(idx, moved);
  const int64_t k = attrs.stop ? attrs.stop->constant() : 1;  // the rule's default too
  if (op == OpKind::Topk) idx = idx.slice(rank - 1, 0, k, 1);
  if (dim != rank - 1) idx = idx.transpose(dim, rank - 1);
  return contiguousDevice(idx);
}

// Both operands in one key type (f32 when either is f32), contiguous.
Tensor searchsorted(const Tensor& s0, const Tensor& v0, bool right, const OpSignature& sig) {
  const Dims outShape = concreteShape(sig.shape);
  Tensor out = emptyDevice(outShape, DType::I32);
  if (numelOf(outShape) == 0) return out;
  const DType t =
      s0.dtype() == DType::F32 || v0.dtype() == DType::F32 ? DType::F32 : DType::I32;
  const Tensor s = contiguousDevice(castDevice(s0, t));
  const Tensor v = contiguousDevice(castDevice(v0, t));
  const int64_t m = s.size(s.ndim() - 1);
  const int64_t perRow = v.ndim() == 0 ? 1 : v.size(v.ndim() - 1);
  SortRowsPush pc{0, u32(v.numel(), "element count"), 2, u32(m, "sorted length"),
                  s.ndim() > 1 ? uint32_t(perRow) : 0u, u32(s.offset(), "element offset"),
                  right ? 1u : 0u, u32(v.offset(), "element offset")};
  const BufferArg bufs[] = {bufferOf(s), bufferOf(v), bufferOf(out)};
  launch("sort_rows", bufs, pc, groupsFor(pc.n), t == DType::F32 ? 1u : 0u, 4u);
  return out;
}

}  // namespace

Tensor runSort(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& sig) {
  if (op == OpKind::Searchsorted) return searchsorted(in[0], in[1], attrs.right, sig);
  return sortOrTopk(op, in[0], attrs, sig);
}

// Note [Device nms]
// The boxes are ordered by decreasing score with the row sort above (stable: ties keep index
// order, as on the cpu), nms.comp mode 0 writes the [n, ceil(n / 32)] bit mask of "j after i
// overlaps i above the threshold" with one invocation per word, and mode 1 walks the boxes in
// order once, in one invocation, or-ing each kept box's mask row into the removed bits; the
// keep flags are then counted (the one read-back, which sizes the output) and the kept
// positions' original indices compacted in score order. The mask is n^2 / 8 bytes, so the
// device takes at most kMaxNmsBoxes boxes (512 MiB of mask).
constexpr int64_t kMaxNmsBoxes = 65536;

Tensor nmsDevice(const Tensor& boxes, const Tensor& scores, const OpAttrs& attrs, NmsCount count,
                 NmsSelect select) {
  const int64_t n = scores.numel();
  if (n > kMaxNmsBoxes)
    throwUserError(ErrorKind::DeviceError, "nms: the vulkan backend takes at most " +
                                               std::to_string(kMaxNmsBoxes) + " boxes, got " +
                                               std::to_string(n));
  if (n == 0) return emptyDevice(Dims{0}, DType::I32);
  const Tensor keys = contiguousDevice(scores);
  const Tensor order = argsortRows(keys, 1, n, true);
  const Tensor b = contiguousDevice(boxes);
  const int64_t words = (n + 31) / 32;
  Tensor mask = emptyDevice(Dims{n, words}, DType::I32);
  NmsPush pc{uint32_t(n), uint32_t(words), 0, u32(b.offset(), "element offset"),
             float(attrs.scalars.empty() ? 0.5 : attrs.scalars[0])};
  {
    const BufferArg bufs[] = {bufferOf(b), bufferOf(order), bufferOf(mask)};
    launch("nms", bufs, pc, groupsFor(uint64_t(n) * uint64_t(words)), 0, 4u);
  }
  Tensor removed = emptyDevice(Dims{words}, DType::I32);
  Tensor flags = emptyDevice(Dims{n}, DType::I32);
  const BufferArg rarg = bufferOf(removed);
  rt().stream().fill({rarg.buffer, rarg.offset, VkDeviceSize(words) * 4}, 0);
  pc.mode = 1;
  {
    const BufferArg bufs[] = {bufferOf(mask), rarg, bufferOf(flags)};
    launch("nms", bufs, pc, 1, 0, 2u | 4u);
  }
  const int64_t kept = count(flags);
  std::vector<shapes::OpSignature> sigs = {
      {shapes::SymShape(boxes.shape().begin(), boxes.shape().end()), boxes.dtype()},
      {shapes::SymShape(scores.shape().begin(), scores.shape().end()), scores.dtype()}};
  OpAttrs a = attrs;
  a.outputSize = kept;
  Tensor out = emptyDevice(concreteShape(shapes::inferShape(OpKind::Nms, sigs, a).at(0).shape),
                           DType::I32);
  select(out, flags, reshapeDevice(order, Dims{n}));
  return out;
}

}  // namespace tessel::backends::vulkan
