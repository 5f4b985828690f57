// The int and float operations that the engine's fast paths compute in line, without
// overflow; the generic operators (ops.h) decide everything else.
#pragma once

#include <cstdint>

#include "interp/syntax/ast.h"

namespace tessel::interp {

/// The int operators a loop counter or an index usually needs, without overflow; false when
/// the generic path must decide (overflow, division by a non-positive number, other ops).
[[gnu::always_inline]] inline bool intArith(BinaryOp op, int64_t x, int64_t y, int64_t& r) {
  switch (op) {
    case BinaryOp::Add:
      return !__builtin_add_overflow(x, y, &r);
    case BinaryOp::Sub:
      return !__builtin_sub_overflow(x, y, &r);
    case BinaryOp::Mul:
      return !__builtin_mul_overflow(x, y, &r);
    case BinaryOp::FloorDiv:
      if (y <= 0) return false;
      r = x / y - (x % y != 0 && x < 0);
      return true;
    case BinaryOp::Mod:
      if (y <= 0) return false;
      r = x % y;
      if (r < 0) r += y;
      return true;
    default:
      return false;
  }
}

/// + - * of two floats, the operators a float fast path takes; false for the others (their
/// errors and rules belong to the generic operator).
[[gnu::always_inline]] inline bool floatArith(BinaryOp op, double x, double y, double& r) {
  switch (op) {
    case BinaryOp::Add:
      r = x + y;
      return true;
    case BinaryOp::Sub:
      r = x - y;
      return true;
    case BinaryOp::Mul:
      r = x * y;
      return true;
    default:
      return false;
  }
}

/// x op y for the orderings and equalities of two ints; `ok` is false for in / not in.
[[gnu::always_inline]] inline bool compareInts(CompareOp op, int64_t x, int64_t y, bool& ok) {
  ok = true;
  switch (op) {
    case CompareOp::Eq:
      return x == y;
    case CompareOp::Ne:
      return x != y;
    case CompareOp::Lt:
      return x < y;
    case CompareOp::Le:
      return x <= y;
    case CompareOp::Gt:
      return x > y;
    case CompareOp::Ge:
      return x >= y;
    default:
      ok = false;
      return false;
  }
}


}  // namespace tessel::interp
