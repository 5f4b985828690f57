// Tensor: a cheap-to-copy handle on strided, shared storage (language.md, "Tensors").
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "backends/device.h"
#include "backends/storage.h"
#include "shapes/dtype.h"

namespace tessel::backends {

using shapes::DType;
/// Concrete sizes or strides of an eager tensor (strides count elements, not bytes).
using Dims = std::vector<int64_t>;

using shapes::elementSize;  // bytes per element; bool is stored as one byte, 0 or 1
/// Product of the sizes.
int64_t numelOf(std::span<const int64_t> shape);
/// Row-major strides of a contiguous tensor of `shape`.
Dims contiguousStrides(std::span<const int64_t> shape);

/// The value behind a Tensor handle. Immutable once built: tensors are values (language.md),
/// so kernels only ever write into freshly allocated outputs.
struct TensorImpl {
  std::shared_ptr<Storage> storage;
  Dims shape;
  Dims strides;
  int64_t offset = 0;  // in elements
  DType dtype = DType::F32;
};

/// A tensor handle. Copies share the same TensorImpl, and that identity is what autodiff
/// tracks (autodiff/tape.h); views share the Storage but are new tensors.
class Tensor {
 public:
  Tensor() = default;  // an undefined tensor; defined() is false

  /// A contiguous tensor with uninitialized contents.
  static Tensor empty(Dims shape, DType dtype, Device device = Device::Cpu);
  /// Builds contiguous tensors from row-major data; data.size() must equal numel(shape).
  static Tensor fromData(std::span<const float> data, Dims shape);
  static Tensor fromData(std::span<const int32_t> data, Dims shape);
  static Tensor fromBools(const std::vector<bool>& data, Dims shape);
  /// A 0-d tensor holding one value.
  static Tensor scalar(double value, DType dtype);
  /// A view over existing storage.
  static Tensor view(std::shared_ptr<Storage> storage, Dims shape, Dims strides, int64_t offset,
                     DType dtype);

  bool defined() const { return impl_ != nullptr; }
  const Dims& shape() const { return impl_->shape; }
  const Dims& strides() const { return impl_->strides; }
  int64_t size(int64_t dim) const { return impl_->shape[dim]; }
  int64_t ndim() const { return static_cast<int64_t>(impl_->shape.size()); }
  int64_t numel() const { return numelOf(impl_->shape); }
  int64_t offset() const { return impl_->offset; }
  DType dtype() const { return impl_->dtype; }
  Device device() const { return impl_->storage->device(); }
  const std::shared_ptr<Storage>& storage() const { return impl_->storage; }
  /// The identity autodiff keys on: equal for copies of one handle, distinct for views.
  const TensorImpl* id() const { return impl_.get(); }
  /// A new tensor (new identity) over the same storage, shape and strides.
  Tensor alias() const;

  /// Row-major with no gaps (size-1 dims may have any stride).
  bool isContiguous() const;
  /// This tensor if contiguous, else a contiguous copy.
  Tensor contiguous() const;
  /// Address of the first element, typed. T is the dtype's storage type, or a byte type for
  /// code that copies raw elements: the offset is always stepped in the dtype's elements, so
  /// data<char>() of an f32 view that starts at element 3 points 12 bytes in, not 3.
  template <class T>
  T* data() const {
    return reinterpret_cast<T*>(bytes());
  }
  /// Address of the first element as bytes, whatever the dtype.
  std::byte* bytes() const {
    return static_cast<std::byte*>(impl_->storage->data()) +
           impl_->offset * int64_t(shapes::elementSize(impl_->dtype));
  }

  // Views: no data is copied. Arguments are already normalized and checked by the shape rule
  // (dims in [0, ndim), slice bounds clamped); violating that is a bug, caught by asserts.
  Tensor permute(std::span<const int64_t> dims) const;
  Tensor transpose(int64_t a, int64_t b) const;
  Tensor slice(int64_t dim, int64_t start, int64_t stop, int64_t step) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor unsqueeze(int64_t dim) const;
  /// Removes the given size-1 dims (sorted or not).
  Tensor squeeze(std::span<const int64_t> dims) const;
  /// Broadcasts to `shape` with stride 0 on new and size-1 dims.
  Tensor expand(std::span<const int64_t> shape) const;
  /// A view with a new shape when the strides allow it, else a contiguous copy reshaped.
  Tensor reshape(std::span<const int64_t> shape) const;

  /// All elements in row-major order, converted (for .tolist(), tests and printing).
  std::vector<double> toDoubles() const;
  std::vector<int64_t> toInts() const;
  /// The only element of a one-element tensor, as a double.
  double item() const;

 private:
  explicit Tensor(std::shared_ptr<const TensorImpl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const TensorImpl> impl_;
};

/// Visits the elements of `t` in row-major order as `f(const T&)` with T the storage type
/// (float, int32_t, uint8_t for bool). Used where speed does not matter (printing, tolist).
template <class F>
void forEachElement(const Tensor& t, F&& f);

}  // namespace tessel::backends

#include "backends/tensor_inl.h"
