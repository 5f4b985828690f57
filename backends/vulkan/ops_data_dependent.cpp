// Data-dependent ops on the device (backends.md): 0/1 flags, an inclusive prefix sum
// (scan.comp), one read-back of the count to size the output, then a scatter (compact.comp).
// unique sorts first (a merge sort on a GPU, Note [Merge sort]; a radix sort on a CPU device,
// Note [Radix sort]) and flags the first of each run.
#include "backends/vulkan/ops.h"
#include "backends/vulkan/shaders/ew_ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct ScanPush {
  uint32_t n, mode;
};
struct CompactPush {
  uint32_t n, mode, rank, dtype;
  uint32_t shape[8];
};
struct SortPush {
  uint32_t n, mode, width, seg;
};
constexpr uint32_t kNonzero = 0, kSelect = 1, kScatter = 2;

void scanInPlace(const BufferArg& data, uint64_t n) {
  const uint64_t groups = groupsFor(n, 1024);
  Scratch sums = scratch(groups * 4);
  ScanPush pc{u32(int64_t(n), "element count"), 0};
  const BufferArg bufs[] = {data, sums.arg};
  launch("scan", bufs, pc, groups);
  if (groups > 1) {
    scanInPlace(sums.arg, groups);
    pc.mode = 1;
    launch("scan", bufs, pc, groups);
  }
}

// 0/1 i32 flags of `src != 0` over `shape` (src broadcast), scanned in place; returns the count.
int64_t flagsAndCount(const Tensor& flags) {
  const int64_t n = flags.numel();
  if (n == 0) return 0;
  BufferArg arg = bufferOf(flags);
  scanInPlace(arg, uint64_t(n));
  uint32_t count = 0;
  readBack(arg, VkDeviceSize(n - 1) * 4, &count, 4);
  return count;
}

Tensor nonzeroFlags(const Tensor& src, const Dims& shape) {
  Tensor flags = emptyDevice(shape, DType::I32);
  const Tensor in[] = {src};
  elementwise(EW_NONZERO, src.dtype() == DType::F32 ? DType::F32 : DType::I32, flags, in);
  return flags;
}

OpSignature ruleWithSize(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                         int64_t size) {
  std::vector<OpSignature> sigs;
  for (const Tensor& t : in)
    sigs.push_back({shapes::SymShape(t.shape().begin(), t.shape().end()), t.dtype()});
  OpAttrs a = attrs;
  a.outputSize = size;
  return shapes::inferShape(op, sigs, a).at(0);
}

void compact(uint32_t mode, const Tensor& out, const Tensor& flags, const Tensor* values,
             const Tensor* src, const Dims& shape) {
  const int64_t n = flags.numel();
  if (n == 0) return;
  CompactPush pc{};
  pc.n = u32(n, "element count");
  pc.mode = mode;
  pc.rank = uint32_t(shape.size());
  pc.dtype = dtypeCode(out.dtype());
  if (shape.size() > 8)
    throwUserError(ErrorKind::DeviceError, "vulkan: nonzero supports tensors of rank <= 8");
  for (size_t d = 0; d < shape.size(); ++d) pc.shape[d] = u32(shape[d], "dimension");
  BufferArg bufs[4] = {bufferOf(out), bufferOf(flags), {}, {}};
  bufs[2] = values ? bufferOf(*values) : bufs[1];
  bufs[3] = src ? bufferOf(*src) : bufs[1];
  launch("compact", bufs, pc, groupsFor(pc.n));
}

