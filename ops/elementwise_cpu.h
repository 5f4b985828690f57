// The elementwise formulas of ops/elementwise.ops as C++ functions, tessel::ops::ew::ew_op_NAME
// (an f32 overload, and an i32 one for ops whose result keeps integers), for the cpu eager
// kernels (backends/cpu/elementwise_defined.cpp) and the fused tile loops
// (backends/cpu/defined_rows.cpp). The vulkan shaders compile the same text as GLSL.
#pragma once

#include "ops/glsl_compat.h"

namespace tessel::ops::ew {
#include "ops/elementwise_math.h"
#include "ops_gen/elementwise_formulas.h"
}  // namespace tessel::ops::ew
