// index_select and gather with index.comp. Indices are data: a bad one raises a flag that is
// read back, and the error names the first bad index as on cpu (backends/cpu/index.cpp).
#include "backends/vulkan/ops.h"
#include "backends/vulkan/shaders/ew_ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

namespace {

struct IndexPush {
  uint32_t n, rank, dim, dimSize;
  uint32_t xOff, idxOff, dtype, run;
  uint32_t shape[6];
  uint32_t xStrides[6];
  uint32_t idxStrides[6];
};
static_assert(sizeof(IndexPush) <= 128);

[[noreturn]] void badIndex(OpKind op, const Tensor& idx, int64_t size, int64_t dim) {
  for (int64_t i : toCpu(idx).toInts())
    if (i < -size || i >= size)
      throwUserError(ErrorKind::IndexError, std::string(shapes::opName(op)) + ": index " +
                                                std::to_string(i) + " is out of range for dim " +
                                                std::to_string(dim) + " of size " +
                                                std::to_string(size));
  TESSEL_ASSERT(false, "index kernel flagged a valid index");
  throw 0;
}

}  // namespace

namespace {

Tensor indexKernel(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                   const OpSignature& sig, bool checkIndices) {
  const Tensor& x = in[0];
  Tensor outFull = emptyDevice(concreteShape(sig.shape), sig.dtype);
  if (x.ndim() == 0) {
    // A 0-d tensor indexes like a 1-element vector (PyTorch, and cpu).
    Tensor idx = reshapeDevice(in[1], Dims{in[1].numel()});
    const Tensor parts[] = {x.unsqueeze(0), idx};
    Tensor r = indexKernel(op, parts, attrs, OpSignature{{in[1].numel()}, sig.dtype}, checkIndices);
    return reshapeDevice(r, concreteShape(sig.shape));
  }
  const int64_t dim = wrapDim(attrs.dim, x.ndim());
  Tensor idx = castDevice(in[1], DType::I32);
  Tensor out = outFull;
  const int64_t rank = out.ndim();
  if (rank > 6)
    throwUserError(ErrorKind::DeviceError, "vulkan: " + std::string(shapes::opName(op)) +
                                               " supports tensors of rank <= 6");
  if (out.numel() == 0) return out;
  IndexPush pc{};
  pc.n = u32(out.numel(), "element count");
  pc.rank = uint32_t(rank);
  pc.dim = uint32_t(dim);
  pc.dimSize = u32(x.size(dim), "dimension");
  pc.xOff = u32(x.offset(), "element offset");
  pc.idxOff = u32(idx.offset(), "element offset");
  pc.dtype = dtypeCode(x.dtype());
  for (int64_t d = 0; d < rank; ++d) {
    pc.shape[d] = u32(out.size(d), "dimension");
    pc.xStrides[d] = u32(x.strides()[d], "stride");
    if (op == OpKind::Gather) pc.idxStrides[d] = u32(idx.strides()[d], "stride");
  }
  if (op == OpKind::IndexSelect) pc.idxStrides[dim] = u32(idx.ndim() ? idx.strides()[0] : 0, "stride");
  // Runs of the innermost dim per invocation on a CPU device (Note [Strided runs] in
  // elementwise.comp): index_select of 2048 rows of 2048 f32 35 -> 26 ms on lavapipe.
  const int64_t len = out.size(rank - 1);
  const int64_t run = rowsInWorkgroups() ? 1 : std::min<int64_t>(len, 64);
  pc.run = uint32_t(run);
  pc.n = u32(out.numel() / len * ((len + run - 1) / run), "element count");
  Scratch flag = errorFlag();
  const BufferArg bufs[] = {bufferOf(out), bufferOf(x), bufferOf(idx), flag.arg};
  launch("index", bufs, pc, groupsFor(pc.n));
  // Reading the flag waits for the device; indices made on the device by our own kernels
  // are in range by construction and skip it.
  if (checkIndices && (readFlag(flag) & FLAG_BAD_INDEX)) badIndex(op, idx, x.size(dim), dim);
  return out;
}

}  // namespace

Tensor runIndexOp(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& sig) {
  if (op == OpKind::SegmentReduce) return runSegmentReduce(in, attrs, sig);
  if (op != OpKind::IndexSelect && op != OpKind::Gather) return runScatter(op, in, attrs, sig);
  return indexKernel(op, in, attrs, sig, true);
}

Tensor gatherInRange(const Tensor& x, const Tensor& index, int64_t dim) {
  OpAttrs attrs;
  attrs.dim = dim;
  const Tensor in[] = {x, index};
  OpSignature sig{{}, x.dtype()};
  for (int64_t d : index.shape()) sig.shape.push_back(d);
  return indexKernel(OpKind::Gather, in, attrs, sig, false);
}

}  // namespace tessel::backends::vulkan