// Note [Chunked compaction]
// The GPU path above (i32 flags, a workgroup tree scan of every flag, a scatter reading two
// scanned words per element) cost 20-40x an elementwise add on lavapipe: llvmpipe runs each
// SIMD vector of a workgroup start to end, the scan's barriers make the shader a coroutine
// (Note [Reduction modes] in ops_reduce.cpp), and the scatter's loads and stores under a
// random mask cost a mispredicted branch per lane. On a CPU device (rowsInWorkgroups() false)
// the flags are bool bytes (the mask itself when it is a contiguous bool of the right shape at
// an offset that is a multiple of 8), and compact_chunks.comp gives each invocation chunkFor(n)
// consecutive flags, read eight (one uint64_t) per step: pass 1 counts each chunk's set flags,
// scan.comp scans the per-chunk counts in place, the count is read back from its last word to
// size the output, and pass 2 walks each chunk again from the count before it, writing
// coordinates (nonzero: the last-dim coordinate and the row stepped along; ranks 1 and 2 have
// their own pipelines, built together, higher ranks divide the row per output), the chosen
// values (masked_select, eight loaded per step) or, for masked_scatter, every element: x's
// or the next source value (eight loaded from x and stored per step; the chunk counts follow
// the flags in one allocation, so that x, the source, the flags and out fit the four bindings). Pass 2 stores to
// its next slot whether or not the element is chosen, as long as the chunk has slots left (an
// unchosen element's slot is overwritten by the next chosen one), so no store or load waits on
// a random mask. No scanned array of n words is written or read. 4M f32 on lavapipe: nonzero
// 199 -> 7.2 ms, masked_select 196 -> 11.4 ms, masked_scatter 204 -> 15.0 ms, against 9-12 ms
// for an add (docs/vulkan.md, "Data-dependent ops on CPU devices"). Tests:
// tests/backends/vulkan/data_dependent_test.cpp, both modes.
constexpr uint32_t kChunkCount = 0, kChunkNonzero = 1, kChunkSelect = 2, kChunkScatter = 3;
// Elements per invocation: a multiple of 8 (C / 8 loop steps, Note [Loop limit]). 4M elements
// ran 30% faster with 4096 than with 1024 (flat up to 16384); smaller tensors take 1024 so
// that they still spread over several workgroups.
int64_t chunkFor(int64_t n) { return n >= (int64_t(1) << 20) ? 4096 : 1024; }
struct ChunkPush {
  uint32_t n, chunk, rank, foff, voff, chunks, soff, xoff;
  uint32_t shape[8];
};
constexpr uint64_t kChunkGroup = 64;  // compact_chunks.comp's local_size_x

// Bool flags of `src != 0` over `shape` (src broadcast), their per-chunk counts scanned in
// place, and the total (one read-back). Note [Chunked compaction]. With `sumsAfterFlags` the
// counts follow the flags in one allocation (at word pc.soff), so that masked_scatter's pass
// 2 has a binding left for x.
struct ChunkFlags {
  Tensor flags;
  Scratch sumsScratch;
  BufferArg sums;
  ChunkPush pc{};
  int64_t count = 0;
};
ChunkFlags chunkFlagsAndCount(const Tensor& src, const Dims& shape, bool sumsAfterFlags = false) {
  ChunkFlags f;
  const int64_t n = numelOf(shape);
  const int64_t chunk = chunkFor(n), chunks = (n + chunk - 1) / chunk;
  const int64_t flagBytes = (n + 255) / 256 * 256;  // sums at a binding-aligned offset
  if (!sumsAfterFlags && src.dtype() == DType::Bool && src.isContiguous() &&
      src.shape() == shape && src.offset() % 8 == 0) {
    f.flags = src;
  } else {
    const Tensor whole = emptyDevice(Dims{sumsAfterFlags ? flagBytes + chunks * 4 : n}, DType::Bool);
    f.flags = Tensor::view(whole.storage(), shape, contiguousStrides(shape), 0, DType::Bool);
    const Tensor in[] = {src};
    elementwise(EW_NONZERO, src.dtype() == DType::F32 ? DType::F32 : DType::I32, f.flags, in);
  }
  f.pc.n = u32(n, "element count");
  f.pc.chunk = uint32_t(chunk);
  f.pc.chunks = uint32_t(chunks);
  f.pc.foff = u32(f.flags.offset(), "offset");
  if (n == 0) return f;
  const BufferArg flags = bufferOf(f.flags);
  if (sumsAfterFlags) {
    f.sums = {flags.buffer, flags.offset + VkDeviceSize(flagBytes), VkDeviceSize(chunks) * 4};
    f.pc.soff = uint32_t(flagBytes / 4);
  } else {
    f.sumsScratch = scratch(size_t(chunks) * 4);
    f.sums = f.sumsScratch.arg;
  }
  const BufferArg bufs[] = {flags, flags, f.sums, flags};
  launch("compact_chunks", bufs, f.pc, groupsFor(uint64_t(chunks), kChunkGroup), kChunkCount,
         1u << 2);
  scanInPlace(f.sums, uint64_t(chunks));
  uint32_t count = 0;
  readBack(f.sums, VkDeviceSize(chunks - 1) * 4, &count, 4);
  f.count = count;
  return f;
}

// Pass 2 of Note [Chunked compaction]: writes `out` from the chunks of `f`.
void chunkCompact(uint32_t mode, const Tensor& out, ChunkFlags& f, const Tensor* values,
                  uint32_t sub) {
  const int64_t chunks = f.pc.chunks;
  const BufferArg o = bufferOf(out), flags = bufferOf(f.flags);
  const BufferArg bufs[] = {o, flags, f.sums, values ? bufferOf(*values) : flags};
  f.pc.voff = values ? u32(values->offset(), "offset") : 0;
  launch("compact_chunks", bufs, f.pc, groupsFor(uint64_t(chunks), kChunkGroup),
         mode | sub << 4, 1u);
}

