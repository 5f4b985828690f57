// Reductions: lay the input out as contiguous [A, R, B] (a copy only when the reduced dims are
// not adjacent in a contiguous input, as in backends/cpu/reduce.cpp) and run reduce.comp.
#include <optional>

#include "backends/vulkan/ops.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct ReducePush {
  uint32_t A, R, B, inOff;
  float scale;
  uint32_t mode;
  uint32_t chunk, parts;
  uint32_t vec;
};

// Note [Reduction modes]
// reduce.comp has four ways to walk [A, R, B], picked here from the shape:
// - column (B > 1): an invocation per output walks R at stride B; when B and the offset are
//   multiples of 8 an invocation owns eight neighbouring outputs and reads them as one load.
// - blocks (B > 1 on a CPU device): the column walk above reads 256 bytes a step a whole row
//   apart, a new page each step, which llvmpipe runs at memory latency (sum over dim 0 of
//   4096 x 4096 f32: 1.2-2.7 GB/s). Instead each invocation folds a block of rows into its
//   own partial row of B outputs, row after row (every load in memory order, the partial row
//   in cache), and a column pass sums the few partial rows: 6.1 GB/s on the same sum.
// - serial (B == 1, at least kSerialMinRows rows of at most kSerialMaxR): an invocation per
//   row, walking it alone. Many short rows (softmax-sized, mean over the last dim) would
//   otherwise pay a 256-lane shared-memory tree each, which is most of their cost on llvmpipe.
// - long rows (B == 1 otherwise): on a GPU, tree mode: a workgroup per chunk of a row (many
//   workgroups, coalesced loads), lanes combined in shared memory. On a CPU device (lavapipe)
//   serial mode again, an invocation per kSerialChunk of a row, then a pass over the partials:
//   llvmpipe runs each SIMD vector of a workgroup start to end, and the tree's barriers make
//   the shader a coroutine; the serial chunks sum 16M f32 2.2x faster (3.6 -> 8.5 GB/s,
//   bench_vulkan BM_VulkanSumF32/0). Tests run both (setRowsInWorkgroupsForTesting).
// Row modes read eight elements per load when every row starts on a multiple of 8 (vec):
// llvmpipe loads each lane's element with a scalar load, so this takes 8x fewer loads and loop
// steps (Note [Linear elementwise] in elementwise.comp). The mode and vec are push constants,
// chosen per call; the op and dtypes are the pipeline's specialization constant, and every
// pipeline a reduction can need at any size is built on its first use (prepareReduce), so a
// shape change never builds one.
enum Mode : uint32_t { kColumn = 0, kTree = 1, kSerial = 2, kBlocks = 3 };
// Elements of R one output of a pass covers (Note [Loop limit] in shaders/common.glsl).
constexpr int64_t kRowChunk = 256 * 2048, kColumnChunk = 4096;
constexpr int64_t kSerialMinRows = 512, kSerialMaxR = 16384, kSerialChunk = 16384;
// Blocks mode: at least this many rows per invocation, about this many invocations in all.
constexpr int64_t kBlocksMinRows = 8, kBlocksMaxSlabs = 1024;

std::optional<bool> gRowsInWorkgroups;  // tests' override

uint32_t reduceCode(OpKind op) {
  switch (op) {
    case OpKind::Sum: return 0;
    case OpKind::Mean: return 1;
    case OpKind::Max: return 2;
    case OpKind::Min: return 3;
    case OpKind::Argmax: return 4;
    case OpKind::Argmin: return 5;
    case OpKind::All: return 6;
    case OpKind::Any: return 7;
    default: break;
  }
  TESSEL_ASSERT(false, "not a reduction");
  return 0;
}

uint32_t reduceVariant(OpKind op, DType in, DType compute, DType out) {
  return reduceCode(op) | dtypeCode(in) << 4 | dtypeCode(compute) << 8 | dtypeCode(out) << 12;
}

bool isArg(OpKind op) { return op == OpKind::Argmax || op == OpKind::Argmin; }

