// Tensor construction, views and conversion to host values.
#include "backends/tensor.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "backends/cpu/loops.h"
#include "shapes/user_error.h"

namespace tessel::backends {

int64_t numelOf(std::span<const int64_t> shape) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : shape) overflow = __builtin_mul_overflow(n, s, &n) || overflow;
  // Past 2^62 elements no byte count fits in 64 bits: a shape error, not a wrapped size.
  if (overflow || n > (int64_t{1} << 62)) [[unlikely]] {
    std::string text;
    for (int64_t s : shape) text += (text.empty() ? "" : ", ") + std::to_string(s);
    throwUserError(ErrorKind::ValueError,
                   "a tensor of shape [" + text + "] has more elements than memory can address");
  }
  return n;
}

Dims contiguousStrides(std::span<const int64_t> shape) {
  Dims strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(shape[i], 1);
  }
  return strides;
}

Tensor Tensor::empty(Dims shape, DType dtype, Device device) {
  for (int64_t s : shape) TESSEL_ASSERT(s >= 0, "negative size in Tensor::empty");
  size_t bytes = static_cast<size_t>(numelOf(shape)) * elementSize(dtype);
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = Storage::allocate(bytes, device);
  impl->strides = contiguousStrides(shape);
  impl->shape = std::move(shape);
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

namespace {
template <class T>
Tensor fromFlat(std::span<const T> data, Dims shape, DType dtype) {
  TESSEL_ASSERT(static_cast<int64_t>(data.size()) == numelOf(shape),
                "fromData: data size does not match the shape");
  Tensor t = Tensor::empty(std::move(shape), dtype);
  if (!data.empty()) std::memcpy(t.data<T>(), data.data(), data.size() * sizeof(T));
  return t;
}
}  // namespace

Tensor Tensor::fromData(std::span<const float> data, Dims shape) {
  return fromFlat(data, std::move(shape), DType::F32);
}

Tensor Tensor::fromData(std::span<const int32_t> data, Dims shape) {
  return fromFlat(data, std::move(shape), DType::I32);
}

Tensor Tensor::fromBools(const std::vector<bool>& data, Dims shape) {
  std::vector<uint8_t> bytes(data.begin(), data.end());
  return fromFlat(std::span<const uint8_t>(bytes), std::move(shape), DType::Bool);
}

Tensor Tensor::scalar(double value, DType dtype) {
  Tensor t = empty({}, dtype);
  switch (dtype) {
    case DType::F32:
      *t.data<float>() = static_cast<float>(value);
      break;
    case DType::I32:
      *t.data<int32_t>() = static_cast<int32_t>(value);
      break;
    case DType::Bool:
      *t.data<uint8_t>() = value != 0;
      break;
  }
  return t;
}

Tensor Tensor::view(std::shared_ptr<Storage> storage, Dims shape, Dims strides, int64_t offset,
                    DType dtype) {
  TESSEL_ASSERT(shape.size() == strides.size(), "view: shape and strides differ in rank");
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->shape = std::move(shape);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor Tensor::alias() const {
  return view(storage(), shape(), strides(), offset(), dtype());
}

bool Tensor::isContiguous() const {
  // An empty tensor has no elements to be out of place, whatever its strides say.
  if (numel() == 0) return true;
  int64_t expected = 1;
  for (int64_t i = ndim() - 1; i >= 0; --i) {
    if (impl_->shape[i] == 1) continue;
    if (impl_->strides[i] != expected) return false;
    expected *= impl_->shape[i];
  }
  return true;
}

Tensor Tensor::contiguous() const {
  if (isContiguous()) return *this;
  Tensor out = empty(shape(), dtype(), device());
  cpu::copyToContiguous(*this, out.data<char>());
  return out;
}

Tensor Tensor::permute(std::span<const int64_t> dims) const {
  TESSEL_ASSERT(static_cast<int64_t>(dims.size()) == ndim(), "permute: wrong number of dims");
  Dims shape(dims.size()), strides(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    shape[i] = impl_->shape[dims[i]];
    strides[i] = impl_->strides[dims[i]];
  }
  return view(storage(), std::move(shape), std::move(strides), offset(), dtype());
}

Tensor Tensor::transpose(int64_t a, int64_t b) const {
  Dims shape = impl_->shape, strides = impl_->strides;
  std::swap(shape[a], shape[b]);
  std::swap(strides[a], strides[b]);
  return view(storage(), std::move(shape), std::move(strides), offset(), dtype());
}

Tensor Tensor::slice(int64_t dim, int64_t start, int64_t stop, int64_t step) const {
  TESSEL_ASSERT(step > 0 && start >= 0 && start <= impl_->shape[dim], "slice: bad bounds");
  Dims shape = impl_->shape, strides = impl_->strides;
  int64_t len = stop > start ? (stop - start + step - 1) / step : 0;
  shape[dim] = len;
  strides[dim] *= step;
  int64_t off = offset() + (len > 0 ? start * impl_->strides[dim] : 0);
  return view(storage(), std::move(shape), std::move(strides), off, dtype());
}

Tensor Tensor::select(int64_t dim, int64_t index) const {
  TESSEL_ASSERT(index >= 0 && index < impl_->shape[dim], "select: index out of range");
  Dims shape = impl_->shape, strides = impl_->strides;
  int64_t off = offset() + index * strides[dim];
  shape.erase(shape.begin() + dim);
  strides.erase(strides.begin() + dim);
  return view(storage(), std::move(shape), std::move(strides), off, dtype());
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  Dims shape = impl_->shape, strides = impl_->strides;
  int64_t s = dim < ndim() ? strides[dim] * shape[dim] : 1;
  shape.insert(shape.begin() + dim, 1);
  strides.insert(strides.begin() + dim, s);
  return view(storage(), std::move(shape), std::move(strides), offset(), dtype());
}

Tensor Tensor::squeeze(std::span<const int64_t> dims) const {
  Dims shape, strides;
  for (int64_t i = 0; i < ndim(); ++i) {
    if (std::find(dims.begin(), dims.end(), i) != dims.end()) {
      TESSEL_ASSERT(impl_->shape[i] == 1, "squeeze of a dim that is not 1");
      continue;
    }
    shape.push_back(impl_->shape[i]);
    strides.push_back(impl_->strides[i]);
  }
  return view(storage(), std::move(shape), std::move(strides), offset(), dtype());
}

Tensor Tensor::expand(std::span<const int64_t> shape) const {
  Dims s(shape.begin(), shape.end());
  return view(storage(), s, cpu::broadcastStrides(*this, shape), offset(), dtype());
}

namespace {
// Strides for viewing `t` with `shape` without copying, if possible (the same test as
// PyTorch's computeStride): each run of old dims that is contiguous within itself may be
// split or merged freely.
std::optional<Dims> viewStrides(const Tensor& t, std::span<const int64_t> shape) {
  if (t.numel() == 0 || t.isContiguous()) return contiguousStrides(shape);
  const Dims& os = t.shape();
  const Dims& ost = t.strides();
  Dims out(shape.size());
  int64_t viewD = static_cast<int64_t>(shape.size()) - 1;
  int64_t baseStride = ost.empty() ? 1 : ost.back();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t d = t.ndim() - 1; d >= 0; --d) {
    tensorNumel *= os[d];
    if (d == 0 || (os[d - 1] != 1 && ost[d - 1] != tensorNumel * baseStride)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || shape[viewD] == 1)) {
        out[viewD] = viewNumel * baseStride;
        viewNumel *= shape[viewD];
        --viewD;
      }
      if (viewNumel != tensorNumel) return std::nullopt;
      if (d > 0) {
        baseStride = ost[d - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD != -1) return std::nullopt;
  return out;
}
}  // namespace

Tensor Tensor::reshape(std::span<const int64_t> shape) const {
  TESSEL_ASSERT(numelOf(shape) == numel(), "reshape: element counts differ");
  Dims s(shape.begin(), shape.end());
  if (auto strides = viewStrides(*this, shape))
    return view(storage(), std::move(s), std::move(*strides), offset(), dtype());
  Tensor c = contiguous();
  return view(c.storage(), s, contiguousStrides(s), c.offset(), dtype());
}

std::vector<double> Tensor::toDoubles() const {
  std::vector<double> out;
  out.reserve(numel());
  forEachElement(*this, [&](auto v) { out.push_back(static_cast<double>(v)); });
  return out;
}

std::vector<int64_t> Tensor::toInts() const {
  std::vector<int64_t> out;
  out.reserve(numel());
  forEachElement(*this, [&](auto v) { out.push_back(static_cast<int64_t>(v)); });
  return out;
}

double Tensor::item() const {
  if (numel() != 1)
    throwUserError(ErrorKind::ValueError,
                   "item(): only a tensor with one element can be converted to a number, this "
                   "one has " +
                       std::to_string(numel()));
  return toDoubles()[0];
}

}  // namespace tessel::backends
