// ValueRange: integer intervals with infinite ends and interval arithmetic that follows the
// expression semantics (floor division, Python modulo), the cheap tier before the solver.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace tessel::shapes {

/// A closed interval [lo, hi]; kNegInf / kPosInf stand for unbounded ends. Arithmetic
/// saturates at the infinities, so results stay sound (possibly wider) on overflow.
struct ValueRange {
  static constexpr int64_t kNegInf = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kPosInf = std::numeric_limits<int64_t>::max();
  int64_t lo = kNegInf;
  int64_t hi = kPosInf;

  static ValueRange all() { return {}; }
  static ValueRange point(int64_t v) { return {v, v}; }
  static ValueRange boolean() { return {0, 1}; }
  bool isPoint() const { return lo == hi; }
  bool empty() const { return lo > hi; }
  bool contains(int64_t v) const { return lo <= v && v <= hi; }
  bool operator==(const ValueRange&) const = default;
  ValueRange intersect(const ValueRange& o) const;
  /// "[2, inf]".
  std::string toString() const;
};

ValueRange rangeAdd(const ValueRange& a, const ValueRange& b);
ValueRange rangeMul(const ValueRange& a, const ValueRange& b);
ValueRange rangeNeg(const ValueRange& a);
ValueRange rangeFloorDiv(const ValueRange& a, const ValueRange& b);
ValueRange rangeMod(const ValueRange& a, const ValueRange& b);
ValueRange rangeMin(const ValueRange& a, const ValueRange& b);
ValueRange rangeMax(const ValueRange& a, const ValueRange& b);

}  // namespace tessel::shapes