// Builds the pipelines of every pass `op` may take at any size: the single pass, the first
// pass of a chunked reduction (partials in the compute dtype; a mean sums) and its second pass.
void prepareReduce(OpKind op, DType in, DType compute, DType out) {
  const OpKind first = op == OpKind::Mean ? OpKind::Sum : op;
  const DType partial = isArg(op) ? DType::I32 : compute;
  for (uint32_t v : {reduceVariant(op, in, compute, out), reduceVariant(first, in, compute, partial),
                     reduceVariant(op, compute, compute, out)})
    rt().kernels().get("reduce", v);
  if (isArg(op)) rt().kernels().get("index", 0);  // gatherInRange (Note [Long arg reductions])
}

// One pass: each output reduces up to `chunk` elements of R; `scale` multiplies mean results.
void reducePass(OpKind op, const Tensor& x, int64_t A, int64_t R, int64_t B, DType compute,
                const Tensor& out, Mode mode, int64_t parts, int64_t chunk, double scale) {
  ReducePush pc{};
  pc.A = u32(A, "reduction size");
  pc.R = u32(R, "reduction size");
  pc.B = u32(B, "reduction size");
  u32(A * R * B, "reduction size");
  pc.inOff = u32(x.offset(), "element offset");
  pc.scale = float(scale);
  pc.mode = mode;
  pc.chunk = u32(chunk, "reduction size");
  pc.parts = u32(parts, "reduction size");
  const bool aligned = x.offset() % 8 == 0;
  if (mode == kColumn || mode == kBlocks) pc.vec = aligned && B % 8 == 0;
  else pc.vec = aligned && (A == 1 || R % 8 == 0);
  uint64_t groups = 0;
  if (mode == kTree) groups = uint64_t(A * parts);
  else if (mode == kSerial || mode == kBlocks) groups = groupsFor(uint64_t(A * parts));
  else groups = groupsFor(uint64_t(A * parts * (pc.vec ? B / 8 : B)));
  const BufferArg bufs[] = {bufferOf(out), bufferOf(x)};
  launch("reduce", bufs, pc, groups, reduceVariant(op, x.dtype(), compute, out.dtype()));
}

// Note [Long arg reductions]
// An argmax/argmin row longer than one pass covers (a chunk) runs in three steps: the index
// of the extreme of each chunk (global positions in the row), the chunks' extreme values
// gathered from x at those positions, and the argmax/argmin over the gathered values, which
// picks the chunk; its position is the answer. Chunks are in row order and each step keeps the
// first extreme (NaN counts as extreme), so ties and NaNs resolve as on cpu.
Tensor argOverChunks(OpKind op, const Tensor& x, int64_t A, int64_t R, DType compute, Mode mode,
                     int64_t parts, int64_t chunk, const Dims& outShape) {
  Tensor positions = emptyDevice(Dims{A, parts}, DType::I32);
  reducePass(op, x, A, R, 1, compute, positions, mode, parts, chunk, 1.0);
  const Tensor rows = Tensor::view(x.storage(), Dims{A, R}, Dims{R, 1}, x.offset(), x.dtype());
  Tensor extremes = gatherInRange(rows, positions, 1);
  Tensor winner = reduceARB(op, extremes, A, parts, 1, compute, Dims{A, 1}, DType::I32);
  Tensor best = gatherInRange(positions, winner, 1);
  return reshapeDevice(best, outShape);
}

}  // namespace

void setRowsInWorkgroupsForTesting(std::optional<bool> tree) { gRowsInWorkgroups = tree; }

