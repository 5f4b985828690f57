// Pooling and resizing on the device with pool.comp: forward ops run one invocation per output
// element, backward ops one per plane (each plane's grad is summed in order by one
// invocation: no atomics, and the cpu's order of additions). Sizes and window parameters are
// push constants, so one pipeline per op serves every image size.
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/pool_geometry.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct PoolPush {
  uint32_t planes, H, W, OH, OW;
  int32_t kh, kw, sh, sw, ph, pw, dh, dw;
  uint32_t flags;
  int32_t divisor;
  float scaleH, scaleW;
  uint32_t xOff, gOff;
};
static_assert(sizeof(PoolPush) <= 128);

// The shader's variant of op (V_* in pool.comp).
uint32_t variantOf(OpKind op, const shapes::PoolAttrs& p) {
  uint32_t v = 0;
  switch (shapes::poolForward(op)) {
    case OpKind::MaxPool2d:
      v = 0;
      break;
    case OpKind::AvgPool2d:
      v = 1;
      break;
    case OpKind::AdaptiveAvgPool2d:
      v = 2;
      break;
    default:
      v = p.mode == shapes::InterpMode::Nearest ? 3 : 4;
      break;
  }
  if (op == OpKind::MaxPool2dDoubleBackward) v |= 16u;  // V_GATHER
  return v | (shapes::isPoolBackward(op) ? 8u : 0u);
}

int32_t i32(int64_t v, const char* what) {
  return int32_t(u32(v, what));
}

}  // namespace

Tensor runPool(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& sig) {
  const Dims shape = concreteShape(sig.shape);
  const bool backward = shapes::isPoolBackward(op);
  // max_pool2d_double_backward: [gg, x], gg of x's shape, read per output element.
  const bool gather = op == OpKind::MaxPool2dDoubleBackward;
  Tensor out = emptyDevice(shape, DType::F32);
  const Tensor x = contiguousDevice(castDevice(in[backward || gather ? 1 : 0], DType::F32));
  const Tensor g =
      backward || gather ? contiguousDevice(castDevice(in[0], DType::F32)) : Tensor();
  const Dims& xs = x.shape();
  const Dims& ys = backward ? g.shape() : shape;
  const size_t r = xs.size();
  int64_t planes = 1;
  for (size_t d = 0; d + 2 < r; ++d) planes *= xs[d];
  if (out.numel() == 0) return out;
  if (planes == 0) return out;
  const shapes::PoolAttrs& p = attrs.pool;
  PoolPush pc{};
  pc.planes = u32(planes, "plane count");
  pc.H = u32(xs[r - 2], "height"), pc.W = u32(xs[r - 1], "width");
  pc.OH = u32(ys[r - 2], "output height"), pc.OW = u32(ys[r - 1], "output width");
  u32(planes * xs[r - 2] * xs[r - 1], "element count");
  u32(planes * ys[r - 2] * ys[r - 1], "element count");
  pc.kh = i32(p.kernel[0], "kernel"), pc.kw = i32(p.kernel[1], "kernel");
  pc.sh = i32(p.stride[0], "stride"), pc.sw = i32(p.stride[1], "stride");
  pc.ph = i32(p.padding[0], "padding"), pc.pw = i32(p.padding[1], "padding");
  const bool max = shapes::poolForward(op) == OpKind::MaxPool2d;
  pc.dh = max ? i32(p.dilation[0], "dilation") : 1,
  pc.dw = max ? i32(p.dilation[1], "dilation") : 1;
  pc.flags = (p.countIncludePad ? 1u : 0u) | (p.alignCorners ? 2u : 0u);
  pc.divisor = i32(p.divisor, "divisor");
  const bool nearest = p.mode == shapes::InterpMode::Nearest;
  pc.scaleH = shapes::interpScale(xs[r - 2], ys[r - 2], !nearest && p.alignCorners, p.scale[0]);
  pc.scaleW = shapes::interpScale(xs[r - 1], ys[r - 1], !nearest && p.alignCorners, p.scale[1]);
  pc.xOff = u32(x.offset(), "element offset");
  pc.gOff = backward || gather ? u32(g.offset(), "element offset") : 0;
  const uint32_t variant = variantOf(op, p);
  if (gather) {
    const BufferArg bufs[] = {bufferOf(out), bufferOf(x), bufferOf(g)};
    launch("pool", bufs, pc, groupsFor(uint64_t(out.numel())), variant, 1u);
    return out;
  }
  if (!backward) {
    const BufferArg bufs[] = {bufferOf(out), bufferOf(x)};
    launch("pool", bufs, pc, groupsFor(uint64_t(out.numel())), variant, 1u);
    return out;
  }
  const BufferArg bufs[] = {bufferOf(out), bufferOf(x), bufferOf(g)};
  launch("pool", bufs, pc, groupsFor(uint64_t(planes)), variant, 1u);
  return out;
}

}  // namespace tessel::backends::vulkan
