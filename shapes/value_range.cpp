// Interval arithmetic on ValueRange with saturation at the infinities.
#include "shapes/value_range.h"

#include <algorithm>

#include "shapes/expr.h"

namespace tessel::shapes {

namespace {
constexpr int64_t NI = ValueRange::kNegInf, PI = ValueRange::kPosInf;

bool isInf(int64_t v) {
  return v == NI || v == PI;
}

int64_t satAdd(int64_t a, int64_t b) {
  if (a == NI || b == NI) return (a == PI || b == PI) ? 0 : NI;  // callers avoid inf - inf
  if (a == PI || b == PI) return PI;
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return a > 0 ? PI : NI;
  return r;
}
int64_t satMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  bool neg = (a < 0) != (b < 0);
  if (isInf(a) || isInf(b)) return neg ? NI : PI;
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return neg ? NI : PI;
  return r;
}
int64_t satNeg(int64_t a) {
  return a == NI ? PI : a == PI ? NI : -a;
}
// A lower bound of +inf (or an upper one of -inf) can only be a finite bound that reached
// INT64_MAX (INT64_MIN): read as an infinity it would claim more than is known, so it stays
// one short (found by tests/fuzz/fuzz_shapes: the range of 9223372036854775807 - (u0 % 5) was
// [inf, inf], a point).
ValueRange sound(int64_t lo, int64_t hi) {
  return {lo == PI ? PI - 1 : lo, hi == NI ? NI + 1 : hi};
}
}  // namespace

ValueRange ValueRange::intersect(const ValueRange& o) const {
  return {std::max(lo, o.lo), std::min(hi, o.hi)};
}

std::string ValueRange::toString() const {
  auto s = [](int64_t v) {
    return v == NI ? std::string("-inf") : v == PI ? std::string("inf") : std::to_string(v);
  };
  return "[" + s(lo) + ", " + s(hi) + "]";
}

ValueRange rangeAdd(const ValueRange& a, const ValueRange& b) {
  int64_t lo = (a.lo == NI || b.lo == NI) ? NI : satAdd(a.lo, b.lo);
  int64_t hi = (a.hi == PI || b.hi == PI) ? PI : satAdd(a.hi, b.hi);
  return sound(lo, hi);
}

ValueRange rangeMul(const ValueRange& a, const ValueRange& b) {
  int64_t c[4] = {satMul(a.lo, b.lo), satMul(a.lo, b.hi), satMul(a.hi, b.lo), satMul(a.hi, b.hi)};
  return sound(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
}

ValueRange rangeNeg(const ValueRange& a) {
  return sound(satNeg(a.hi), satNeg(a.lo));
}

ValueRange rangeFloorDiv(const ValueRange& a, const ValueRange& b) {
  // Only the common case of a divisor range that excludes 0 and -1 is tightened; the rest is
  // sound but wide. floordiv(x, 0) = 0 is covered since the result range then includes 0.
  if (b.lo > 0) {
    auto fd = [](int64_t x, int64_t y) {
      if (x == NI) return NI;
      if (x == PI) return y == PI ? int64_t{0} : PI;
      if (y == PI) return x < 0 ? int64_t{-1} : int64_t{0};
      return floorDivInt(x, y);
    };
    int64_t c[4] = {fd(a.lo, b.lo), fd(a.lo, b.hi), fd(a.hi, b.lo), fd(a.hi, b.hi)};
    return sound(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
  }
  if (b.hi < 0) return rangeFloorDiv(rangeNeg(a), rangeNeg(b));
  // Divisor may be zero or change sign: |result| <= |a| (and 0 is included).
  int64_t m = std::max(satNeg(a.lo) == PI ? PI : std::max(satNeg(a.lo), int64_t{0}),
                       std::max(a.hi, int64_t{0}));
  return sound(satNeg(m), m);
}

ValueRange rangeMod(const ValueRange& a, const ValueRange& b) {
  if (b.lo > 0) {
    if (a.lo >= 0 && a.hi < b.lo) return a;  // already reduced
    return sound(0, b.hi == PI ? PI : b.hi - 1);
  }
  if (b.hi < 0) return sound(b.lo == NI ? NI : b.lo + 1, 0);
  // b may be 0 (mod(a, 0) = a) or either sign.
  int64_t m = std::max({b.hi == PI ? PI : b.hi, satNeg(b.lo)});
  ValueRange r{satNeg(m), m};
  return sound(std::min(r.lo, a.lo), std::max(r.hi, a.hi));
}

ValueRange rangeOfLinearLe(int64_t k, int64_t c) {
  // In 128 bits: -c overflows int64 for c = INT64_MIN.
  using i128 = __int128;
  auto floorDiv = [](i128 a, i128 b) {
    i128 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  };
  auto clamp = [](i128 v) { return v >= PI ? PI : v <= NI ? NI : static_cast<int64_t>(v); };
  if (k > 0) return {NI, clamp(floorDiv(-i128{c}, k))};  // s <= floor(-c / k)
  return {clamp(-floorDiv(-i128{c}, -i128{k})), PI};     // s >= ceil(c / -k)
}

ValueRange rangeMin(const ValueRange& a, const ValueRange& b) {
  return sound(std::min(a.lo, b.lo), std::min(a.hi, b.hi));
}
ValueRange rangeMax(const ValueRange& a, const ValueRange& b) {
  return sound(std::max(a.lo, b.lo), std::max(a.hi, b.hi));
}

}  // namespace tessel::shapes