Tensor nonzeroChunked(const Tensor& x, const OpAttrs& attrs) {
  ChunkFlags f = chunkFlagsAndCount(x, x.shape());
  const Tensor in[] = {x};
  OpSignature sig = ruleWithSize(OpKind::Nonzero, in, attrs, f.count);
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  if (f.count == 0 || x.ndim() == 0) return out;
  if (x.ndim() > 8)
    throwUserError(ErrorKind::DeviceError, "vulkan: nonzero supports tensors of rank <= 8");
  f.pc.rank = uint32_t(x.ndim());
  for (int64_t d = 0; d < x.ndim(); ++d) f.pc.shape[d] = u32(x.shape()[d], "dimension");
  // Ranks 1 and 2 have their own pipelines; all three are built on the first nonzero.
  for (uint32_t v : {0u, 1u, 2u}) rt().kernels().get("compact_chunks", kChunkNonzero | v << 4);
  const uint32_t sub = x.ndim() <= 2 ? uint32_t(x.ndim()) : 0u;
  chunkCompact(kChunkNonzero, out, f, nullptr, sub);
  return out;
}

Tensor maskedSelectChunked(const Tensor& x, const Tensor& mask, const Dims& shape,
                           const OpAttrs& attrs) {
  ChunkFlags f = chunkFlagsAndCount(mask, shape);
  const Tensor in[] = {x, mask};
  OpSignature sig = ruleWithSize(OpKind::MaskedSelect, in, attrs, f.count);
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  if (f.count == 0) return out;
  Tensor values = x;
  if (x.dtype() != sig.dtype || x.shape() != shape || !x.isContiguous() || x.offset() % 8 != 0) {
    values = emptyDevice(shape, sig.dtype);
    copyInto(values, x);
  }
  chunkCompact(kChunkSelect, out, f, &values, dtypeCode(out.dtype()));
  return out;
}

Tensor maskedScatterChunked(std::span<const Tensor> in, const OpAttrs& attrs) {
  const Tensor& x = in[0];
  ChunkFlags f = chunkFlagsAndCount(in[1], x.shape(), true);
  OpSignature sig = ruleWithSize(OpKind::MaskedScatter, in, attrs, f.count);
  if (in[2].numel() < f.count)
    throwUserError(ErrorKind::ValueError,
                   "masked_scatter: the mask selects " + std::to_string(f.count) +
                       " elements but the source has only " + std::to_string(in[2].numel()));
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  if (out.numel() == 0) return out;
  // Pass 2 reads x eight elements at a time (offset a multiple of 8) and writes every element
  // of out: binding 0 out, 1 the flags with the sums after them, 2 x, 3 the source (never
  // read when nothing is chosen, so an empty source binds the flags instead). It runs even
  // when nothing is chosen, so that which pipelines run does not depend on the data.
  Tensor xs = x;
  if (x.dtype() != sig.dtype || !x.isContiguous() || x.offset() % 8 != 0) {
    xs = emptyDevice(x.shape(), sig.dtype);
    copyInto(xs, x);
  }
  const Tensor src = castDevice(reshapeDevice(in[2], Dims{in[2].numel()}), sig.dtype);
  f.pc.voff = u32(src.offset(), "offset");
  f.pc.xoff = u32(xs.offset(), "offset");
  const BufferArg flags = bufferOf(f.flags);
  const BufferArg bufs[] = {bufferOf(out), flags, bufferOf(xs),
                            src.numel() > 0 ? bufferOf(src) : flags};
  launch("compact_chunks", bufs, f.pc, groupsFor(uint64_t(f.pc.chunks), kChunkGroup),
         kChunkScatter | dtypeCode(out.dtype()) << 4, 1u);
  return out;
}

Tensor nonzero(const Tensor& x, const OpAttrs& attrs) {
  if (!rowsInWorkgroups()) return nonzeroChunked(x, attrs);
  Tensor flags = nonzeroFlags(x, x.shape());
  const int64_t count = flagsAndCount(flags);
  const Tensor in[] = {x};
  OpSignature sig = ruleWithSize(OpKind::Nonzero, in, attrs, count);
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  if (count > 0 && x.ndim() > 0) compact(kNonzero, out, flags, nullptr, nullptr, x.shape());
  return out;
}

