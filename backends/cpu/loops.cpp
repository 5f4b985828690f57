// Broadcast strides and the strided copy that contiguous() and cat use.
#include "backends/cpu/loops.h"

#include <cstring>

#include "shapes/user_error.h"

namespace tessel::backends::cpu {

Dims broadcastStrides(const Tensor& t, std::span<const int64_t> shape) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  const int64_t td = t.ndim();
  TESSEL_ASSERT(td <= nd, "broadcast to fewer dims");
  Dims s(nd, 0);
  for (int64_t i = 0; i < td; ++i) {
    int64_t src = t.shape()[i];
    int64_t dst = shape[nd - td + i];
    TESSEL_ASSERT(src == dst || src == 1, "broadcast of incompatible sizes");
    s[nd - td + i] = src == 1 ? 0 : t.strides()[i];
  }
  return s;
}

namespace {
template <class T>
void copyRows(const Tensor& src, void* dst) {
  Dims out = contiguousStrides(src.shape());
  const int64_t es = sizeof(T);
  auto plan = makeRowPlan<2>(src.shape(), {&out, &src.strides()}, {es, es});
  forEachRow(plan, {static_cast<char*>(dst), reinterpret_cast<char*>(src.data<T>())},
             [](std::array<char*, 2> p, int64_t n, std::array<int64_t, 2> s) {
               T* o = reinterpret_cast<T*>(p[0]);
               const char* in = p[1];
               if (s[1] == es) {
                 std::memcpy(o, in, n * es);
               } else {
                 for (int64_t i = 0; i < n; ++i) o[i] = *reinterpret_cast<const T*>(in + i * s[1]);
               }
             });
}
}  // namespace

void copyToContiguous(const Tensor& src, void* dst) {
  switch (elementSize(src.dtype())) {
    case 4:
      return copyRows<uint32_t>(src, dst);
    case 1:
      return copyRows<uint8_t>(src, dst);
  }
  TESSEL_ASSERT(false, "unknown element size");
}

}  // namespace tessel::backends::cpu
