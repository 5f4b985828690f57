// DType names and sizes, generated from TESSEL_DTYPES.
#include "shapes/dtype.h"

namespace tessel::shapes {

std::string_view name(DType t) {
  switch (t) {
#define TESSEL_X(e, n, s) \
  case DType::e:          \
    return n;
    TESSEL_DTYPES(TESSEL_X)
#undef TESSEL_X
  }
  return "?";
}

std::optional<DType> dtypeFromName(std::string_view s) {
#define TESSEL_X(e, n, sz) \
  if (s == n) return DType::e;
  TESSEL_DTYPES(TESSEL_X)
#undef TESSEL_X
  return std::nullopt;
}

int elementSize(DType t) {
  switch (t) {
#define TESSEL_X(e, n, s) \
  case DType::e:          \
    return s;
    TESSEL_DTYPES(TESSEL_X)
#undef TESSEL_X
  }
  return 0;
}

}  // namespace tessel::shapes
