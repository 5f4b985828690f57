// tessel::Tensor: plain buffers and DLPack in and out (Note [DLPack exchange]).
#include <dlpack/dlpack.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "api/api_internal.h"
#include "backends/tensor.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/user_error.h"

namespace tessel {

// Note [DLPack exchange]
// In: a cpu tensor of a Tessel dtype (float32, int32, bool) is wrapped where it lies: its
// storage borrows the producer's bytes and holds the DLManagedTensor, whose deleter runs when
// the last tensor viewing them dies (on whatever thread). Strides and byte_offset carry over
// as they are, except for layouts Tessel's kernels do not take (negative strides, a data
// address not aligned to the element size), which are copied. Other dtypes are converted into
// a new tensor, as JAX does without x64 (float64 to f32; integers to i32, a value that does
// not fit being a ValueError rather than a silent wrap), and the producer is released at once.
// Out: the result borrows this tensor's storage (a host copy first for a device tensor) and
// describes its shape and strides; the caller's deleter call releases that reference.
// DLPack 0.6 (Debian's) has no bool code; code 6 is kDLBool of DLPack 0.8 and later, which
// PyTorch and NumPy use, and a 1-bit unsigned type is read as bool too.

namespace {

using backends::DType;
constexpr uint8_t kDLBoolCode = 6;

[[noreturn]] void valueError(const std::string& message) {
  throw api::errorWithoutLocation("ValueError", message);
}
[[noreturn]] void overflowError(const std::string& message) {
  throw api::errorWithoutLocation("OverflowError", message);
}

std::string dtypeText(DLDataType t) {
  return "code " + std::to_string(t.code) + ", " + std::to_string(t.bits) + " bits, " +
         std::to_string(t.lanes) + " lanes";
}

/// The Tessel dtype a DLPack element type is stored as without conversion, if any.
std::optional<DType> nativeDType(DLDataType t) {
  if (t.lanes != 1) return std::nullopt;
  if (t.code == kDLFloat && t.bits == 32) return DType::F32;
  if (t.code == kDLInt && t.bits == 32) return DType::I32;
  if ((t.code == kDLBoolCode && t.bits == 8) || (t.code == kDLUInt && t.bits == 1))
    return DType::Bool;
  return std::nullopt;
}

/// Reads element `i` (an element index into the data) of a converted dtype as a double or an
/// int64, and the dtype it becomes.
struct Converter {
  DType to;
  double (*asDouble)(const std::byte*) = nullptr;
  int64_t (*asInt)(const std::byte*) = nullptr;
};

template <class T>
double readDouble(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return static_cast<double>(v);
}
template <class T>
int64_t readInt(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return static_cast<int64_t>(v);
}

std::optional<Converter> converterFor(DLDataType t) {
  if (t.lanes != 1) return std::nullopt;
  if (t.code == kDLFloat && t.bits == 64) return Converter{DType::F32, readDouble<double>};
  if (t.code == kDLInt) {
    if (t.bits == 8) return Converter{DType::I32, nullptr, readInt<int8_t>};
    if (t.bits == 16) return Converter{DType::I32, nullptr, readInt<int16_t>};
    if (t.bits == 64) return Converter{DType::I32, nullptr, readInt<int64_t>};
  }
  if (t.code == kDLUInt) {
    if (t.bits == 8) return Converter{DType::I32, nullptr, readInt<uint8_t>};
    if (t.bits == 16) return Converter{DType::I32, nullptr, readInt<uint16_t>};
    if (t.bits == 32) return Converter{DType::I32, nullptr, readInt<uint32_t>};
    if (t.bits == 64) return Converter{DType::I32, nullptr, readInt<uint64_t>};
  }
  return std::nullopt;
}

/// Element offsets of a strided tensor in row-major order.
template <class F>
void forEachOffset(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                   F&& f) {
  int64_t n = backends::numelOf(shape);
  if (n == 0) return;
  std::vector<int64_t> index(shape.size(), 0);
  int64_t offset = 0;
  for (int64_t k = 0; k < n; ++k) {
    f(offset);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) {
        offset += strides[d];
        break;
      }
      offset -= strides[d] * (shape[d] - 1);
      index[d] = 0;
    }
  }
}

