// The vulkan backend's eager kernels by category and the launch helpers they share. Internal.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "backends/tensor.h"
#include "backends/vulkan/runtime.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"
#include "shapes/shape_rules.h"

namespace tessel::backends::vulkan {

using shapes::OpAttrs;
using shapes::OpKind;
using shapes::OpSignature;

/// The runtime (the backend is only reachable once it exists).
inline Runtime& rt() { return *Runtime::existing(); }
/// Concrete sizes of an eager signature.
Dims concreteShape(const shapes::SymShape& shape);
/// Merges the dims every operand walks contiguously and drops size-1 dims, so elementwise
/// kernels (eager and fused) index as few dims as possible. `strides` has one entry per
/// operand; the result is at least one dim (size 1, stride 0 for a 0-d shape).
void mergeWalkedDims(const Dims& shape, const std::vector<Dims>& strides, int nops, Dims& sz,
                     std::vector<Dims>& st);
inline int64_t wrapDim(int64_t dim, int64_t rank) { return dim < 0 ? dim + rank : dim; }
/// The shader code of a dtype (DT_BOOL, DT_I32, DT_F32 in shaders/ew_ops.h).
inline uint32_t dtypeCode(DType t) { return uint32_t(t); }
/// Element offsets, strides and counts go to kernels as u32: DeviceError past that.
uint32_t u32(int64_t v, const char* what);

/// Records one dispatch of shaders/<kernel>.comp over `groups` workgroups; the kernel writes
/// the slots in `writeSlots` (bit i: buffer i) and only reads the others (Note [Barrier elision]).
void launch(std::string_view kernel, std::span<const BufferArg> buffers, const void* push,
            size_t pushBytes, uint64_t groups, uint32_t variant = 0,
            uint32_t writeSlots = kAllSlotsWritten);
template <class PC>
void launch(std::string_view kernel, std::span<const BufferArg> buffers, const PC& push,
            uint64_t groups, uint32_t variant = 0, uint32_t writeSlots = kAllSlotsWritten) {
  launch(kernel, buffers, &push, sizeof(PC), groups, variant, writeSlots);
}
inline uint64_t groupsFor(uint64_t n, uint64_t perGroup = 256) { return (n + perGroup - 1) / perGroup; }

/// out = op(ins...) elementwise; `out` is a device tensor or a view of one, the inputs are
/// broadcast to its shape, loads convert to `compute` and stores convert to out's dtype.
/// `flag` (integer floordiv/mod/pow) receives error bits.
void elementwise(uint32_t op, DType compute, const Tensor& out, std::span<const Tensor> ins,
                 const BufferArg* flag = nullptr);
/// x converted to dtype (x itself when it has it); a contiguous copy; copy into a view.
Tensor castDevice(const Tensor& x, DType dtype);
Tensor contiguousDevice(const Tensor& x);
void copyInto(const Tensor& dst, const Tensor& src);
/// A view of `x` with `shape` (a copy first when x is not contiguous).
Tensor reshapeDevice(const Tensor& x, const Dims& shape);

/// A zeroed scratch word for kernels' error bits, and reading it back (waits for the device).
Scratch errorFlag();
uint32_t readFlag(const Scratch& flag);
/// Copies `bytes` at byte `offset` of a device buffer range to host memory (waits).
void readBack(const BufferArg& src, VkDeviceSize offset, void* dst, size_t bytes);

Tensor runUnary(OpKind op, const Tensor& x, const OpSignature& out);
Tensor runBinary(OpKind op, const Tensor& a, const Tensor& b, const OpSignature& out);
Tensor runTernary(OpKind op, std::span<const Tensor> in, const OpSignature& out);
Tensor runReduce(OpKind op, const Tensor& x, const OpAttrs& attrs, const OpSignature& out);
/// Whether work is spread as on a GPU (a row per workgroup meeting in shared memory, one
/// element per invocation) rather than as on a CPU device like lavapipe (each invocation
/// walking contiguous work alone): Note [Reduction modes] in ops_reduce.cpp, Note [Rows
/// alone] in rows.comp, Note [Strided runs] in elementwise.comp.
bool rowsInWorkgroups();
/// Tests: force the choice above either way; nullopt restores the default.
void setRowsInWorkgroupsForTesting(std::optional<bool> tree);
/// Reduction of a contiguous device tensor seen as [A, R, B] over R (also used by nn ops).
Tensor reduceARB(OpKind op, const Tensor& x, int64_t A, int64_t R, int64_t B, DType compute,
                 const Dims& outShape, DType outType);
/// scaled_dot_product_attention, attention_logsumexp, attention_backward (ops_attention.cpp).
Tensor runAttention(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                    const OpSignature& out);
/// cumsum/cumprod (ops_scan.cpp).
Tensor runScan(OpKind op, const Tensor& x, const OpAttrs& attrs, const OpSignature& out);
Tensor runShapeOp(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& out);
Tensor runIndexOp(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& out);
/// index_add, index_copy, scatter, scatter_add, scatter_reduce (ops_scatter.cpp).
Tensor runScatter(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& out);
/// gather(x, dim, index) for indices produced by our own kernels, known to be in range: no
/// bounds flag is read back, so it does not wait for the device.
Tensor gatherInRange(const Tensor& x, const Tensor& index, int64_t dim);
Tensor runDataDependent(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs);
/// repeat_interleave, bincount (data-dependent) and segment_reduce (ops_jagged.cpp).
Tensor runJagged(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs);
Tensor runSegmentReduce(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& out);
Tensor runNN(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& out);
/// conv2d, conv2d_backward_input, conv2d_backward_weight (ops_conv.cpp).
Tensor runConv(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& out);
/// max_pool2d ... interpolate and their backward ops (ops_pool.cpp, shaders/pool.comp).
Tensor runPool(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& out);
Tensor runCreate(OpKind op, const OpAttrs& attrs, const OpSignature& out);
/// randperm, multinomial, bernoulli (ops_sampling.cpp: sampling.comp, the cpu's numbers).
Tensor runSampling(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                   const OpSignature& out);
Tensor matmul(const Tensor& a, const Tensor& b, const OpSignature& out);
/// The [rows, n] i32 stable argsort of a contiguous [rows, n] device tensor of f32 or i32 keys
/// (ops_sort.cpp: Note [Row merge sort], Note [Row radix sort]).
Tensor argsortRows(const Tensor& keys, int64_t rows, int64_t n, bool descending);
/// argsort, topk, searchsorted (ops_sort.cpp).
Tensor runSort(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& out);
/// nms (ops_sort.cpp); the data-dependent ops' flag count and compaction are passed in.
using NmsCount = int64_t (*)(const Tensor& flags);
using NmsSelect = void (*)(const Tensor& out, const Tensor& flags, const Tensor& values);
Tensor nmsDevice(const Tensor& boxes, const Tensor& scores, const OpAttrs& attrs, NmsCount count,
                 NmsSelect select);

}  // namespace tessel::backends::vulkan
