// GLSL generation for fused elementwise programs (graph::FusedProgram): one compute shader per
// program, written at run time and compiled with shaderc (fused_cache.h). Internal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/graph/fused_program.h"
#include "shapes/dtype.h"

namespace tessel::backends::vulkan {

// Note [Fused kernel interface]
// A generated kernel uses the backend's one pipeline layout (kernels.h: four storage buffers
// as arrays of 32-bit words, 128 bytes of push constants), so it is recorded on the eager
// stream like every other kernel. Nothing about sizes is in the text: the push constants hold
// the element count, the (merged) output shape of rank <= 4, and per operand its element
// offset, its strides over the output shape (0 on broadcast dims) and the binding it reads
// (operands are grouped by VkBuffer, so tensors sub-allocated from the same pool block share
// a binding). One pipeline therefore serves every size. Word layout:
//   0: n   1: ndim | binding(operand k) << (4 + 3k)   2..5: shape   6: output offset
//   7 + 5i: input i's offset, then its four strides
// Integer floordiv/mod/pow raise error bits in word 0 of binding 3 (as elementwise.comp does),
// so a "checked" kernel has three bindings for data.
//
// Note [Fused linear path]
// Every kernel (FusedKernelSource::linear) also holds elementwise.comp's linear loop (Note
// [Linear elementwise]; bool operands and results as Note [Linear bool operands]: 4 or 8
// bytes a step as one uint or uint64_t, a bool result packed back into bytes): when the merged
// shape is one dim, the output contiguous and every input at stride 1 or 0, the host sets
// bit 31 of word 1 (walking operands at offsets that are multiples of 4: 4 words a step, one
// u64vec2) or bit 30 (multiples of 8: 8 words a step, one u64vec4) and dispatches at most 256
// groups; each subgroup walks its own contiguous chunk with no index math, a stride-0 operand
// is one word loaded at a uniform address, and the n mod 4 (8) tail runs the strided code for
// one element. Same pipeline for both paths, so no size builds a pipeline. On lavapipe
// `(x * 2 + y) * 0.5` over 16M f32 goes 0.82 -> 8.6 GB/s (docs/perf.md, "vulkan graphs").
// Until bool operands took it, `logical_and(x > 0.5, y < 0.2)` over 16M f32 ran strided:
// 283 -> 38 ms on lavapipe, as fast as the f32 chain above (docs/vulkan_graphs.md).
constexpr int kFusedMaxInputs = 5;
constexpr int kFusedRank = 4;
constexpr int kFusedLocalSize = 256;
constexpr int kFusedStridedRun = 64;  ///< innermost elements per invocation on a CPU device (<= 255)

struct FusedKernelSource {
  std::string glsl;
  bool checked = false;  ///< reads/writes the error flag word in binding 3
  /// Has the linear path (Note [Fused linear path]); the host selects it with bit 31 (4 a
  /// step) or 30 (8 a step) of word 1 (meta).
  bool linear = false;
};

/// The kernel for `p`; empty glsl when the program cannot be generated (more than
/// kFusedMaxInputs operands). `inputTypes` are the operands' dtypes, `outType` the result's.
FusedKernelSource generateFusedKernel(const graph::FusedProgram& p,
                                      const std::vector<shapes::DType>& inputTypes,
                                      shapes::DType outType);

}  // namespace tessel::backends::vulkan
