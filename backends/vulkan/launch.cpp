// Launch helpers: dispatch recording, the strided elementwise launcher, casts and copies,
// error flags and read-back.
#include <algorithm>
#include <cstring>
#include <string>

#include "backends/vulkan/ops.h"
#include "backends/vulkan/shaders/ew_ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::vulkan {

Dims concreteShape(const shapes::SymShape& shape) {
  Dims d(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) d[i] = shape[i].constant();
  return d;
}

void mergeWalkedDims(const Dims& shape, const std::vector<Dims>& strides, int nops, Dims& sz,
                     std::vector<Dims>& st) {
  sz.clear();
  st.assign(nops, Dims{});
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !sz.empty();
    for (int k = 0; k < nops && merge; ++k) merge = st[k].back() == strides[k][d] * shape[d];
    if (merge) {
      sz.back() *= shape[d];
      for (int k = 0; k < nops; ++k) st[k].back() = strides[k][d];
    } else {
      sz.push_back(shape[d]);
      for (int k = 0; k < nops; ++k) st[k].push_back(strides[k][d]);
    }
  }
  if (sz.empty()) {
    sz.push_back(1);
    for (int k = 0; k < nops; ++k) st[k].push_back(0);
  }
}

uint32_t u32(int64_t v, const char* what) {
  if (v < 0 || v > int64_t(UINT32_MAX))
    throwUserError(ErrorKind::DeviceError, std::string("vulkan: ") + what + " " +
                                               std::to_string(v) + " exceeds the 32-bit index range of the kernels");
  return uint32_t(v);
}

void launch(std::string_view kernel, std::span<const BufferArg> buffers, const void* push,
            size_t pushBytes, uint64_t groups, uint32_t variant, uint32_t writeSlots) {
  Runtime& r = rt();
  VkPipeline p = r.kernels().get(kernel, variant);
  r.stream().dispatch(p, buffers, push, uint32_t(pushBytes), groups, writeSlots);
}

namespace {

struct EwPush {
  uint32_t n, run, ndim, unused;
  uint32_t shape[4];
  uint32_t offs[4];
  uint32_t strides[16];
};
static_assert(sizeof(EwPush) <= 128);

constexpr int kMaxOperands = 4;
constexpr int kKernelRank = 4;
constexpr int64_t kStridedRun = 64;

}  // namespace

