// ValueRange: integer intervals with infinite ends and interval arithmetic that follows the
// expression semantics (floor division, Python modulo), the cheap tier before the solver.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace tessel::shapes {

/// A closed interval [lo, hi]; kNegInf / kPosInf stand for unbounded ends. Arithmetic
/// saturates at the infinities, so results stay sound (possibly wider) on overflow; a result
/// never has lo = +inf or hi = -inf (a finite bound that reached INT64_MAX / INT64_MIN is
/// kept one short of it).
struct ValueRange {
  static constexpr int64_t kNegInf = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kPosInf = std::numeric_limits<int64_t>::max();
  int64_t lo = kNegInf;
  int64_t hi = kPosInf;

  static ValueRange all() { return {}; }
  /// [v, v]. INT64_MIN and INT64_MAX also stand for the infinities, so an extreme v is widened
  /// by one ([MAX - 1, inf]): read as an infinity it would make arithmetic on it unsound.
  static ValueRange point(int64_t v) {
    if (v == kPosInf) return {kPosInf - 1, kPosInf};
    if (v == kNegInf) return {kNegInf, kNegInf + 1};
    return {v, v};
  }
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
/// The values of s with k*s + c <= 0 (k != 0), computed without overflow: a bound beyond int64
/// (c = INT64_MIN) is no bound.
ValueRange rangeOfLinearLe(int64_t k, int64_t c);

}  // namespace tessel::shapes
