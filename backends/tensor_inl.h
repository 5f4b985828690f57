// Template bodies for tensor.h: row-major element visitation over any strides.
#pragma once

#include <cstdint>

namespace tessel::backends {

namespace detail {
template <class T, class F>
void forEachTyped(const Tensor& t, F& f) {
  const T* base = t.data<T>();
  const int64_t n = t.numel();
  const int64_t nd = t.ndim();
  if (n == 0) return;
  if (t.isContiguous()) {
    for (int64_t i = 0; i < n; ++i) f(base[i]);
    return;
  }
  Dims index(nd, 0);
  const Dims& shape = t.shape();
  const Dims& strides = t.strides();
  int64_t off = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(base[off]);
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) {
        off += strides[d];
        break;
      }
      off -= strides[d] * (shape[d] - 1);
      index[d] = 0;
    }
  }
}
}  // namespace detail

template <class F>
void forEachElement(const Tensor& t, F&& f) {
  switch (t.dtype()) {
    case DType::F32:
      return detail::forEachTyped<float>(t, f);
    case DType::I32:
      return detail::forEachTyped<int32_t>(t, f);
    case DType::Bool:
      return detail::forEachTyped<uint8_t>(t, f);
  }
}

}  // namespace tessel::backends