Tensor maskedSelect(const Tensor& x, const Tensor& mask, const OpAttrs& attrs) {
  Dims shape = concreteShape(shapes::broadcastShapes(
      shapes::SymShape(x.shape().begin(), x.shape().end()),
      shapes::SymShape(mask.shape().begin(), mask.shape().end()), "masked_select"));
  if (!rowsInWorkgroups()) return maskedSelectChunked(x, mask, shape, attrs);
  Tensor flags = nonzeroFlags(mask, shape);
  const int64_t count = flagsAndCount(flags);
  const Tensor in[] = {x, mask};
  OpSignature sig = ruleWithSize(OpKind::MaskedSelect, in, attrs, count);
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  if (count == 0) return out;
  Tensor values = emptyDevice(shape, sig.dtype);
  copyInto(values, x);
  compact(kSelect, out, flags, &values, nullptr, {});
  return out;
}

Tensor maskedScatter(std::span<const Tensor> in, const OpAttrs& attrs) {
  if (!rowsInWorkgroups()) return maskedScatterChunked(in, attrs);
  const Tensor& x = in[0];
  Tensor flags = nonzeroFlags(in[1], x.shape());
  const int64_t count = flagsAndCount(flags);
  OpSignature sig = ruleWithSize(OpKind::MaskedScatter, in, attrs, count);
  if (in[2].numel() < count)
    throwUserError(ErrorKind::ValueError,
                   "masked_scatter: the mask selects " + std::to_string(count) +
                       " elements but the source has only " + std::to_string(in[2].numel()));
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  Tensor xs = emptyDevice(x.shape(), sig.dtype);
  copyInto(xs, x);
  Tensor src = emptyDevice(Dims{std::max<int64_t>(in[2].numel(), 1)}, sig.dtype);
  if (in[2].numel() > 0) copyInto(src.slice(0, 0, in[2].numel(), 1), reshapeDevice(in[2], Dims{in[2].numel()}));
  compact(kScatter, out, flags, &xs, &src, {});
  return out;
}

// Note [Merge sort]
// unique sorts its keys with a bottom-up merge sort: runs of kSortRun keys sorted in place by
// one invocation each, then log2(n / kSortRun) passes that each merge pairs of runs into the
// other of two buffers. In a pass every invocation writes kMergeSegment consecutive outputs
// (fewer while runs are short): a binary search on the merge path finds where its segment
// starts in the two runs, then it merges serially. A pass reads and writes each key once, and
// no pass needs a barrier inside a workgroup. It replaced a bitonic sort of one dispatch per
// compare-exchange stage (253 passes over 4M keys: unique of 4M ints took 2.6 s on lavapipe).
constexpr uint32_t kSortRun = 32, kMergeSegment = 256;

Tensor sortKeys(const Tensor& keys0, DType keyType) {
  const int64_t n = keys0.numel();
  u32(2 * n, "sort size");  // run pairs are indexed up to 2n
  Tensor keys = emptyDevice(Dims{n}, keyType), other = emptyDevice(Dims{n}, keyType);
  copyInto(keys, keys0);
  const uint32_t isFloat = keyType == DType::F32 ? 1 : 0;
  SortPush sp{uint32_t(n), 0, kSortRun, kSortRun};
  {
    const BufferArg bufs[] = {bufferOf(keys), bufferOf(keys)};
    launch("sort", bufs, sp, groupsFor((uint64_t(n) + kSortRun - 1) / kSortRun), isFloat);
  }
  Tensor* src = &keys;
  Tensor* dst = &other;
  sp.mode = 1;
  for (uint64_t w = kSortRun; w < uint64_t(n); w *= 2) {
    sp.width = uint32_t(w);
    sp.seg = uint32_t(std::min<uint64_t>(kMergeSegment, 2 * w));
    const BufferArg bufs[] = {bufferOf(*src), bufferOf(*dst)};
    launch("sort", bufs, sp, groupsFor((uint64_t(n) + sp.seg - 1) / sp.seg), isFloat);
    std::swap(src, dst);
  }
  return *src;
}

// Note [Radix sort]
// On a CPU device (rowsInWorkgroups() false) unique sorts with an LSD radix sort instead
// (radix.comp): keys encoded so their unsigned order is the values' order, then four passes of
// eight bits, each a count per chunk of keys (an invocation walking its chunk in order), an
// exclusive scan of each digit across the chunks, a scan across the 256 digits, and a stable
// scatter that walks the chunks again; then the keys are decoded. Every walk is sequential per
// invocation, which is what llvmpipe runs fast (Note [Reduction modes]): the merge sort's
// binary searches and per-lane divergent merges cost 18 passes of scattered loads.
struct RadixPush {
  uint32_t n, mode, shift, chunk, chunks;
};
enum RadixMode : uint32_t {
  kRadixEncode, kRadixCount, kRadixScanChunks, kRadixScanDigits, kRadixScatter, kRadixDecode
};