void elementwise(uint32_t op, DType compute, const Tensor& out, std::span<const Tensor> ins,
                 const BufferArg* flag) {
  const Dims& shape = out.shape();
  const int64_t n = out.numel();
  if (n == 0) return;
  const int nops = 1 + int(ins.size());
  TESSEL_ASSERT(nops <= kMaxOperands, "elementwise: at most three inputs");
  // Operand strides over the output's shape (stride 0 on broadcast dims).
  std::vector<Dims> strides(nops);
  int64_t offs[kMaxOperands] = {};
  strides[0] = out.strides();
  offs[0] = out.offset();
  for (size_t i = 0; i < ins.size(); ++i) {
    Tensor e = ins[i].shape() == shape ? ins[i] : ins[i].expand(shape);
    strides[i + 1] = e.strides();
    offs[i + 1] = e.offset();
  }
  Dims sz;
  std::vector<Dims> st;
  mergeWalkedDims(shape, strides, nops, sz, st);
  BufferArg bufs[kMaxOperands];
  bufs[0] = bufferOf(out);
  for (size_t i = 0; i < ins.size(); ++i) bufs[i + 1] = bufferOf(ins[i]);
  for (int k = nops; k < kMaxOperands; ++k) bufs[k] = bufs[1 % nops];
  if (flag) bufs[3] = *flag;
  // The output, and the error flag when there is one; operands are only read.
  const uint32_t writes = 1u | (flag ? 8u : 0u);

  EwPush pc{};
  uint32_t types = dtypeCode(out.dtype());
  for (size_t i = 0; i < ins.size(); ++i) types |= dtypeCode(ins[i].dtype()) << (4 * (i + 1));
  types |= dtypeCode(compute) << 16;
  uint32_t variant = op | (types << 8);
  // A defined op has a module of its own (backends/vulkan/CMakeLists.txt).
  const std::string shader =
      op >= EW_FIRST_DEFINED ? "elementwise_op" + std::to_string(op) : std::string("elementwise");
  // One merged dim with every input at stride 0 or 1: the linear path, four elements a step
  // when the walking operands start on a multiple of 4 elements, eight on a multiple of 8
  // (bool operands and results too: 4 or 8 bytes, one uint or uint64_t; Note [Linear bool
  // operands] in elementwise.comp).
  if (sz.size() == 1 && st[0][0] == 1) {
    bool linear = true, vec4 = offs[0] % 4 == 0, vec8 = offs[0] % 8 == 0;
    for (int k = 1; k < nops; ++k) {
      const bool walks = st[k][0] == 1;
      linear = linear && (st[k][0] == 0 || walks);
      vec4 = vec4 && (!walks || offs[k] % 4 == 0);
      vec8 = vec8 && (!walks || offs[k] % 8 == 0);
    }
    vec8 = vec8 && vec4;
    if (linear) {
      EwPush pc{};
      pc.n = u32(n, "element count");
      pc.ndim = 1;
      pc.shape[0] = pc.n;
      for (int k = 0; k < nops; ++k) {
        pc.offs[k] = u32(offs[k], "element offset");
        pc.strides[k * 4] = uint32_t(st[k][0]);
      }
      // Enough workgroups for every llvmpipe thread and GPU core, few enough that each
      // invocation loops many times (the per-invocation cost dominates on llvmpipe).
      const uint64_t perInvocation = vec8 ? 8 : vec4 ? 4 : 1;
      const uint64_t groups = std::min<uint64_t>(groupsFor(groupsFor(n, perInvocation), 256), 256);
      launch(shader, bufs, pc, groups, variant | EW_LINEAR | (vec8 ? EW_VEC8 : vec4 ? EW_VEC4 : 0u), writes);
      return;
    }
  }
  // Dims beyond the kernel's rank become a host loop over the leading ones.
  const int rank = int(sz.size());
  const int lead = std::max(0, rank - kKernelRank);
  pc.ndim = uint32_t(rank - lead);
  int64_t inner = 1;
  for (int d = lead; d < rank; ++d) {
    pc.shape[d - lead] = u32(sz[d], "dimension");
    inner *= sz[d];
    for (int k = 0; k < nops; ++k) pc.strides[k * 4 + d - lead] = u32(st[k][d], "stride");
  }
  // Note [Strided runs] (elementwise.comp): on a CPU device each invocation walks a run of the
  // innermost dim, paying the index math once per run (a bias add over [2048, 2048] 28 -> 9 ms on
  // lavapipe); on a GPU a run is one element, so neighbouring lanes touch neighbouring addresses.
  const int64_t len = sz[rank - 1];
  const int64_t run = rowsInWorkgroups() ? 1 : std::min<int64_t>(len, kStridedRun);
  pc.run = uint32_t(run);
  const int64_t runs = inner / len * ((len + run - 1) / run);
  pc.n = u32(runs, "element count");
  u32(inner, "element count");
  const int64_t outer = n / inner;
  Dims pos(lead, 0);
  for (int64_t o = 0; o < outer; ++o) {
    for (int k = 0; k < nops; ++k) {
      int64_t off = offs[k];
      for (int d = 0; d < lead; ++d) off += pos[d] * st[k][d];
      pc.offs[k] = u32(off, "element offset");
    }
    launch(shader, bufs, pc, groupsFor(runs), variant, writes);
    for (int d = lead - 1; d >= 0; --d) {
      if (++pos[d] < sz[d]) break;
      pos[d] = 0;
    }
  }
}

Tensor castDevice(const Tensor& x, DType dtype) {
  if (x.dtype() == dtype) return x;
  Tensor out = emptyDevice(x.shape(), dtype);
  DType compute = dtype == DType::Bool ? DType::Bool
                  : (dtype == DType::F32 || x.dtype() == DType::F32) ? DType::F32
                                                                     : DType::I32;
  const Tensor in[] = {x};
  elementwise(EW_COPY, compute, out, in);
  return out;
}

void copyInto(const Tensor& dst, const Tensor& src) {
  DType compute = dst.dtype() == DType::Bool ? DType::Bool
                  : (dst.dtype() == DType::F32 || src.dtype() == DType::F32) ? DType::F32
                                                                             : DType::I32;
  if (dst.dtype() == src.dtype()) compute = dst.dtype() == DType::F32 ? DType::F32 : DType::I32;
  const Tensor in[] = {src};
  elementwise(EW_COPY, compute, dst, in);
}

Tensor contiguousDevice(const Tensor& x) {
  if (x.isContiguous()) return x;
  Tensor out = emptyDevice(x.shape(), x.dtype());
  copyInto(out, x);
  return out;
}

Tensor reshapeDevice(const Tensor& x, const Dims& shape) {
  Tensor c = contiguousDevice(x);
  return Tensor::view(c.storage(), shape, contiguousStrides(shape), c.offset(), c.dtype());
}

Scratch errorFlag() {
  Scratch s = scratch(4);
  rt().stream().fill(s.arg, 0);
  return s;
}

void readBack(const BufferArg& src, VkDeviceSize offset, void* dst, size_t bytes) {
  if (bytes == 0) return;
  Runtime& r = rt();
  Allocation stage = r.staging().allocate(bytes);
  try {
    r.stream().copy({src.buffer, src.offset + offset, bytes},
                    {stage.buffer, stage.offset, stage.size}, bytes);
    r.stream().flush();
  } catch (...) {
    r.staging().release(stage);
    throw;
  }
  std::memcpy(dst, stage.mapped, bytes);
  r.staging().release(stage);
}

uint32_t readFlag(const Scratch& flag) {
  uint32_t v = 0;
  readBack(flag.arg, 0, &v, 4);
  return v;
}

}  // namespace tessel::backends::vulkan