/// A contiguous copy of a strided DLPack tensor, converted to `to` where needed.
backends::Tensor copyStrided(const std::byte* base, int elementBytes, DLDataType type,
                             const std::vector<int64_t>& shape,
                             const std::vector<int64_t>& strides) {
  std::optional<DType> native = nativeDType(type);
  std::optional<Converter> conv = native ? std::nullopt : converterFor(type);
  DType to = native ? *native : conv->to;
  backends::Tensor out = backends::Tensor::empty(shape, to);
  std::byte* dst = out.bytes();
  const int outBytes = shapes::elementSize(to);
  int64_t k = 0;
  forEachOffset(shape, strides, [&](int64_t offset) {
    const std::byte* src = base + offset * elementBytes;
    std::byte* d = dst + k++ * outBytes;
    if (native) {
      std::memcpy(d, src, outBytes);
      if (to == DType::Bool) *d = std::byte(*src != std::byte{0});
    } else if (conv->asDouble) {
      const double v = conv->asDouble(src);
      const float f = static_cast<float>(v);
      if (std::isinf(f) && std::isfinite(v))
        overflowError("Tensor.fromDLPack: the value " + std::to_string(v) +
                      " does not fit in f32 (Tessel's float dtype)");
      std::memcpy(d, &f, sizeof f);
    } else {
      int64_t i = conv->asInt(src);
      if (type.code == kDLUInt && type.bits == 64 && i < 0) i = std::numeric_limits<int64_t>::max();
      if (i < std::numeric_limits<int32_t>::min() || i > std::numeric_limits<int32_t>::max())
        overflowError("Tensor.fromDLPack: the value " + std::to_string(i) +
                      " does not fit in i32 (Tessel's integer dtype)");
      int32_t v = static_cast<int32_t>(i);
      std::memcpy(d, &v, sizeof v);
    }
  });
  return out;
}

struct ExportContext {
  backends::Tensor tensor;
  std::vector<int64_t> shape, strides;
};

}  // namespace

Value Tensor::fromDLPack(DLManagedTensor* managed) {
  if (!managed) valueError("Tensor.fromDLPack: a null DLManagedTensor");
  // From here on the producer is released exactly once, however this ends.
  std::shared_ptr<DLManagedTensor> owner(managed, [](DLManagedTensor* m) {
    if (m->deleter) m->deleter(m);
  });
  const DLTensor& t = managed->dl_tensor;
  if (t.device.device_type != kDLCPU && t.device.device_type != kDLCUDAHost)
    valueError("Tensor.fromDLPack: only cpu tensors can be exchanged (device type " +
               std::to_string(t.device.device_type) + ")");
  if (t.ndim < 0) valueError("Tensor.fromDLPack: negative ndim");
  std::optional<DType> native = nativeDType(t.dtype);
  if (!native && !converterFor(t.dtype))
    valueError("Tensor.fromDLPack: unsupported dtype (" + dtypeText(t.dtype) +
               "); Tessel takes float32/float64, 8-64 bit integers and bool");
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
  for (int64_t s : shape)
    if (s < 0) valueError("Tensor.fromDLPack: negative size in the shape");
  std::vector<int64_t> strides =
      t.strides ? std::vector<int64_t>(t.strides, t.strides + t.ndim)
                : backends::contiguousStrides(shape);
  const int elementBytes = t.dtype.bits == 1 ? 1 : t.dtype.bits / 8;
  const auto* base = static_cast<const std::byte*>(t.data) + t.byte_offset;
  const int64_t numel = backends::numelOf(shape);
  if (numel > 0 && !t.data) valueError("Tensor.fromDLPack: null data");

  bool zeroCopy = native.has_value() &&
                  reinterpret_cast<uintptr_t>(base) % static_cast<uintptr_t>(elementBytes) == 0;
  int64_t extent = 1;  // elements from `base` to the last one reached, inclusive
  for (size_t d = 0; d < shape.size(); ++d) {
    if (strides[d] < 0) zeroCopy = false;
    else if (shape[d] > 0) extent += (shape[d] - 1) * strides[d];
  }
  if (numel == 0) extent = 0;
  backends::Tensor tensor;
  if (zeroCopy) {
    auto storage = backends::Storage::borrow(const_cast<std::byte*>(base),
                                             static_cast<size_t>(extent) * elementBytes,
                                             backends::Device::Cpu, owner);
    tensor = backends::Tensor::view(std::move(storage), shape, strides, 0, *native);
  } else {
    tensor = copyStrided(base, elementBytes, t.dtype, shape, strides);
  }
  return Value(Tensor(std::make_shared<const Impl>(Impl{std::move(tensor)})));
}

