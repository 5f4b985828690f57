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
template <class T>
void copyStrided(const Tensor& dst, const Tensor& src) {
  const int64_t es = sizeof(T);
  auto plan = makeRowPlan<2>(dst.shape(), {&dst.strides(), &src.strides()}, {es, es});
  forEachRow(plan, {reinterpret_cast<char*>(dst.data<T>()), reinterpret_cast<char*>(src.data<T>())},
             [](std::array<char*, 2> p, int64_t n, std::array<int64_t, 2> s) {
               if (s[0] == es && s[1] == es) {
                 std::memcpy(p[0], p[1], n * es);
                 return;
               }
               for (int64_t i = 0; i < n; ++i)
                 *reinterpret_cast<T*>(p[0] + i * s[0]) =
                     *reinterpret_cast<const T*>(p[1] + i * s[1]);
             });
}
}  // namespace

void copyInto(const Tensor& dst, const Tensor& src) {
  TESSEL_ASSERT(dst.shape() == src.shape() && dst.dtype() == src.dtype(), "copyInto mismatch");
  if (elementSize(src.dtype()) == 4) return copyStrided<uint32_t>(dst, src);
  copyStrided<uint8_t>(dst, src);
}

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
