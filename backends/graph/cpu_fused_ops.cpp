// The fused tile loops' op rows of the ops of shapes/op_list.def's own elementwise ops (the
// defined ones are backends/cpu/defined_rows.cpp's): one loop per op over a tile of registers, each
// computing exactly as that op's eager kernel (backends/cpu/unary.cpp, binary.cpp), compiled for
// several ISA levels like the tile loop itself (cpu_fused.cpp).
#include "backends/graph/cpu_fused_ops.h"

#include <cmath>

#include "backends/cpu/binary_math.h"
#include "backends/cpu/isa_clones.h"
#include "backends/cpu/vec_rows.h"
#include "ops/elementwise_cpu.h"
#include "shapes/user_error.h"

namespace tessel::graph {

using backends::cpu::floorDivF;
using backends::cpu::modF;
using shapes::OpKind;

namespace {

template <class T, class F>
inline void map1(T* __restrict o, const T* __restrict a, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k) o[k] = f(a[k]);
}
template <class O, class T, class F>
inline void map2(O* __restrict o, const T* __restrict a, const T* __restrict b, int64_t n, F f) {
  for (int64_t k = 0; k < n; ++k) o[k] = f(a[k], b[k]);
}

template <class T>
inline void compare(OpKind op, const T* a, const T* b, int32_t* o, int64_t n) {
  switch (op) {
    case OpKind::Eq:
      return map2(o, a, b, n, [](T x, T y) { return int32_t(x == y); });
    case OpKind::Ne:
      return map2(o, a, b, n, [](T x, T y) { return int32_t(x != y); });
    case OpKind::Lt:
      return map2(o, a, b, n, [](T x, T y) { return int32_t(x < y); });
    case OpKind::Le:
      return map2(o, a, b, n, [](T x, T y) { return int32_t(x <= y); });
    case OpKind::Gt:
      return map2(o, a, b, n, [](T x, T y) { return int32_t(x > y); });
    case OpKind::Ge:
      return map2(o, a, b, n, [](T x, T y) { return int32_t(x >= y); });
    case OpKind::LogicalAnd:
      return map2(o, a, b, n, [](T x, T y) { return int32_t(x != 0 && y != 0); });
    case OpKind::LogicalOr:
      return map2(o, a, b, n, [](T x, T y) { return int32_t(x != 0 || y != 0); });
    default:
      TESSEL_ASSERT(false, "fused: not a comparison");
  }
}

}  // namespace

// ---- Binary --------------------------------------------------------------------------------

TESSEL_ISA_CLONES void fusedCompareF(OpKind op, const float* a, const float* b, int32_t* o, int64_t n) {
  compare(op, a, b, o, n);
}
TESSEL_ISA_CLONES void fusedCompareI(OpKind op, const int32_t* a, const int32_t* b, int32_t* o,
                                int64_t n) {
  compare(op, a, b, o, n);
}

// `bIsTwo`: the exponent is a one-element value equal to 2 (the eager kernel's x * x path).
TESSEL_ISA_CLONES void fusedFloatArith(OpKind op, const float* a, const float* b, float* o, int64_t n,
                                  bool bIsTwo) {
  switch (op) {
    case OpKind::Add:
      return map2(o, a, b, n, [](float x, float y) { return x + y; });
    case OpKind::Sub:
      return map2(o, a, b, n, [](float x, float y) { return x - y; });
    case OpKind::Mul:
      return map2(o, a, b, n, [](float x, float y) { return x * y; });
    case OpKind::Div:
      return map2(o, a, b, n, [](float x, float y) { return x / y; });
    case OpKind::GeluBackward:
      return backends::cpu::geluBackwardRow(o, a, b, n);
    case OpKind::Maximum:
      return map2(o, a, b, n, [](float x, float y) { return (x != x || x > y) ? x : y; });
    case OpKind::Minimum:
      return map2(o, a, b, n, [](float x, float y) { return (x != x || x < y) ? x : y; });
    case OpKind::FloorDiv:
      return map2(o, a, b, n, floorDivF);
    case OpKind::Mod:
      return map2(o, a, b, n, modF);
    case OpKind::Pow:
      if (bIsTwo) return map1(o, a, n, [](float x) { return x * x; });
      return map2(o, a, b, n, [](float x, float y) { return std::pow(x, y); });
    default:
      TESSEL_ASSERT(false, "fused: binary op has no float kernel");
  }
}

TESSEL_ISA_CLONES void fusedIntArith(OpKind op, const int32_t* a, const int32_t* b, int32_t* o,
                                int64_t n) {
  using T = int32_t;
  auto anyZero = [&] {
    bool z = false;
    for (int64_t k = 0; k < n; ++k) z |= b[k] == 0;
    return z;
  };
  switch (op) {
    // Two's complement wrap-around, as the eager kernels (signed overflow is undefined).
    case OpKind::Add:
      return map2(o, a, b, n, [](T x, T y) { return T(uint32_t(x) + uint32_t(y)); });
    case OpKind::Sub:
      return map2(o, a, b, n, [](T x, T y) { return T(uint32_t(x) - uint32_t(y)); });
    case OpKind::Mul:
      return map2(o, a, b, n, [](T x, T y) { return T(uint32_t(x) * uint32_t(y)); });
    case OpKind::Maximum:
      return map2(o, a, b, n, [](T x, T y) { return x > y ? x : y; });
    case OpKind::Minimum:
      return map2(o, a, b, n, [](T x, T y) { return x < y ? x : y; });
    case OpKind::FloorDiv:
    case OpKind::Mod:
      if (anyZero())
        throwUserError(ErrorKind::ZeroDivisionError,
                       std::string(shapes::opName(op)) + ": integer division by zero");
      return op == OpKind::Mod ? map2(o, a, b, n, ops::ew::ew_mod_i) : map2(o, a, b, n, ops::ew::ew_floordiv_i);
    case OpKind::Pow: {
      bool negative = false;
      for (int64_t k = 0; k < n; ++k) negative |= b[k] < 0;
      if (negative)
        throwUserError(ErrorKind::ValueError,
                       "pow: integers to negative integer powers are not allowed (use a float "
                       "base)");
      return map2(o, a, b, n, ops::ew::ew_pow_i);
    }
    default:
      TESSEL_ASSERT(false, "fused: binary op has no integer kernel");
  }
}

void fusedToBool(int32_t* o, int64_t n) {
  for (int64_t k = 0; k < n; ++k) o[k] = o[k] != 0;
}

}  // namespace tessel::graph
