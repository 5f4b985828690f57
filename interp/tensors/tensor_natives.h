// Shared helpers for the tensor built-ins (tensor_create.cpp, tensor_ops.cpp, tensor_grad.cpp).
#pragma once

#include <string>
#include <vector>

#include "backends/dispatch.h"
#include "interp/values/native_args.h"
#include "interp/tensors/op_sink.h"
#include "interp/tensors/tensor_value.h"
#include "ops_gen/tensor_signatures.h"

namespace tessel::interp {

using shapes::OpAttrs;
using shapes::OpKind;

/// For methods (`x.sum(dim = 1)`), the receiver becomes the first positional argument, so one
/// native serves both `sum(x, dim = 1)` and `x.sum(dim = 1)`.
class SelfArgs {
 public:
  explicit SelfArgs(CallArgs& a);
  CallArgs& args() { return args_; }

 private:
  std::vector<Value> positional_;
  CallArgs args_;
};

/// Checks that an op operand is a tensor or a number (TypeError naming `what` otherwise).
const Value& tensorArg(const Value& v, const std::string& what);
/// `dim` arguments: an int, or a list/tuple of ints.
std::vector<int64_t> toDimList(const Value& v, const std::string& what);

/// The arguments of reshape(x, shape) and its kin (expand, permute, repeat, tile), bound by
/// their signature, except PyTorch's method spelling with the sizes as further positionals
/// (`x.reshape(2, 3)`), which a signature of two parameters cannot take. `sizes` holds the one
/// sizes argument (a list, or an int) or those positionals.
struct SizesArgs {
  Value x;
  std::vector<Value> sizes;
};
SizesArgs bindSizes(CallArgs& a, const NativeSignature& signature);

/// A table row: a built-in function name and its native. Methods reuse the same natives.
struct TensorNative {
  const char* name;
  NativeFn fn;
  bool isMethod;  // also callable as x.name(...)
};
std::span<const TensorNative> tensorCreationNatives();
std::span<const TensorNative> tensorOpNatives();
std::span<const TensorNative> tensorGradNatives();
/// Scans, index/segment, sort and detection ops (tensor_sparse.cpp).
std::span<const TensorNative> tensorSparseNatives();
/// repeat_interleave, bincount, segment_reduce, randperm, multinomial, bernoulli
/// (tensor_jagged.cpp).
std::span<const TensorNative> tensorJaggedNatives();
/// Losses, extra reductions and shape utilities, composed of existing ops
/// (tensor_losses.cpp, tensor_dense_utils.cpp).
std::span<const TensorNative> tensorLossNatives();
std::span<const TensorNative> tensorDenseUtilNatives();
/// The ops of ops/elementwise.ops and their aliases (tensor_defined.cpp).
std::span<const TensorNative> tensorDefinedNatives();
/// The decompositions of ops/elementwise.ops (tensor_decompositions_defined.cpp).
std::span<const TensorNative> tensorDecompositionDefinedNatives();
/// The dense-model ops: erf ... nan_to_num (tensor_dense.cpp).
std::span<const TensorNative> tensorDenseNatives();
/// conv2d and conv1d (tensor_conv.cpp).
std::span<const TensorNative> tensorConvNatives();
/// scaled_dot_product_attention (tensor_attention.cpp).
std::span<const TensorNative> tensorAttentionNatives();
/// group_norm, rms_norm, batch_norm, one_hot, linspace, *_like, amax/amin (tensor_norm.cpp).
std::span<const TensorNative> tensorNormNatives();
/// einsum (tensor_einsum.cpp).
std::span<const TensorNative> tensorEinsumNatives();
/// unbind ... meshgrid and take_along_dim ... allclose, PyTorch functions composed of existing
/// ops (tensor_decompositions_shape.cpp, which also lists the second file's
/// decompositionCompareNatives(), from tensor_decompositions_compare.cpp).
std::span<const TensorNative> tensorDecompositionNatives();
std::span<const TensorNative> decompositionCompareNatives();
/// max_pool2d, avg_pool2d, adaptive_avg_pool2d, interpolate (tensor_pool.cpp).
std::span<const TensorNative> tensorPoolNatives();

}  // namespace tessel::interp
