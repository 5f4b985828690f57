// Scalar formulas of the dense-model unary ops (erf, floor, ..., isfinite), shared by
// the eager kernels (unary.cpp) and the fused tile loops (backends/graph/cpu_fused.cpp), so a
// fused program rounds exactly like the eager chain it replaced. PyTorch semantics throughout:
// round is half to even, sign(NaN) is 0, softplus is PyTorch's (beta 1, threshold 20).
#pragma once

#include <cmath>

#include "backends/cpu/vec_math.h"
#include <cstdint>

#include "shapes/op_kind.h"

namespace tessel::backends::cpu {

/// True for the dense-model unary ops (erf ... isfinite).
inline bool isDenseUnary(shapes::OpKind op) {
  using K = shapes::OpKind;
  switch (op) {
    case K::Erf: case K::Floor: case K::Ceil: case K::Round: case K::Trunc: case K::Sign:
    case K::Log1p: case K::Expm1: case K::Silu: case K::Softplus: case K::IsNan: case K::IsInf:
    case K::IsFinite:
      return true;
    default:
      return false;
  }
}

/// The ops whose result is a bool test of the input (computed in the input's own dtype).
inline bool isFloatTest(shapes::OpKind op) {
  return op == shapes::OpKind::IsNan || op == shapes::OpKind::IsInf ||
         op == shapes::OpKind::IsFinite;
}

/// f(v) in f32 for a dense unary op (the tests return 0/1).
inline float denseUnaryF(shapes::OpKind op, float v) {
  using K = shapes::OpKind;
  switch (op) {
    case K::Erf: return verf(v);  // vectorizable (Note [Vectorizable math])
    case K::Floor: return std::floor(v);
    case K::Ceil: return std::ceil(v);
    case K::Round: return std::nearbyint(v);  // the default rounding mode: half to even
    case K::Trunc: return std::trunc(v);
    case K::Sign: return v > 0.0f ? 1.0f : (v < 0.0f ? -1.0f : 0.0f);  // NaN -> 0 as torch
    case K::Log1p: return std::log1p(v);
    case K::Expm1: return std::expm1(v);
    case K::Silu: return v / (1.0f + std::exp(-v));
    case K::Softplus: return v > 20.0f ? v : std::log1p(std::exp(v));
    case K::IsNan: return v != v ? 1.0f : 0.0f;
    case K::IsInf: return std::isinf(v) ? 1.0f : 0.0f;
    case K::IsFinite: return std::isfinite(v) ? 1.0f : 0.0f;
    default: return 0.0f;
  }
}

/// f(v) for an i32 input of the ops that keep integer dtypes (floor..sign), or the tests.
inline int32_t denseUnaryI(shapes::OpKind op, int32_t v) {
  using K = shapes::OpKind;
  switch (op) {
    case K::Sign: return v > 0 ? 1 : (v < 0 ? -1 : 0);
    case K::IsNan:
    case K::IsInf: return 0;
    case K::IsFinite: return 1;
    default: return v;  // floor, ceil, round, trunc of an integer are the integer
  }
}

}  // namespace tessel::backends::cpu
