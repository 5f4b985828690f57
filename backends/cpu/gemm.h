// sgemm on strided 2-D views, shared by matmul and linear.
#pragma once

#include "backends/tensor.h"

namespace tessel::backends::cpu {

/// c[M, N] = a[M, K] @ b[K, N], or c += a @ b when `accumulate`; a and b are f32 2-D views with
/// any strides (transposed views go to BLAS without a copy), c is contiguous.
void gemmInto(const Tensor& a, const Tensor& b, float* c, bool accumulate);

}  // namespace tessel::backends::cpu