bool rowsInWorkgroups() {
  if (gRowsInWorkgroups) return *gRowsInWorkgroups;
  return rt().context().properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

Tensor reduceARB(OpKind op, const Tensor& x, int64_t A, int64_t R, int64_t B, DType compute,
                 const Dims& outShape, DType outType) {
  Tensor out = emptyDevice(outShape, outType);
  if (A * B == 0) return out;
  const bool arg = isArg(op);
  TESSEL_ASSERT(B == 1 || !arg, "arg reductions run on rows");
  prepareReduce(op, x.dtype(), compute, outType);
  const double scale = 1.0 / double(R);
  if (B == 1 && A >= kSerialMinRows && R <= kSerialMaxR) {
    reducePass(op, x, A, R, 1, compute, out, kSerial, 1, std::max<int64_t>(R, 1), scale);
    return out;
  }
  if (B > 1 && !rowsInWorkgroups() && A < kBlocksMaxSlabs && R >= 2 * kBlocksMinRows) {
    // Blocks mode: each invocation folds a block of rows into its own partial row, in memory
    // order; then a column pass over the partial rows.
    const int64_t parts0 = std::max<int64_t>(2, std::min<int64_t>(R / kBlocksMinRows,
                                                                  kBlocksMaxSlabs / A));
    const int64_t chunk = (R + parts0 - 1) / parts0, parts = (R + chunk - 1) / chunk;
    const OpKind first = op == OpKind::Mean ? OpKind::Sum : op;
    Tensor partial = emptyDevice(Dims{A * parts * B}, compute);
    reducePass(first, x, A, R, B, compute, partial, kBlocks, parts, chunk, 1.0);
    reducePass(op, partial, A, parts, B, compute, out, kColumn, 1, parts, scale);
    return out;
  }
  const bool serial = B == 1 && !rowsInWorkgroups();
  const Mode mode = B == 1 ? (serial ? kSerial : kTree) : kColumn;
  const int64_t chunk = B == 1 ? (serial ? kSerialChunk : kRowChunk) : kColumnChunk;
  const int64_t parts = std::max<int64_t>(1, (R + chunk - 1) / chunk);
  if (arg && parts > 1) return argOverChunks(op, x, A, R, compute, mode, parts, chunk, outShape);
  if (parts == 1) {
    reducePass(op, x, A, R, B, compute, out, mode, 1, std::max<int64_t>(R, 1), scale);
    return out;
  }
  // R split into chunks: partial results in the compute dtype ([A, parts, B]; a mean sums),
  // then one more pass over the parts.
  const OpKind first = op == OpKind::Mean ? OpKind::Sum : op;
  Tensor partial = emptyDevice(Dims{A * parts * B}, compute);
  reducePass(first, x, A, R, B, compute, partial, mode, parts, chunk, 1.0);
  const Mode second = mode == kTree && A >= kSerialMinRows ? kSerial : mode;  // short rows now
  reducePass(op, partial, A, parts, B, compute, out, second, 1, parts, scale);
  return out;
}

Tensor runReduce(OpKind op, const Tensor& input, const OpAttrs& attrs, const OpSignature& sig) {
  const int64_t rank = input.ndim();
  const std::vector<bool> reduced = shapes::reducedDimsMask(attrs.dims, rank);

  DType compute = input.dtype();
  if (op == OpKind::Sum || op == OpKind::Mean || op == OpKind::Max || op == OpKind::Min)
    compute = sig.dtype;
  if (op == OpKind::All || op == OpKind::Any) compute = DType::Bool;
  if (compute == DType::Bool && op != OpKind::All && op != OpKind::Any) compute = DType::I32;

  int64_t first = rank, last = -1;
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d]) first = std::min(first, d), last = std::max(last, d);
  bool adjacent = true;
  for (int64_t d = first; d <= last; ++d) adjacent = adjacent && reduced[d];
  int64_t A = 1, R = 1, B = 1;
  Tensor x = input;
  const bool arg = op == OpKind::Argmax || op == OpKind::Argmin;  // rows only (B == 1)
  if (input.isContiguous() && adjacent && (!arg || last == rank - 1 || first > last)) {
    for (int64_t d = 0; d < rank; ++d) {
      if (d < first) A *= x.size(d);
      else if (d <= last) R *= x.size(d);
      else B *= x.size(d);
    }
    if (first > last) A = x.numel(), R = 1, B = 1;
  } else {
    Dims perm;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d]) perm.push_back(d), A *= x.size(d);
    for (int64_t d = 0; d < rank; ++d)
      if (reduced[d]) perm.push_back(d), R *= x.size(d);
    x = contiguousDevice(input.permute(perm));
  }
  const bool needsElements = op == OpKind::Max || op == OpKind::Min || op == OpKind::Argmax ||
                             op == OpKind::Argmin;
  if (needsElements && R == 0 && A * B > 0)
    throwUserError(attrs.dims.empty() ? ErrorKind::ValueError : ErrorKind::IndexError,
                   std::string(shapes::opName(op)) + ": cannot reduce over a dimension of size 0");
  return reduceARB(op, x, A, R, B, compute, concreteShape(sig.shape), sig.dtype);
}

}  // namespace tessel::backends::vulkan
