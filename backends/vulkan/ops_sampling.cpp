// randperm, multinomial, bernoulli on the device (shaders/sampling.comp), drawing the cpu's
// numbers (backends/cpu/sampling.cpp): each element's Philox word by its index, multinomial's
// keys and running sums in integers (Note [Exact sampling keys]), so both backends give the
// same results under one seed(). randperm sorts its keys with the row sort of argsort; multinomial
// without replacement sorts each row's race keys the same way and keeps the first n; with
// replacement it scans each row's quantized weights (per chunk of 256, then the chunk totals)
// and binary-searches one target per draw. Bad values raise a flag that is read back after the
// run, and then the cpu's check names the value (as scatter's IndexError does).
#include "backends/cpu/kernels.h"
#include "backends/rng.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct SamplingPush {
  uint32_t count, rows, k, draws;
  uint32_t pOff;
  uint32_t keyLo, keyHi, baseLo, baseHi;
  uint32_t replacement, chunks, totalsOff;
};
enum SamplingMode : uint32_t {
  kBernoulli,
  kPermKeys,
  kRaceKeys,
  kRowStats,
  kRowCheck,
  kLocalScan,
  kChunkScan,
  kDraw
};
constexpr uint32_t kChunk = 256;  // CHUNK in sampling.comp

// Reserves the op's words (as many as the cpu kernel reserves) into the push constants.
void reserveWords(SamplingPush& pc, int64_t words) {
  const PhiloxStream s = reserveRandom(uint64_t(words));
  pc.keyLo = uint32_t(s.key), pc.keyHi = uint32_t(s.key >> 32);
  pc.baseLo = uint32_t(s.base), pc.baseHi = uint32_t(s.base >> 32);
}

// An invocation per work item, or per block of 4 elements for the modes that draw words.
void run(SamplingMode mode, std::span<const BufferArg> bufs, SamplingPush pc, int64_t items,
         uint32_t writeSlots) {
  if (items == 0) return;
  pc.count = u32(items, "element count");
  const bool perBlock = mode <= kRaceKeys || mode == kDraw;
  launch("sampling", bufs, pc, groupsFor(perBlock ? (uint64_t(items) + 3) / 4 : uint64_t(items)),
         mode, writeSlots);
}

// After the run: a raised flag is the cpu's ValueError, which names the value.
void checkFlag(const Scratch& aux, OpKind op, const Tensor& p, const OpAttrs& attrs,
               const OpSignature& sig) {
  if (readFlag(aux) == 0) return;
  cpu::checkSamplingInput(op, toCpu(p), attrs, sig);
  TESSEL_ASSERT(false, "sampling kernel flagged valid probabilities");
}

Tensor randperm(const OpSignature& sig) {
  const Dims shape = concreteShape(sig.shape);
  const int64_t n = shape.at(0);
  SamplingPush pc{};
  reserveWords(pc, n);
  if (n == 0) return emptyDevice(shape, DType::I32);
  Tensor keys = emptyDevice(Dims{1, n}, DType::I32);
  const BufferArg bufs[] = {bufferOf(keys)};
  run(kPermKeys, bufs, pc, n, 1u);
  return reshapeDevice(argsortRows(keys, 1, n, false), shape);
}

Tensor bernoulli(const Tensor& p0, const OpAttrs& attrs, const OpSignature& sig) {
  const Tensor p = contiguousDevice(castDevice(p0, DType::F32));
  const int64_t n = p.numel();
  SamplingPush pc{};
  reserveWords(pc, n);
  Tensor out = emptyDevice(concreteShape(sig.shape), DType::F32);
  if (n == 0) return out;
  pc.pOff = u32(p.offset(), "element offset");
  Scratch aux = errorFlag();
  const BufferArg bufs[] = {bufferOf(out), bufferOf(p), aux.arg};
  run(kBernoulli, bufs, pc, n, 1u | 4u);
  checkFlag(aux, OpKind::Bernoulli, p, attrs, sig);
  return out;
}

Tensor multinomial(const Tensor& p0, const OpAttrs& attrs, const OpSignature& sig) {
  const Tensor p = contiguousDevice(castDevice(p0, DType::F32));
  const bool replacement = !attrs.scalars.empty() && attrs.scalars[0] != 0;
  const Dims outShape = concreteShape(sig.shape);
  const int64_t k = p.shape().back(), rows = p.ndim() == 2 ? p.size(0) : 1;
  const int64_t n = outShape.back();
  SamplingPush pc{};
  reserveWords(pc, rows * (replacement ? n : k));
  pc.rows = u32(rows, "rows");
  pc.k = u32(k, "categories");
  pc.draws = u32(n, "samples");
  pc.pOff = u32(p.offset(), "element offset");
  pc.replacement = replacement ? 1 : 0;
  pc.chunks = uint32_t((k + kChunk - 1) / kChunk);
  pc.totalsOff = u32(1 + 2 * rows, "rows");
  const int64_t pieces = rows * int64_t(pc.chunks);
  Scratch aux = scratch(size_t(pc.totalsOff + 2 * pieces) * 4);
  rt().stream().fill(aux.arg, 0);
  const BufferArg pb = bufferOf(p);
  {
    const BufferArg bufs[] = {aux.arg, pb, aux.arg};
    run(kRowStats, bufs, pc, pieces, 4u);
    run(kRowCheck, bufs, pc, rows, 4u);
  }
  Tensor out;
  if (!replacement) {
    Tensor keys = emptyDevice(Dims{rows, k}, DType::I32);
    const BufferArg bufs[] = {bufferOf(keys), pb, aux.arg};
    run(kRaceKeys, bufs, pc, rows * k, 1u);
    out = rows * n == 0
              ? emptyDevice(outShape, DType::I32)
              : reshapeDevice(contiguousDevice(argsortRows(keys, rows, k, false).slice(1, 0, n, 1)),
                              outShape);
  } else {
    out = emptyDevice(outShape, DType::I32);
    Tensor cum = emptyDevice(Dims{2 * rows * k}, DType::I32);  // a u64 running sum per category
    const BufferArg bufs[] = {bufferOf(cum), pb, aux.arg, bufferOf(out)};
    run(kLocalScan, bufs, pc, pieces, 1u | 4u);
    run(kChunkScan, bufs, pc, rows, 4u);
    run(kDraw, bufs, pc, rows * n, 8u);
  }
  checkFlag(aux, OpKind::Multinomial, p, attrs, sig);
  return out;
}

}  // namespace

Tensor runSampling(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                   const OpSignature& sig) {
  switch (op) {
    case OpKind::Randperm:
      return randperm(sig);
    case OpKind::Bernoulli:
      return bernoulli(in[0], attrs, sig);
    case OpKind::Multinomial:
      return multinomial(in[0], attrs, sig);
    default:
      TESSEL_ASSERT(false, "runSampling: not a sampling op");
  }
  return {};
}

}  // namespace tessel::backends::vulkan