Tensor radixSortKeys(const Tensor& keys0, DType keyType) {
  const int64_t n = keys0.numel();
  Tensor a = emptyDevice(Dims{n}, keyType), b = emptyDevice(Dims{n}, keyType);
  copyInto(b, keys0);
  const uint32_t isFloat = keyType == DType::F32 ? 1 : 0;
  RadixPush pc{u32(n, "element count"), kRadixEncode, 0, 0, 0};
  pc.chunk = uint32_t(std::max<int64_t>(1024, (n + 511) / 512));
  pc.chunks = uint32_t((n + pc.chunk - 1) / pc.chunk);
  Tensor counts = emptyDevice(Dims{int64_t(pc.chunks) * 256}, DType::I32);
  Tensor totals = emptyDevice(Dims{512}, DType::I32);
  auto run = [&](const Tensor& from, const Tensor& to, uint32_t mode, uint64_t invocations) {
    pc.mode = mode;
    const BufferArg bufs[] = {bufferOf(from), bufferOf(to), bufferOf(counts), bufferOf(totals)};
    launch("radix", bufs, pc, groupsFor(invocations), isFloat);
  };
  run(b, a, kRadixEncode, uint64_t(n));
  for (uint32_t shift = 0; shift < 32; shift += 8) {
    pc.shift = shift;
    run(a, b, kRadixCount, pc.chunks);
    run(a, b, kRadixScanChunks, 256);
    run(a, b, kRadixScanDigits, 1);
    run(a, b, kRadixScatter, pc.chunks);
    std::swap(a, b);
  }
  run(a, b, kRadixDecode, uint64_t(n));
  return b;
}

Tensor unique(const Tensor& x, const OpAttrs& attrs) {
  const DType keyType = x.dtype() == DType::F32 ? DType::F32 : DType::I32;
  const int64_t n = x.numel();
  const Tensor in[] = {x};
  if (n == 0) {
    OpSignature sig = ruleWithSize(OpKind::Unique, in, attrs, 0);
    return emptyDevice(concreteShape(sig.shape), sig.dtype);
  }
  const Tensor flat = reshapeDevice(x, Dims{n});
  const Tensor sorted = rowsInWorkgroups() ? sortKeys(flat, keyType) : radixSortKeys(flat, keyType);
  Tensor flags = emptyDevice(Dims{n}, DType::I32);
  BufferArg farg = bufferOf(flags);
  rt().stream().fill({farg.buffer, farg.offset, 4}, 1);
  if (n > 1) {
    const Tensor pair[] = {sorted.slice(0, 1, n, 1), sorted.slice(0, 0, n - 1, 1)};
    elementwise(EW_NE, keyType, flags.slice(0, 1, n, 1), pair);
  }
  const int64_t count = flagsAndCount(flags);
  OpSignature sig = ruleWithSize(OpKind::Unique, in, attrs, count);
  Tensor out = emptyDevice(concreteShape(sig.shape), keyType);
  compact(kSelect, out, flags, &sorted, nullptr, {});
  return castDevice(out, sig.dtype);
}

}  // namespace

Tensor runDataDependent(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs) {
  switch (op) {
    case OpKind::Nonzero:
      return nonzero(in[0], attrs);
    case OpKind::MaskedSelect:
      return maskedSelect(in[0], in[1], attrs);
    case OpKind::MaskedScatter:
      return maskedScatter(in, attrs);
    case OpKind::Unique:
      return unique(in[0], attrs);
    case OpKind::Item:  // the element as a 0-d tensor; the executor reads it (executor_base.h)
      return in[0].reshape(std::vector<int64_t>{});
    case OpKind::RepeatInterleave:
    case OpKind::Bincount:
      return runJagged(op, in, attrs);
    case OpKind::Nms:
      return nmsDevice(in[0], in[1], attrs, flagsAndCount,
                       [](const Tensor& out, const Tensor& flags, const Tensor& order) {
                         compact(kSelect, out, flags, &order, nullptr, {});
                       });
    default:
      TESSEL_ASSERT(false, "not a data-dependent op");
  }
  return {};
}

}  // namespace tessel::backends::vulkan
