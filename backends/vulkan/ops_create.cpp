// Creation ops on create.comp: full, arange, eye, rand, randn, randint (Philox, as on cpu).
#include <cstring>

#include "backends/rng.h"
#include "backends/vulkan/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct CreatePush {
  uint32_t n, mode, dtype, cols;
  uint32_t keyLo, keyHi, baseLo, baseHi;
  uint32_t valueBits;
  float p, scale;
  uint32_t xOff;
  int64_t start, step;
};
static_assert(sizeof(CreatePush) == 64);
constexpr uint32_t kFull = 0, kArange = 1, kEye = 2, kRand = 3, kRandn = 4, kRandint = 5;

uint32_t valueBits(double v, DType t) {
  if (t == DType::F32) {
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  if (t == DType::I32) return uint32_t(int32_t(v));
  return v != 0 ? 1u : 0u;
}

}  // namespace

Tensor runCreate(OpKind op, const OpAttrs& attrs, const OpSignature& sig) {
  if (op == OpKind::Randperm) return runSampling(op, {}, attrs, sig);
  Tensor out = emptyDevice(concreteShape(sig.shape), sig.dtype);
  const int64_t n = out.numel();
  CreatePush pc{};
  pc.dtype = dtypeCode(sig.dtype);
  switch (op) {
    case OpKind::Full:
      pc.mode = kFull;
      pc.valueBits = valueBits(attrs.scalars.empty() ? 0.0 : attrs.scalars[0], sig.dtype);
      break;
    case OpKind::Arange:
      pc.mode = kArange;
      pc.start = attrs.start ? attrs.start->constant() : 0;
      pc.step = attrs.step.constant();
      break;
    case OpKind::Eye:
      pc.mode = kEye;
      pc.cols = u32(out.ndim() > 1 ? out.size(1) : out.size(0), "eye size");
      if (pc.cols == 0) return out;
      break;
    case OpKind::Rand:
    case OpKind::Randn:
    case OpKind::Randint: {
      pc.mode = op == OpKind::Rand ? kRand : op == OpKind::Randn ? kRandn : kRandint;
      if (op == OpKind::Randint) {
        const int64_t lo = int64_t(attrs.scalars.at(0)), hi = int64_t(attrs.scalars.at(1));
        if (hi <= lo)
          throwUserError(ErrorKind::ValueError, "randint: empty range [" + std::to_string(lo) +
                                                    ", " + std::to_string(hi) + ")");
        pc.start = lo;
        pc.step = hi - lo;
      }
      PhiloxStream s = reserveRandom(uint64_t(n));
      pc.keyLo = uint32_t(s.key), pc.keyHi = uint32_t(s.key >> 32);
      pc.baseLo = uint32_t(s.base), pc.baseHi = uint32_t(s.base >> 32);
      break;
    }
    default:
      TESSEL_ASSERT(false, "not a creation op");
  }
  if (n == 0) return out;
  if (pc.mode == kFull) {
    // A transfer fill (memset on lavapipe, a copy engine on a GPU) beats a kernel storing one
    // word per invocation: zeros of 4M f32 15 -> 2 ms on lavapipe. Bools repeat the byte in
    // every byte of the word; the few bytes past a bool tensor's end stay inside its
    // allocation (whole 256-byte units: Note [Device storage]).
    const uint32_t word = sig.dtype == DType::Bool ? pc.valueBits * 0x01010101u : pc.valueBits;
    const BufferArg b = bufferOf(out);
    const VkDeviceSize bytes = VkDeviceSize(n) * VkDeviceSize(elementSize(sig.dtype));
    rt().stream().fill({b.buffer, b.offset, (bytes + 3) / 4 * 4}, word);
    return out;
  }
  pc.n = u32(n, "element count");
  const BufferArg bufs[] = {bufferOf(out)};
  launch("create", bufs, pc, groupsFor(pc.mode >= kRand ? (uint64_t(pc.n) + 3) / 4 : pc.n), pc.mode);
  return out;
}

}  // namespace tessel::backends::vulkan
