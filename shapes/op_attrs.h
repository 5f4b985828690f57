// OpAttrs: the non-tensor attributes of an op, one plain struct for every op in op_list.def.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "shapes/dtype.h"
#include "shapes/sym_int.h"

namespace tessel::shapes {

/// Fields an op does not use are ignored. Per op (tensor operands in brackets):
///   unary/binary/ternary [x] [a, b] [cond, a, b] / clamp [x, lo, hi]: none (scalars are 0-d
///       tensors); binary broadcasts NumPy-style.
///   sum/mean/max/min/argmax/argmin/all/any [x]: dims (empty = all dims), keepdim. max/min
///       return the values only; argmax/argmin return i32 indices.
///   cumsum/cumprod [x]: dim; f32 stays f32, i32 and bool give i32.
///   reshape [x]: shape (at most one -1). expand [x]: shape (-1 keeps the input size; new
///       leading dims allowed). permute [x]: dims (a permutation). transpose [x]: dims = {d0, d1}.
///   unsqueeze [x]: dim (in [-rank-1, rank]). squeeze [x]: dims (empty = every size-1 dim).
///   flatten [x]: dim (start), endDim. cat [xs...] / stack [xs...]: dim.
///   slice [x]: dim, start, stop (nullopt = open end), step (> 0); Python clamping.
///   select [x]: dim, index (negative wraps).
///   index_select [x, idx(1-D int)]: dim. gather [x, idx(int, same rank)]: dim.
///   index_add [x, idx(1-D int), src]: dim, scalars = {alpha}. index_copy [x, idx, src]: dim.
///       scatter / scatter_add [x, idx(int, same rank), src(same rank)]: dim. scatter_reduce
///       [x, idx, src]: dim, scatterMode, includeSelf. All return x's shape and dtype.
///   nonzero [x] / masked_select [x, mask] / unique [x]: outputSize when known (eager),
///       else an unbacked symbol of the current ShapeEnv. masked_scatter [x, mask, src].
///   matmul [a, b]. softmax/log_softmax [x]: dim. layer_norm [x, (w), (b)]: shape =
///       normalized_shape, eps. linear [x, w[out,in], (b[out])]. mse_loss [a, b] -> [].
///       cross_entropy [logits[N,C], labels[N] i32] -> []: scalars = {ignore_index} when given
///       (rows with that label add nothing; the mean is over the others, nan if none). dropout
///       [x]: p.
///   full/rand/randn/randint []: shape, dtype, scalars (fill value / low, high).
///   arange []: start, stop, step (sizes; count = ceil((stop - start) / step)), dtype.
///   eye []: shape = {n} or {n, m}, dtype. cast [x]: dtype. contiguous [x]: none.
///   argsort [x]: dim, descending (stable order always: ties keep input order). topk [x]: dim,
///       stop = k (a size), descending = largest. searchsorted [sorted, values]: right.
///       nms [boxes[n,4], scores[n]]: scalars = {iou_threshold}; outputSize as nonzero.
///   conv2d [x, w, (b)] / conv2d_backward_input [gy, w] / conv2d_backward_weight [gy, x]: conv;
///       the backward ops take the shape of their result (x's / w's) in shape.
///   scaled_dot_product_attention / attention_logsumexp [q, k, v, (mask)] and
///       attention_backward [q, k, v, out, dout, lse, (mask)]: scalars = {scale} when given,
///       causal (op_list.def).
///   max_pool2d / avg_pool2d [x]: pool (kernel, stride, padding; dilation for max;
///       countIncludePad, divisor for avg). adaptive_avg_pool2d [x]: shape = {OH, OW}.
///       interpolate [x]: shape = {OH, OW}, pool.mode, alignCorners, scale. Each *_backward
///       [grad, x]: the forward's attributes; returns x's shape.
/// interpolate's modes ("linear" is bilinear over a height of 1).
enum class InterpMode : uint8_t { Nearest, Bilinear };

/// The attributes of the pooling and resizing ops (shape_rules_pool.cpp). Index 0 is the
/// height, 1 the width.
struct PoolAttrs {
  int64_t kernel[2] = {1, 1};
  int64_t stride[2] = {1, 1};
  int64_t padding[2] = {0, 0};
  int64_t dilation[2] = {1, 1};  ///< max_pool2d
  bool countIncludePad = true;   ///< avg_pool2d
  int64_t divisor = 0;           ///< avg_pool2d's divisor_override (0: none)
  InterpMode mode = InterpMode::Nearest;
  bool alignCorners = false;
  /// interpolate's scale_factor per dim when the kernel uses it (PyTorch passes it on unless
  /// recompute_scale_factor): source coordinates step by 1/scale, not in/out. 0: none.
  double scale[2] = {0, 0};
};

/// How scatter_reduce (and the other writes along a dim) combine a value with the target.
enum class ScatterMode : uint8_t { Assign, Sum, Prod, Mean, Amax, Amin };
/// The language name of a mode ("sum", "prod", "mean", "amax", "amin"; "assign").
const char* scatterModeName(ScatterMode m);

/// conv2d's options per spatial dim (H, W), as PyTorch's; padding may differ before and after
/// (padding = "same" with an even kernel pads one more after, as PyTorch does).
struct ConvParams {
  std::array<int64_t, 2> stride{1, 1};
  std::array<int64_t, 2> padBegin{0, 0};
  std::array<int64_t, 2> padEnd{0, 0};
  std::array<int64_t, 2> dilation{1, 1};
  int64_t groups = 1;
};

struct OpAttrs {
  std::vector<int64_t> dims;
  bool keepdim = false;
  int64_t dim = 0;
  int64_t endDim = -1;
  SymShape shape;
  std::optional<SymInt> start;  ///< slice/arange start (arange: default 0)
  std::optional<SymInt> stop;   ///< slice/arange stop
  SymInt step = 1;              ///< slice/arange step
  SymInt index = 0;             ///< select
  std::vector<double> scalars;  ///< fill value; randint low, high
  DType dtype = DType::F32;     ///< cast target; creation dtype
  double p = 0.5;               ///< dropout probability
  double eps = 1e-5;            ///< layer_norm
  ScatterMode scatterMode = ScatterMode::Sum;  ///< scatter_reduce
  bool includeSelf = true;                     ///< scatter_reduce
  bool descending = false;  ///< argsort; topk (largest)
  bool right = false;       ///< searchsorted
  ConvParams conv;          ///< conv2d and its backward ops
  bool causal = false;      ///< attention: key s takes part for query t only when s <= t
  PoolAttrs pool;           ///< max_pool2d ... interpolate and their backward ops
  /// Data-dependent ops: the actual output size when the caller already knows it (eager).
  std::optional<int64_t> outputSize;
  /// Random ops recorded on the tpu: which of the segment's random ops this is. Its random
  /// state, taken when it was recorded, is given to the program at run time (not part of it).
  int32_t randomSlot = -1;
};

}  // namespace tessel::shapes
