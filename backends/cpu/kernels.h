// The cpu backend's kernels by category, and helpers they share. Internal to backends/cpu.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "backends/tensor.h"
#include "shapes/elementwise_defs.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"
#include "shapes/shape_rules.h"

namespace tessel::backends::cpu {

using shapes::OpAttrs;
using shapes::OpKind;
using shapes::OpSignature;

/// Calls f(T{}) with T the storage type of `dtype`: float, int32_t or uint8_t (bool).
template <class F>
decltype(auto) visitDType(DType dtype, F&& f) {
  switch (dtype) {
    case DType::F32:
      return f(float{});
    case DType::I32:
      return f(int32_t{});
    case DType::Bool:
      break;
  }
  return f(uint8_t{});
}

/// Concrete sizes of an eager signature (every size is a constant in eager mode).
Dims concreteShape(const shapes::SymShape& shape);
/// A contiguous tensor of the signature's shape and dtype.
Tensor emptyLike(const OpSignature& sig);
/// `x` converted to `dtype` (x itself when it already has it).
Tensor castTo(const Tensor& x, DType dtype);
/// Sum of n floats: float lanes within blocks, double across blocks (Note [Reduction layouts]).
double sumFloats(const float* x, int64_t n);
/// Python-style dim normalization (the shape rule has already range-checked it).
int64_t wrapDim(int64_t dim, int64_t rank);

// Each runs one op whose inputs the shape rule has accepted; `out` is the rule's result.
Tensor runUnary(OpKind op, const Tensor& x, const OpSignature& out);
Tensor runBinary(OpKind op, const Tensor& a, const Tensor& b, const OpSignature& out);
Tensor runTernary(OpKind op, std::span<const Tensor> in, const OpSignature& out);
/// An op of ops/elementwise.ops (runUnary/runBinary/runTernary send them here).
Tensor runDefined(const shapes::ElementwiseDef& d, std::span<const Tensor> in,
                  const OpSignature& out);
/// ZeroDivisionError naming op when an i32 divisor holds a 0.
void checkIntDivisors(OpKind op, const Tensor& divisor);
Tensor runReduce(OpKind op, const Tensor& x, const OpAttrs& attrs, const OpSignature& out);
Tensor runScan(OpKind op, const Tensor& x, const OpAttrs& attrs, const OpSignature& out);
Tensor runShapeOp(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& out);
Tensor runIndexOp(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& out);
/// index_add, index_copy, scatter, scatter_add, scatter_reduce (scatter.cpp).
Tensor runScatter(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                  const OpSignature& out);
Tensor runDataDependent(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs);
/// repeat_interleave, bincount (data-dependent) and segment_reduce (jagged.cpp).
Tensor runJagged(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs);
Tensor runSegmentReduce(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& out);
Tensor runNN(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& out);
/// conv2d, conv2d_backward_input, conv2d_backward_weight on oneDNN (conv.cpp).
Tensor runConv(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& out);
/// max_pool2d ... interpolate and their backward ops (pool.cpp).
Tensor runPool(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& out);
Tensor runCreate(OpKind op, const OpAttrs& attrs, const OpSignature& out);
/// randperm, multinomial, bernoulli (sampling.cpp).
Tensor runSampling(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                   const OpSignature& out);
/// The value errors of bernoulli's and multinomial's probabilities (a host tensor), which the
/// vulkan backend raises too once its kernels flag a bad value.
void checkSamplingInput(OpKind op, const Tensor& probs, const OpAttrs& attrs,
                        const OpSignature& out);
Tensor matmul(const Tensor& a, const Tensor& b, const OpSignature& out);
/// scaled_dot_product_attention, attention_logsumexp, attention_backward (attention.cpp).
Tensor runAttention(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                    const OpSignature& out);
/// scaled_dot_product_attention of `in` that also sets `lse` to what attention_logsumexp of
/// the same operands gives, from the same pass (Note [Attention and its logsumexp in one pass]
/// in backends/graph/cpu_executor.cpp).
Tensor attentionWithLse(std::span<const Tensor> in, const OpAttrs& attrs, const OpSignature& out,
                        Tensor& lse);
/// argsort, topk, searchsorted (sort.cpp); nms (nms.cpp, a data-dependent op).
Tensor runSort(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& out);
Tensor nms(std::span<const Tensor> in, const OpAttrs& attrs);
/// The stable ascending argsort of n u32 keys (ties in index order), as argsort's rows.
void argsortKeys(const uint32_t* keys, int64_t n, int32_t* outIdx);
/// The indices of the k smallest (key, index) pairs of n u32 keys, ascending, as topk's rows.
void smallestKeys(const uint32_t* keys, int64_t n, int64_t k, int32_t* outIdx);

}  // namespace tessel::backends::cpu
