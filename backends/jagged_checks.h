// The size and value checks of the jagged ops (repeat_interleave, bincount, segment_reduce),
// shared by the cpu kernels (cpu/jagged.cpp) and the vulkan ones (vulkan/ops_jagged.cpp), so
// both raise the same errors with the same messages.
#pragma once

#include <cstdint>
#include <span>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"
#include "shapes/shape_rules.h"

namespace tessel::backends::jagged {

/// The signature of a data-dependent jagged op once its size is known: the shape rule with
/// attrs.outputSize = size.
shapes::OpSignature sizedRule(shapes::OpKind op, std::span<const Tensor> in,
                              const shapes::OpAttrs& attrs, int64_t size);
/// The product of x's sizes before and after `dim`.
void splitAround(const Tensor& x, int64_t dim, int64_t& outer, int64_t& inner);
/// A ValueError naming the first negative of n counts (repeats, lengths, bincount's x), if any:
/// "<op>: <what> must be non-negative, got <v> at index <i>".
void requireNonNegative(const int32_t* values, int64_t n, const char* op, const char* what);
/// repeat_interleave: an output_size given as a constant must be sum(repeats).
void checkOutputSize(const shapes::OpAttrs& attrs, int64_t total);
/// segment_reduce: the lengths must sum to the data's size along the axis (a ShapeError).
void checkSegmentTotal(int64_t total, int64_t size, int64_t axis);

}  // namespace tessel::backends::jagged
