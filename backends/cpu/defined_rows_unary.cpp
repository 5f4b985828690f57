// The f32 row loops of the unary ops of ops/elementwise.ops, compiled with FMA contraction in
// their ISA clones (Note [Unary rows contract]).
#include "backends/cpu/defined_rows.h"

#include "backends/cpu/isa_clones.h"
#include "ops/elementwise_cpu.h"
#include "shapes/user_error.h"

// Note [Vector libm in the unary rows]
// The formulas' sin, cos, tan, atan, asin and acos are libm's (GLSL has them built in; a vectorizable
// formula of our own would need Payne-Hanek reduction for huge arguments). A loop calling
// scalar sinf runs one call per element, 0.55x of PyTorch; glibc's libmvec has vector versions
// of each (within 4 ulp, huge arguments included), which GCC calls from a vectorized loop when
// the declaration carries the simd attribute. glibc's headers add it under -ffast-math only;
// here it is added for this file, whose unary rows are the only cpu path of those ops (the
// binary atan2's rows and map loops keep the scalar call, so that they agree).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
extern "C" {
__attribute__((simd("notinbranch"))) float sinf(float);
__attribute__((simd("notinbranch"))) float cosf(float);
__attribute__((simd("notinbranch"))) float tanf(float);
__attribute__((simd("notinbranch"))) float atanf(float);
__attribute__((simd("notinbranch"))) float asinf(float);
__attribute__((simd("notinbranch"))) float acosf(float);
__attribute__((simd("notinbranch"))) float atan2f(float, float);
}
#endif

namespace tessel::backends::cpu {

// Note [Unary rows contract]
// defined_rows.cpp is compiled with -ffp-contract=off so that a binary op's row (contiguous
// operands, fused tiles) rounds like its strided map loop (broadcast operands), which runs in
// the baseline ISA without FMA. A unary op has no such second path: its operand always has
// the result's shape, so runDefined copies it to a row, and eager and fused results both come
// from this loop. Here the AVX-512 and AVX2 clones may fuse multiply-adds, which makes the
// polynomial formulas (exp, sigmoid, gelu, erf, tanh) 1.4x faster, as the hand-written rows
// they replaced were (bench/defined_ops.dsl); each result stays within the formulas' ulp
// bounds, and the baseline clone (and the clang build) rounds as before.
TESSEL_ISA_CLONES void definedUnaryRowF(shapes::OpKind op, const float* __restrict x,
                                        float* __restrict o, int64_t n) {
  namespace ew = ops::ew;
  using shapes::OpKind;
  switch (op) {
#define TESSEL_EW_F1(E, fn) \
  case OpKind::E:           \
    for (int64_t k = 0; k < n; ++k) o[k] = ew::fn(x[k]); \
    return;
#define TESSEL_EW_F2(E, fn)
#define TESSEL_EW_F3(E, fn)
#define TESSEL_EW_I1(E, fn)
#define TESSEL_EW_I2(E, fn)
#define TESSEL_EW_I3(E, fn)
#include "ops_gen/elementwise_kernels.def"
    default:
      break;
  }
  TESSEL_ASSERT(false, "a defined op has no unary f32 formula");
}

namespace {

// A test's 0/1 straight into bool bytes, its operand read in its own element type: no pass
// to convert the operand to the compute dtype and none to convert the result to bool.
template <class In, class T>
inline void toBool(const In* __restrict x, uint8_t* __restrict o, int64_t n, T (*f)(T)) {
  for (int64_t k = 0; k < n; ++k) o[k] = f(T(x[k])) != T(0);
}

}  // namespace

TESSEL_ISA_CLONES void definedUnaryTestRow(shapes::OpKind op, shapes::DType in, const void* x,
                                           uint8_t* o, int64_t n) {
  namespace ew = ops::ew;
  using shapes::OpKind;
  using shapes::DType;
  if (in == DType::F32) {
    switch (op) {
#define TESSEL_EW_F1(E, fn) \
  case OpKind::E: return toBool<float, float>(static_cast<const float*>(x), o, n, ew::fn);
#define TESSEL_EW_F2(E, fn)
#define TESSEL_EW_F3(E, fn)
#define TESSEL_EW_I1(E, fn)
#define TESSEL_EW_I2(E, fn)
#define TESSEL_EW_I3(E, fn)
#include "ops_gen/elementwise_kernels.def"
      default:
        break;
    }
  } else {
    switch (op) {
#define TESSEL_EW_I1(E, fn)                                                                 \
  case OpKind::E:                                                                           \
    return in == DType::Bool                                                                \
               ? toBool<uint8_t, int32_t>(static_cast<const uint8_t*>(x), o, n, ew::fn)    \
               : toBool<int32_t, int32_t>(static_cast<const int32_t*>(x), o, n, ew::fn);
#define TESSEL_EW_F1(E, fn)
#define TESSEL_EW_F2(E, fn)
#define TESSEL_EW_F3(E, fn)
#define TESSEL_EW_I2(E, fn)
#define TESSEL_EW_I3(E, fn)
#include "ops_gen/elementwise_kernels.def"
      default:
        break;
    }
  }
  TESSEL_ASSERT(false, "a defined test has no formula for this dtype");
}

}  // namespace tessel::backends::cpu
