// index_add, index_copy, scatter, scatter_add, scatter_reduce with scatter.comp: the output
// starts as a contiguous copy of x, every source element is combined into its target with
// atomics, and the error flag is read back after the run (a bad index is an IndexError naming
// the first bad index, as on cpu). One pipeline per mode and dtype serves every size.
#include <cstring>

#include "backends/vulkan/ops.h"
#include "backends/vulkan/shaders/ew_ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

using shapes::ScatterMode;

struct ScatterPush {
  uint32_t n, rank, dim, dimSize;
  uint32_t srcOff, idxOff, flags, alpha;
  uint32_t shape[6];
  uint32_t srcStrides[6];
  uint32_t idxStrides[6];
  uint32_t outStrides[6];
};
static_assert(sizeof(ScatterPush) <= 128);

[[noreturn]] void badIndex(OpKind op, const Tensor& idx, int64_t size, int64_t dim) {
  for (int64_t i : toCpu(idx).toInts())
    if (i < 0 || i >= size)
      throwUserError(ErrorKind::IndexError, std::string(shapes::opName(op)) + ": index " +
                                                std::to_string(i) + " is out of range for dim " +
                                                std::to_string(dim) + " of size " +
                                                std::to_string(size));
  TESSEL_ASSERT(false, "scatter kernel flagged a valid index");
  throw 0;
}

}  // namespace

Tensor runScatter(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& sig) {
  const Tensor& x = in[0];
  const bool slices = op == OpKind::IndexAdd || op == OpKind::IndexCopy;
  if (x.ndim() == 0) {  // a 0-d input writes like a 1-element vector (PyTorch, and cpu)
    const Tensor parts[] = {
        reshapeDevice(x, Dims{1}), reshapeDevice(in[1], Dims{in[1].numel()}),
        in[2].ndim() == 0 || slices ? reshapeDevice(in[2], Dims{in[2].numel()}) : in[2]};
    Tensor r = runScatter(op, parts, attrs, OpSignature{{1}, sig.dtype});
    return reshapeDevice(r, Dims{});
  }
  Tensor out = emptyDevice(x.shape(), x.dtype());
  copyInto(out, x);
  const int64_t rank = x.ndim(), dim = wrapDim(attrs.dim, rank);
  if (rank > 6)
    throwUserError(ErrorKind::DeviceError,
                   "vulkan: " + std::string(shapes::opName(op)) + " supports tensors of rank <= 6");
  const Tensor& idx = in[1];
  const Tensor& src = in[2];
  const Dims iter = slices ? src.shape() : idx.shape();
  const int64_t n = numelOf(iter);
  if (n == 0) return out;
  ScatterMode mode = attrs.scatterMode;
  if (op == OpKind::IndexCopy || op == OpKind::Scatter) mode = ScatterMode::Assign;
  if (op == OpKind::IndexAdd || op == OpKind::ScatterAdd) mode = ScatterMode::Sum;
  if (mode == ScatterMode::Mean && x.dtype() == DType::Bool)
    throwUserError(ErrorKind::TypeError, "scatter_reduce: \"mean\" is not supported for bool");
  const bool includeSelf = op != OpKind::ScatterReduce || attrs.includeSelf;
  const bool mean = mode == ScatterMode::Mean;

  ScatterPush pc{};
  pc.n = u32(n, "element count");
  pc.rank = uint32_t(rank);
  pc.dim = uint32_t(dim);
  pc.dimSize = u32(x.size(dim), "dimension");
  pc.srcOff = u32(src.offset(), "element offset");
  pc.idxOff = u32(idx.offset(), "element offset");
  const bool scalarSrc = src.ndim() == 0;
  pc.flags = (slices ? 1u : 0u) | (scalarSrc ? 2u : 0u) | (includeSelf ? 4u : 0u);
  const double alpha = attrs.scalars.empty() ? 1.0 : attrs.scalars[0];
  if (op == OpKind::IndexAdd && alpha != 1) {
    pc.flags |= 8u;
    if (x.dtype() == DType::F32) {
      const float a = float(alpha);
      std::memcpy(&pc.alpha, &a, 4);
    } else {
      pc.alpha = uint32_t(int32_t(alpha));
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    pc.shape[d] = u32(iter[d], "dimension");
    if (!scalarSrc) pc.srcStrides[d] = u32(src.strides()[d], "stride");
    if (!slices) pc.idxStrides[d] = u32(idx.strides()[d], "stride");
    pc.outStrides[d] = u32(out.strides()[d], "stride");
  }
  if (slices) pc.idxStrides[0] = u32(idx.ndim() ? idx.strides()[0] : 0, "stride");
  Scratch aux = scratch(size_t(1 + (mean ? out.numel() : 0)) * 4);
  rt().stream().fill(aux.arg, 0);
  const uint32_t variant = uint32_t(mode) | (dtypeCode(x.dtype()) << 4);
  const BufferArg bufs[] = {bufferOf(out), bufferOf(src), bufferOf(idx), aux.arg};
  if (!includeSelf) launch("scatter", bufs, pc, groupsFor(pc.n), variant, 1u | 8u);
  pc.flags |= 1u << 4;
  launch("scatter", bufs, pc, groupsFor(pc.n), variant, 1u | 8u);
  if (mean) {
    ScatterPush fin = pc;
    fin.n = u32(out.numel(), "element count");
    fin.flags = (includeSelf ? 4u : 0u) | (2u << 4);
    launch("scatter", bufs, fin, groupsFor(fin.n), variant, 1u);
  }
  uint32_t flag = 0;
  readBack(aux.arg, 0, &flag, 4);
  if (flag & FLAG_BAD_INDEX) badIndex(op, idx, x.size(dim), dim);
  return out;
}

}  // namespace tessel::backends::vulkan
