// conv2d and its backward ops with conv2d.comp (direct convolution, one invocation per result
// element, sizes and options in push constants). Operands are made contiguous f32 first; an
// empty sum (empty batch, no input channels) needs no case of its own: its loops run 0 times.
#include "backends/vulkan/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct ConvPush {
  uint32_t n;
  uint32_t N, C, H, W, O, Ho, Wo, kH, kW;
  uint32_t sH, sW, pH, pW, dH, dW, groups, bias;
  uint32_t aOff, bOff, biasOff;
};
static_assert(sizeof(ConvPush) <= 128);

uint32_t modeOf(OpKind op) {
  return op == OpKind::Conv2d ? 0u : op == OpKind::Conv2dBackwardInput ? 1u : 2u;
}

}  // namespace

Tensor runConv(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& sig) {
  const Tensor a = contiguousDevice(castDevice(in[0], DType::F32));
  const Tensor b = contiguousDevice(castDevice(in[1], DType::F32));
  const bool bias = op == OpKind::Conv2d && in.size() > 2;
  const Dims outShape = concreteShape(sig.shape);
  Tensor out = emptyDevice(outShape, DType::F32);
  if (numelOf(outShape) == 0) return out;
  Dims x, w, y;
  switch (op) {
    case OpKind::Conv2d:
      x = a.shape(), w = b.shape(), y = outShape;
      break;
    case OpKind::Conv2dBackwardInput:
      x = outShape, w = b.shape(), y = a.shape();
      break;
    default:
      x = b.shape(), w = outShape, y = a.shape();
      break;
  }
  const shapes::ConvParams& c = attrs.conv;
  ConvPush pc{};
  pc.n = u32(numelOf(outShape), "element count");
  for (const Dims* d : {&x, &w, &y}) u32(numelOf(*d), "element count");
  pc.N = u32(x[0], "batch"), pc.C = u32(x[1], "channels"), pc.H = u32(x[2], "height");
  pc.W = u32(x[3], "width"), pc.O = u32(w[0], "out channels"), pc.Ho = u32(y[2], "height");
  pc.Wo = u32(y[3], "width"), pc.kH = u32(w[2], "kernel"), pc.kW = u32(w[3], "kernel");
  pc.sH = u32(c.stride[0], "stride"), pc.sW = u32(c.stride[1], "stride");
  pc.pH = u32(c.padBegin[0], "padding"), pc.pW = u32(c.padBegin[1], "padding");
  pc.dH = u32(c.dilation[0], "dilation"), pc.dW = u32(c.dilation[1], "dilation");
  pc.groups = u32(c.groups, "groups");
  pc.aOff = u32(a.offset(), "element offset"), pc.bOff = u32(b.offset(), "element offset");
  BufferArg bufs[4] = {bufferOf(out), bufferOf(a), bufferOf(b), bufferOf(b)};
  Tensor bv;
  if (bias) {
    bv = contiguousDevice(castDevice(in[2], DType::F32));
    bufs[3] = bufferOf(bv);
    pc.bias = 1;
    pc.biasOff = u32(bv.offset(), "element offset");
  }
  // padEnd only bounds Ho/Wo, which the shape rule computed: the kernels read padBegin.
  launch("conv2d", bufs, pc, groupsFor(pc.n), modeOf(op), 1u);
  return out;
}

}  // namespace tessel::backends::vulkan
