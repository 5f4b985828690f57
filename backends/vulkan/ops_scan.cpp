// Scans along one dim (cumsum, cumprod) with scan_rows.comp: the scanned dim is moved last, each
// row is scanned in chunks, and the chunk totals are scanned by the same kernel (recursively)
// and combined back. Everything stays on the device; sizes are push constants.
#include "backends/vulkan/ops.h"

namespace tessel::backends::vulkan {

namespace {

struct ScanRowsPush {
  uint32_t rows, n, chunks, mode, xOff, totals;
};
constexpr int64_t kChunk = 1024;

// Scans the contiguous [rows, n] words of `src` (at element offset srcOff) into `dst`.
void scanRows(const BufferArg& dst, const BufferArg& src, uint32_t srcOff, int64_t rows, int64_t n,
              uint32_t variant) {
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  const uint64_t groups = uint64_t(rows) * uint64_t(chunks);
  ScanRowsPush pc{u32(rows, "rows"), u32(n, "row length"), u32(chunks, "chunks"), 0, srcOff,
                  chunks > 1};
  u32(rows * n, "element count");
  if (chunks == 1) {
    const BufferArg bufs[] = {dst, src, dst};
    launch("scan_rows", bufs, pc, groups, variant, 1u);
    return;
  }
  Scratch totals = scratch(size_t(groups) * 4);
  const BufferArg bufs[] = {dst, src, totals.arg};
  launch("scan_rows", bufs, pc, groups, variant, 1u | 4u);
  scanRows(totals.arg, totals.arg, 0, rows, chunks, variant);
  pc.mode = 1;
  pc.totals = 0;
  launch("scan_rows", bufs, pc, groups, variant, 1u);
}

}  // namespace

Tensor runScan(OpKind op, const Tensor& x0, const OpAttrs& attrs, const OpSignature& sig) {
  const Dims shape = concreteShape(sig.shape);
  const int64_t rank = int64_t(shape.size());
  if (numelOf(shape) == 0) return emptyDevice(shape, sig.dtype);
  const int64_t dim = rank == 0 ? 0 : wrapDim(attrs.dim, rank);
  Tensor x = castDevice(x0, sig.dtype);
  const bool last = rank == 0 || dim == rank - 1;
  Tensor moved = last ? contiguousDevice(x) : contiguousDevice(x.transpose(dim, rank - 1));
  Tensor out = emptyDevice(moved.shape(), sig.dtype);
  const int64_t n = rank == 0 ? 1 : moved.size(rank - 1);
  const uint32_t variant = (op == OpKind::Cumprod ? 1u : 0u) | (sig.dtype == DType::F32 ? 0u : 2u);
  scanRows(bufferOf(out), bufferOf(moved), u32(moved.offset(), "element offset"), moved.numel() / n,
           n, variant);
  if (last) return out;
  return contiguousDevice(out.transpose(dim, rank - 1));
}

}  // namespace tessel::backends::vulkan
