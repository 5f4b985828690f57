// DType: the element types of tensors, with PyTorch-style promotion (bool < i32 < f32).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tessel::shapes {

#define TESSEL_DTYPES(X) \
  X(Bool, "bool", 1)     \
  X(I32, "i32", 4)       \
  X(F32, "f32", 4)

/// Ordered by promotion rank: Bool < I32 < F32.
enum class DType : uint8_t {
#define TESSEL_X(e, n, s) e,
  TESSEL_DTYPES(TESSEL_X)
#undef TESSEL_X
};

/// "f32", "i32", "bool".
std::string_view name(DType t);
std::optional<DType> dtypeFromName(std::string_view s);
/// Bytes per element.
int elementSize(DType t);
/// The result type of an arithmetic op on a and b: the higher of the two.
inline DType promote(DType a, DType b) {
  return a < b ? b : a;
}
inline bool isFloating(DType t) {
  return t == DType::F32;
}
inline bool isIntegral(DType t) {
  return t != DType::F32;
}  ///< bool counts as integral

}  // namespace tessel::shapes
