// The row loops of the ops of ops/elementwise.ops over contiguous operands, compiled for several
// ISA levels: the eager kernels' path for contiguous data (elementwise_defined.cpp) and the
// fused programs' tile loop (backends/graph/cpu_fused.cpp), so fused results equal eager ones.
#include "backends/cpu/defined_rows.h"

#include "backends/cpu/isa_clones.h"
#include "ops/elementwise_cpu.h"
#include "shapes/elementwise_defs.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

namespace ew = ops::ew;
using shapes::OpKind;

template <class T, class F>
inline void tile1(const T* const* a, T* __restrict o, int64_t n, F f) {
  const T* __restrict x = a[0];
  for (int64_t k = 0; k < n; ++k) o[k] = f(x[k]);
}
template <class T, class F>
inline void tile2(const T* const* a, T* __restrict o, int64_t n, F f) {
  const T* __restrict x = a[0];
  const T* __restrict y = a[1];
  for (int64_t k = 0; k < n; ++k) o[k] = f(x[k], y[k]);
}
template <class T, class F>
inline void tile3(const T* const* a, T* __restrict o, int64_t n, F f) {
  const T* __restrict x = a[0];
  const T* __restrict y = a[1];
  const T* __restrict z = a[2];
  for (int64_t k = 0; k < n; ++k) o[k] = f(x[k], y[k], z[k]);
}

}  // namespace

TESSEL_ISA_CLONES void definedRowF(OpKind op, const float* const* a, float* o, int64_t n) {
  using T = float;
  switch (op) {
#define TESSEL_EW_F1(E, fn) \
  case OpKind::E: return definedUnaryRowF(op, a[0], o, n);
#define TESSEL_EW_F2(E, fn) \
  case OpKind::E: return tile2(a, o, n, [](T x, T y) { return ew::fn(x, y); });
#define TESSEL_EW_F3(E, fn) \
  case OpKind::E: return tile3(a, o, n, [](T x, T y, T z) { return ew::fn(x, y, z); });
#define TESSEL_EW_I1(E, fn)
#define TESSEL_EW_I2(E, fn)
#define TESSEL_EW_I3(E, fn)
#include "ops_gen/elementwise_kernels.def"
    default:
      break;
  }
  TESSEL_ASSERT(false, "a defined op has no f32 formula");
}

TESSEL_ISA_CLONES void definedRowI(OpKind op, const int32_t* const* a, int32_t* o, int64_t n) {
  using T = int32_t;
  const shapes::ElementwiseDef* d = shapes::elementwiseDef(op);
  if (d && d->intDivisor) {
    bool zero = false;
    for (int64_t k = 0; k < n; ++k) zero |= a[1][k] == 0;
    if (zero)
      throwUserError(ErrorKind::ZeroDivisionError,
                     std::string(shapes::opName(op)) + ": integer division by zero");
  }
  switch (op) {
#define TESSEL_EW_I1(E, fn) \
  case OpKind::E: return tile1(a, o, n, [](T x) { return ew::fn(x); });
#define TESSEL_EW_I2(E, fn) \
  case OpKind::E: return tile2(a, o, n, [](T x, T y) { return ew::fn(x, y); });
#define TESSEL_EW_I3(E, fn) \
  case OpKind::E: return tile3(a, o, n, [](T x, T y, T z) { return ew::fn(x, y, z); });
#define TESSEL_EW_F1(E, fn)
#define TESSEL_EW_F2(E, fn)
#define TESSEL_EW_F3(E, fn)
#include "ops_gen/elementwise_kernels.def"
    default:
      break;
  }
  TESSEL_ASSERT(false, "a defined op has no i32 formula");
}

}  // namespace tessel::backends::cpu
