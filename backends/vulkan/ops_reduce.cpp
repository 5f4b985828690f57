// Reductions: lay the input out as contiguous [A, R, B] (a copy only when the reduced dims are
// not adjacent in a contiguous input, as in backends/cpu/reduce.cpp) and run reduce.comp.
#include "backends/vulkan/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct ReducePush {
  uint32_t A, R, B, op;
  uint32_t tin, tout, compute, inOff;
  float scale;
  uint32_t rowMode;
  uint32_t chunk, parts;
};
// Elements of R one output of a pass covers: 2048 steps per invocation in row mode (256
// invocations), 4096 in column mode (Note [Loop limit] in shaders/common.glsl).
constexpr int64_t kRowChunk = 256 * 2048, kColumnChunk = 4096;

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

}  // namespace

namespace {

// One pass: each output reduces up to `chunk` elements of R; `scale` multiplies mean results.
void reducePass(OpKind op, const Tensor& x, int64_t A, int64_t R, int64_t B, DType compute,
                const Tensor& out, int64_t parts, int64_t chunk, double scale) {
  ReducePush pc{};
  pc.A = u32(A, "reduction size");
  pc.R = u32(R, "reduction size");
  pc.B = u32(B, "reduction size");
  u32(A * R * B, "reduction size");
  pc.op = reduceCode(op);
  pc.tin = dtypeCode(x.dtype());
  pc.tout = dtypeCode(out.dtype());
  pc.compute = dtypeCode(compute);
  pc.inOff = u32(x.offset(), "element offset");
  pc.scale = float(scale);
  pc.rowMode = B == 1 ? 1 : 0;
  pc.chunk = u32(chunk, "reduction size");
  pc.parts = u32(parts, "reduction size");
  const BufferArg bufs[] = {bufferOf(out), bufferOf(x)};
  launch("reduce", bufs, pc, B == 1 ? uint64_t(A * parts) : groupsFor(uint64_t(A * parts * B)));
}

// Note [Long arg reductions]
// An argmax/argmin row longer than one pass covers (kRowChunk) runs in three steps: the index
// of the extreme of each chunk (global positions in the row), the chunks' extreme values
// gathered from x at those positions, and the argmax/argmin over the gathered values, which
// picks the chunk; its position is the answer. Chunks are in row order and each step keeps the
// first extreme (NaN counts as extreme), so ties and NaNs resolve as on cpu.
Tensor argOverChunks(OpKind op, const Tensor& x, int64_t A, int64_t R, DType compute,
                     int64_t parts, const Dims& outShape) {
  Tensor positions = emptyDevice(Dims{A, parts}, DType::I32);
  reducePass(op, x, A, R, 1, compute, positions, parts, kRowChunk, 1.0);
  const Tensor rows = Tensor::view(x.storage(), Dims{A, R}, Dims{R, 1}, x.offset(), x.dtype());
  Tensor extremes = gatherInRange(rows, positions, 1);
  Tensor chunk = reduceARB(op, extremes, A, parts, 1, compute, Dims{A, 1}, DType::I32);
  Tensor best = gatherInRange(positions, chunk, 1);
  return reshapeDevice(best, outShape);
}

}  // namespace

Tensor reduceARB(OpKind op, const Tensor& x, int64_t A, int64_t R, int64_t B, DType compute,
                 const Dims& outShape, DType outType) {
  Tensor out = emptyDevice(outShape, outType);
  if (A * B == 0) return out;
  const bool arg = op == OpKind::Argmax || op == OpKind::Argmin;
  TESSEL_ASSERT(B == 1 || !arg, "arg reductions run on rows");
  const int64_t chunk = B == 1 ? kRowChunk : kColumnChunk;
  const int64_t parts = std::max<int64_t>(1, (R + chunk - 1) / chunk);
  if (arg && parts > 1) return argOverChunks(op, x, A, R, compute, parts, outShape);
  const double scale = 1.0 / double(R);
  if (parts == 1) {
    reducePass(op, x, A, R, B, compute, out, 1, std::max<int64_t>(R, 1), scale);
    return out;
  }
  // R split into chunks: partial results in the compute dtype ([A, parts, B]; a mean sums),
  // then one more pass over the parts.
  const OpKind first = op == OpKind::Mean ? OpKind::Sum : op;
  Tensor partial = emptyDevice(Dims{A * parts * B}, compute);
  reducePass(first, x, A, R, B, compute, partial, parts, chunk, 1.0);
  reducePass(op, partial, A, parts, B, compute, out, 1, parts, scale);
  return out;
}

Tensor runReduce(OpKind op, const Tensor& input, const OpAttrs& attrs, const OpSignature& sig) {
  const int64_t rank = input.ndim();
  std::vector<bool> reduced(rank, attrs.dims.empty());
  for (int64_t d : attrs.dims) reduced[wrapDim(d, rank)] = true;

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
    throwUserError(ErrorKind::ValueError, std::string(shapes::opName(op)) +
                                              ": cannot reduce over a dimension of size 0");
  return reduceARB(op, x, A, R, B, compute, concreteShape(sig.shape), sig.dtype);
}

}  // namespace tessel::backends::vulkan