DLManagedTensor* Tensor::toDLPack() const {
  backends::Tensor host = interp::hostTensor(impl_->tensor);
  auto* ctx = new ExportContext{host, host.shape(), host.strides()};
  auto* m = new DLManagedTensor{};
  DLTensor& t = m->dl_tensor;
  t.data = host.bytes();
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = static_cast<int>(ctx->shape.size());
  switch (host.dtype()) {
    case DType::F32: t.dtype = DLDataType{kDLFloat, 32, 1}; break;
    case DType::I32: t.dtype = DLDataType{kDLInt, 32, 1}; break;
    case DType::Bool: t.dtype = DLDataType{kDLBoolCode, 8, 1}; break;
  }
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byte_offset = 0;
  m->manager_ctx = ctx;
  m->deleter = [](DLManagedTensor* self) {
    delete static_cast<ExportContext*>(self->manager_ctx);
    delete self;
  };
  return m;
}

namespace {

std::vector<int64_t> checkedShape(std::vector<int64_t> shape, size_t count, const char* what) {
  for (int64_t s : shape)
    if (s < 0) valueError(std::string(what) + ": negative size in the shape");
  if (static_cast<size_t>(backends::numelOf(shape)) != count)
    valueError(std::string(what) + ": " + std::to_string(count) + " elements for a shape of " +
               std::to_string(backends::numelOf(shape)));
  return shape;
}

Tensor wrapTensor(backends::Tensor t) {
  return Tensor(std::make_shared<const Tensor::Impl>(Tensor::Impl{std::move(t)}));
}

/// A contiguous host copy of `t` with `want`'s dtype, sized for `count` elements.
backends::Tensor readable(const backends::Tensor& t, DType want, size_t count) {
  if (t.dtype() != want)
    throw api::errorWithoutLocation("TypeError", "Tensor.copyTo: the tensor is " +
                                                     std::string(shapes::name(t.dtype())) +
                                                     ", the buffer is for " +
                                                     std::string(shapes::name(want)));
  if (static_cast<size_t>(t.numel()) != count)
    valueError("Tensor.copyTo: the buffer holds " + std::to_string(count) +
               " elements, the tensor " + std::to_string(t.numel()));
  return interp::hostTensor(t).contiguous();
}

}  // namespace

Tensor Tensor::fromData(std::span<const float> data, std::vector<int64_t> shape) {
  return wrapTensor(
      backends::Tensor::fromData(data, checkedShape(std::move(shape), data.size(), "fromData")));
}

Tensor Tensor::fromData(std::span<const int32_t> data, std::vector<int64_t> shape) {
  return wrapTensor(
      backends::Tensor::fromData(data, checkedShape(std::move(shape), data.size(), "fromData")));
}

Tensor Tensor::fromData(std::span<const bool> data, std::vector<int64_t> shape) {
  shape = checkedShape(std::move(shape), data.size(), "fromData");
  backends::Tensor t = backends::Tensor::empty(shape, DType::Bool);
  auto* out = t.data<uint8_t>();
  for (size_t i = 0; i < data.size(); ++i) out[i] = data[i] ? 1 : 0;
  return wrapTensor(std::move(t));
}

void Tensor::copyTo(std::span<float> out) const {
  backends::Tensor t = readable(impl_->tensor, DType::F32, out.size());
  if (!out.empty()) std::memcpy(out.data(), t.data<float>(), out.size_bytes());
}

void Tensor::copyTo(std::span<int32_t> out) const {
  backends::Tensor t = readable(impl_->tensor, DType::I32, out.size());
  if (!out.empty()) std::memcpy(out.data(), t.data<int32_t>(), out.size_bytes());
}

void Tensor::copyTo(std::span<bool> out) const {
  backends::Tensor t = readable(impl_->tensor, DType::Bool, out.size());
  const auto* in = t.data<uint8_t>();
  for (size_t i = 0; i < out.size(); ++i) out[i] = in[i] != 0;
}

std::vector<int64_t> Tensor::shape() const {
  return impl_->tensor.shape();
}

int64_t Tensor::numel() const {
  return impl_->tensor.numel();
}

std::string Tensor::dtype() const {
  return std::string(shapes::name(impl_->tensor.dtype()));
}

std::string Tensor::device() const {
  return std::string(backends::deviceName(impl_->tensor.device()));
}

}  // namespace tessel

namespace tessel::api {

backends::Tensor tensorOf(const interp::Value& v) {
  try {
    return interp::asTensor(v);
  } catch (const UserError& e) {
    throw errorWithoutLocation(errorKindName(e.kind()), e.what());
  }
}

}  // namespace tessel::api
