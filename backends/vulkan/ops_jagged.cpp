// The jagged ops on the device. repeat_interleave: the repeats' prefix sum (scan_rows.comp), one
// read-back of the total (and of the smallest repeat, for the error) to size the output, then
// repeat_interleave.comp. bincount: the values' min and max read back, then scatter_add of the
// weights (or 1) into zeros. segment_reduce: the lengths' prefix sum, a read-back of their
// total and minimum (PyTorch's errors), then segment_reduce.comp (one invocation per output
// element walking its segment). Sizes are push constants; no pipeline per size.
#include <cstring>

#include "backends/jagged_checks.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

using jagged::sizedRule;
using jagged::splitAround;

struct RepeatPush {
  uint32_t count, total, n, inner, xOff, cumOff;
};
struct SegmentPush {
  uint32_t count, segs, N, inner, dataOff, cumOff, lenOff, hasInit, init;
};

int32_t readWord(const Tensor& t, int64_t element) {
  int32_t v = 0;
  readBack(bufferOf(t), VkDeviceSize(t.offset() + element) * 4, &v, 4);
  return v;
}

// The smallest value of a 1-D i32 device tensor (n >= 1), read back.
int32_t minOf(const Tensor& v) {
  OpAttrs a;
  return readWord(runReduce(OpKind::Min, v, a, OpSignature{{}, DType::I32}), 0);
}
int32_t maxOf(const Tensor& v) {
  OpAttrs a;
  return readWord(runReduce(OpKind::Max, v, a, OpSignature{{}, DType::I32}), 0);
}

// Non-negative counts: else the cpu's ValueError, naming the first negative one.
void requireNonNegative(const Tensor& counts, const char* op, const char* what) {
  if (counts.numel() == 0 || minOf(counts) >= 0) return;
  const Tensor host = toCpu(counts).contiguous();
  jagged::requireNonNegative(host.data<int32_t>(), host.numel(), op, what);
}

// The inclusive prefix sum of a 1-D i32 device tensor (contiguous, on the device).
Tensor prefixSum(const Tensor& counts) {
  OpAttrs a;
  a.dim = 0;
  return runScan(OpKind::Cumsum, contiguousDevice(counts), a,
                 OpSignature{{counts.numel()}, DType::I32});
}

Tensor repeatInterleave(std::span<const Tensor> in, const OpAttrs& attrs) {
  const Tensor& reps = in[1];
  requireNonNegative(reps, "repeat_interleave", "repeats");
  const int64_t n = reps.numel();
  Tensor cum = n > 0 ? prefixSum(reps) : Tensor();
  const int64_t total = n > 0 ? readWord(cum, n - 1) : 0;
  jagged::checkOutputSize(attrs, total);
  const OpSignature sig = sizedRule(OpKind::RepeatInterleave, in, attrs, total);
  // Whole 32-bit words only: bool goes through i32 and back.
  const Tensor x = contiguousDevice(
      castDevice(in[0], in[0].dtype() == DType::Bool ? DType::I32 : in[0].dtype()));
  Tensor out = emptyDevice(concreteShape(sig.shape), x.dtype());
  if (out.numel() > 0) {
    int64_t outer, inner;
    splitAround(x, wrapDim(attrs.dim, x.ndim()), outer, inner);
    RepeatPush pc{u32(out.numel(), "element count"),
                  u32(total, "output size"),
                  u32(n, "size"),
                  u32(inner, "row size"),
                  u32(x.offset(), "element offset"),
                  u32(cum.offset(), "element offset")};
    const BufferArg bufs[] = {bufferOf(out), bufferOf(x), bufferOf(cum)};
    launch("repeat_interleave", bufs, pc, groupsFor(pc.count), 0, 1u);
  }
  return castDevice(out, sig.dtype);
}

Tensor bincount(std::span<const Tensor> in, const OpAttrs& attrs) {
  const Tensor& x = in[0];
  requireNonNegative(x, "bincount", "x");
  const int64_t minlength = attrs.scalars.empty() ? 0 : int64_t(attrs.scalars[0]);
  const int64_t len = std::max<int64_t>(x.numel() > 0 ? int64_t(maxOf(x)) + 1 : 0, minlength);
  const OpSignature sig = sizedRule(OpKind::Bincount, in, attrs, len);
  OpAttrs zero;
  zero.scalars = {0.0};
  Tensor out = runCreate(OpKind::Full, zero, sig);
  if (x.numel() == 0) return out;
  Tensor src;
  if (in.size() == 2) {
    src = castDevice(in[1], DType::F32);
  } else {
    OpAttrs one;
    one.scalars = {1.0};
    src = runCreate(OpKind::Full, one, OpSignature{{}, DType::I32});
  }
  OpAttrs add;
  add.dim = 0;
  const Tensor args[] = {out, x, src};
  return runScatter(OpKind::ScatterAdd, args, add, sig);
}

}  // namespace

Tensor runSegmentReduce(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& sig) {
  const Tensor data = contiguousDevice(castDevice(in[0], DType::F32));
  const Tensor lengths = contiguousDevice(in[1]);
  const int64_t axis = wrapDim(attrs.dim, data.ndim());
  requireNonNegative(lengths, "segment_reduce", "lengths");
  const int64_t segs = lengths.numel();
  Tensor cum = segs > 0 ? prefixSum(lengths) : Tensor();
  const int64_t total = segs > 0 ? readWord(cum, segs - 1) : 0;
  jagged::checkSegmentTotal(total, data.size(axis), axis);
  Tensor out = emptyDevice(concreteShape(sig.shape), DType::F32);
  if (out.numel() == 0) return out;
  int64_t outer, inner;
  splitAround(data, axis, outer, inner);
  SegmentPush pc{u32(out.numel(), "element count"),
                 u32(segs, "segments"),
                 u32(data.size(axis), "size"),
                 u32(inner, "row size"),
                 u32(data.offset(), "element offset"),
                 u32(cum.offset(), "element offset"),
                 u32(lengths.offset(), "element offset"),
                 attrs.scalars.empty() ? 0u : 1u,
                 0};
  if (!attrs.scalars.empty()) {
    const float init = float(attrs.scalars[0]);
    std::memcpy(&pc.init, &init, 4);
  }
  const BufferArg bufs[] = {bufferOf(out), bufferOf(data), bufferOf(cum), bufferOf(lengths)};
  launch("segment_reduce", bufs, pc, groupsFor(pc.count), uint32_t(attrs.scatterMode), 1u);
  return out;
}

Tensor runJagged(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs) {
  if (op == OpKind::RepeatInterleave) return repeatInterleave(in, attrs);
  TESSEL_ASSERT(op == OpKind::Bincount, "runJagged: not a jagged op");
  return bincount(in, attrs);
}

}  // namespace tessel::backends::vulkan
