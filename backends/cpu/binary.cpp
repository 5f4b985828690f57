// Elementwise binary and ternary kernels: arithmetic, comparisons, logic, where, clamp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "backends/cpu/binary_math.h"
#include "backends/cpu/kernels.h"
#include "backends/cpu/map.h"
#include "backends/cpu/vec_rows.h"
#include "ops/elementwise_cpu.h"
#include "shapes/elementwise_defs.h"

namespace tessel::backends::cpu {

namespace {

// Integer division by zero and negative integer powers have no answer: user errors, found
// before any work (PyTorch raises for both too).
void checkIntExponent(const Tensor& b) {
  Tensor c = b.contiguous();
  const int32_t* p = c.data<int32_t>();
  if (std::any_of(p, p + c.numel(), [](int32_t v) { return v < 0; }))
    throwUserError(ErrorKind::ValueError,
                   "pow: integers to negative integer powers are not allowed (use a float base)");
}

// i32 add, sub and mul wrap around like the division and power above (two's complement, as
// PyTorch's integer tensors do): signed overflow is undefined behaviour (found by
// tests/fuzz/fuzz_compile_diff under UBSan, squaring an i32 cast that had saturated).
template <class T, bool = std::is_integral_v<T>>
struct WrappingOf {
  using type = T;
};
template <class T>
struct WrappingOf<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <class T>
using Wrapping = typename WrappingOf<T>::type;

template <class T>
void arithmetic(OpKind op, const Tensor& a, const Tensor& b, const Tensor& out) {
  using W = Wrapping<T>;
  switch (op) {
    case OpKind::Add:
      return mapBinary<T, T>(a, b, out, [](T x, T y) { return T(W(x) + W(y)); });
    case OpKind::Sub:
      return mapBinary<T, T>(a, b, out, [](T x, T y) { return T(W(x) - W(y)); });
    case OpKind::Mul:
      return mapBinary<T, T>(a, b, out, [](T x, T y) { return T(W(x) * W(y)); });
    case OpKind::Maximum:
      return mapBinary<T, T>(a, b, out, [](T x, T y) { return (x != x || x > y) ? x : y; });
    case OpKind::Minimum:
      return mapBinary<T, T>(a, b, out, [](T x, T y) { return (x != x || x < y) ? x : y; });
    default:
      break;
  }
  if constexpr (std::is_same_v<T, float>) {
    switch (op) {
      case OpKind::Div:
        return mapBinary<T, T>(a, b, out, [](T x, T y) { return x / y; });
      case OpKind::GeluBackward: {
        // Broadcast operands are expanded first, so that every element goes through the one
        // ISA-cloned row, as in a fused graph: the results agree to the bit.
        const Tensor g = a.expand(out.shape()).contiguous(), x = b.expand(out.shape()).contiguous();
        return geluBackwardRow(out.data<float>(), g.data<float>(), x.data<float>(), out.numel());
      }
      case OpKind::FloorDiv:
        return mapBinary<T, T>(a, b, out, floorDivF);
      case OpKind::Mod:
        return mapBinary<T, T>(a, b, out, modF);
      case OpKind::Pow:
        if (b.numel() == 1 && b.item() == 2.0)  // x ** 2 is common in losses: no pow call
          return mapBinary<T, T>(a, b, out, [](T x, T) { return x * x; });
        return mapBinary<T, T>(a, b, out, [](T x, T y) { return std::pow(x, y); });
      default:
        break;
    }
  } else {
    switch (op) {
      case OpKind::FloorDiv:
        checkIntDivisors(op, b);
        return mapBinary<T, T>(a, b, out, ops::ew::ew_floordiv_i);
      case OpKind::Mod:
        checkIntDivisors(op, b);
        return mapBinary<T, T>(a, b, out, ops::ew::ew_mod_i);
      case OpKind::Pow:
        checkIntExponent(b);
        return mapBinary<T, T>(a, b, out, ops::ew::ew_pow_i);
      default:
        break;
    }
  }
  TESSEL_ASSERT(false, "binary op has no kernel for this dtype");
}

template <class T>
void compare(OpKind op, const Tensor& a, const Tensor& b, const Tensor& out) {
  using B = uint8_t;
  switch (op) {
    case OpKind::Eq:
      return mapBinary<B, T>(a, b, out, [](T x, T y) { return B(x == y); });
    case OpKind::Ne:
      return mapBinary<B, T>(a, b, out, [](T x, T y) { return B(x != y); });
    case OpKind::Lt:
      return mapBinary<B, T>(a, b, out, [](T x, T y) { return B(x < y); });
    case OpKind::Le:
      return mapBinary<B, T>(a, b, out, [](T x, T y) { return B(x <= y); });
    case OpKind::Gt:
      return mapBinary<B, T>(a, b, out, [](T x, T y) { return B(x > y); });
    case OpKind::Ge:
      return mapBinary<B, T>(a, b, out, [](T x, T y) { return B(x >= y); });
    case OpKind::LogicalAnd:
      return mapBinary<B, T>(a, b, out, [](T x, T y) { return B(x != 0 && y != 0); });
    case OpKind::LogicalOr:
      return mapBinary<B, T>(a, b, out, [](T x, T y) { return B(x != 0 || y != 0); });
    default:
      TESSEL_ASSERT(false, "not a comparison");
  }
}

}  // namespace

Tensor runBinary(OpKind op, const Tensor& a, const Tensor& b, const OpSignature& sig) {
  if (const shapes::ElementwiseDef* d = shapes::elementwiseDef(op)) {
    const Tensor in[] = {a, b};
    return runDefined(*d, in, sig);
  }
  Tensor out = emptyLike(sig);
  if (shapes::isComparison(op)) {
    DType common = shapes::promote(a.dtype(), b.dtype());
    Tensor ca = castTo(a, common), cb = castTo(b, common);
    visitDType(common, [&](auto t) { compare<decltype(t)>(op, ca, cb, out); });
    return out;
  }
  // Arithmetic runs in the result dtype; bool arithmetic (true + true) runs in i32 and is
  // converted back, so it means logical or/and like PyTorch.
  DType compute = sig.dtype == DType::Bool ? DType::I32 : sig.dtype;
  Tensor ca = castTo(a, compute), cb = castTo(b, compute);
  if (compute == DType::F32) {
    arithmetic<float>(op, ca, cb, out);
    return out;
  }
  if (sig.dtype == DType::I32) {
    arithmetic<int32_t>(op, ca, cb, out);
    return out;
  }
  Tensor tmp = Tensor::empty(out.shape(), DType::I32);
  arithmetic<int32_t>(op, ca, cb, tmp);
  return castTo(tmp, DType::Bool);
}

Tensor runTernary(OpKind op, std::span<const Tensor> in, const OpSignature& sig) {
  if (const shapes::ElementwiseDef* d = shapes::elementwiseDef(op)) return runDefined(*d, in, sig);
  Tensor out = emptyLike(sig);
  if (op == OpKind::Where) {
    Tensor cond = castTo(in[0], DType::Bool);
    Tensor a = castTo(in[1], sig.dtype), b = castTo(in[2], sig.dtype);
    visitDType(sig.dtype, [&](auto t) {
      using T = decltype(t);
      // A select without a branch: a random mask would mispredict every other element.
      mapTernary<T, uint8_t, T, T>(cond, a, b, out, [](uint8_t c, T x, T y) {
        const T pick[2] = {y, x};
        return pick[c != 0];
      });
    });
    return out;
  }
  TESSEL_ASSERT(op == OpKind::Clamp, "unknown ternary op");
  DType compute = sig.dtype == DType::Bool ? DType::I32 : sig.dtype;
  Tensor x = castTo(in[0], compute), lo = castTo(in[1], compute), hi = castTo(in[2], compute);
  Tensor res = compute == sig.dtype ? out : Tensor::empty(out.shape(), compute);
  visitDType(compute, [&](auto t) {
    using T = decltype(t);
    mapTernary<T, T, T, T>(x, lo, hi, res, clampValue<T>);
  });
  return compute == sig.dtype ? out : castTo(res, DType::Bool);
}

}  // namespace tessel::backends::cpu
