// File element types and their conversion to Tessel's dtypes (element_type.h).
#include "backends/io/element_type.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "backends/io/io_error.h"

namespace tessel::backends::io {

namespace {

struct Info {
  int bytes;
  char numpyKind;
  const char* safetensors;
  DType dtype;
};

constexpr Info kInfo[] = {
#define TESSEL_X(e, bytes, kind, st, dt) {bytes, kind, st, DType::dt},
    TESSEL_FILE_ELEMENT_TYPES(TESSEL_X)
#undef TESSEL_X
};

const Info& info(ElementType t) {
  return kInfo[static_cast<size_t>(t)];
}

constexpr ElementType kAll[] = {
#define TESSEL_X(e, bytes, kind, st, dt) ElementType::e,
    TESSEL_FILE_ELEMENT_TYPES(TESSEL_X)
#undef TESSEL_X
};

/// IEEE half to float, subnormals, infinities and NaN included.
float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal: normalize
    int shift = 0;
    while (!(mant & 0x400)) {
      mant <<= 1;
      ++shift;
    }
    bits = sign | (uint32_t(113 - shift) << 23) | ((mant & 0x3ff) << 13);
  }
  return std::bit_cast<float>(bits);
}

/// The element at `p` as raw little-endian bits in a uint64 (byte-swapped first if needed).
uint64_t loadBits(const std::byte* p, int bytes, bool bigEndian) {
  unsigned char b[8];
  std::memcpy(b, p, bytes);
  if (bigEndian) std::reverse(b, b + bytes);
  uint64_t v = 0;
  for (int i = bytes; i-- > 0;) v = (v << 8) | b[i];
  return v;
}

[[noreturn]] void outOfRange(const std::string& path, const std::string& value, uint64_t index,
                             const char* dtype = "i32 (Tessel's integer dtype)") {
  overflowingValue(path, "the value " + value + " (element " + std::to_string(index) +
                             ") does not fit in " + dtype);
}

/// Asks for transparent huge pages on the 2 MiB-aligned interior of a fresh buffer before the
/// first write to it, as NumPy does for its large arrays: reading a 1 GiB file into 4 KiB pages
/// costs 262,144 page faults, about half of the load (docs/perf.md, "Files").
void adviseHugePages(std::byte* p, size_t n) {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(p) + n) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace

int elementBytes(ElementType t) {
  return info(t).bytes;
}

const char* elementName(ElementType t) {
  return info(t).safetensors;
}

std::optional<ElementType> elementFromSafetensors(const std::string& name) {
  for (ElementType t : kAll)
    if (name == info(t).safetensors) return t;
  return std::nullopt;
}

std::optional<ElementType> elementFromNumpy(char kind, int bytes) {
  for (ElementType t : kAll)
    if (info(t).numpyKind == kind && info(t).bytes == bytes) return t;
  return std::nullopt;
}

DType tesselDType(ElementType t) {
  return info(t).dtype;
}

bool isNative(ElementType t) {
  return t == ElementType::F32 || t == ElementType::I32 || t == ElementType::Bool;
}

ElementType elementOf(DType t) {
  switch (t) {
    case DType::F32:
      return ElementType::F32;
    case DType::I32:
      return ElementType::I32;
    case DType::Bool:
      return ElementType::Bool;
  }
  return ElementType::F32;
}

void convertElements(const std::byte* src, ElementType t, bool bigEndian, std::byte* dst,
                     size_t count, uint64_t first, const std::string& path) {
  const int n = info(t).bytes;
  if (n == 1) bigEndian = false;
  if (isNative(t) && !bigEndian) {
    std::memcpy(dst, src, count * n);
    if (t == ElementType::Bool)
      for (size_t i = 0; i < count; ++i) dst[i] = std::byte(dst[i] != std::byte{0});
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    uint64_t bits = loadBits(src + i * n, n, bigEndian);
    float f = 0;
    int64_t v = 0;
    bool isFloat = tesselDType(t) == DType::F32;
    switch (t) {
      case ElementType::F64: {
        const double d = std::bit_cast<double>(bits);
        f = static_cast<float>(d);
        // A finite double beyond f32's range would become inf without a word.
        if (std::isinf(f) && std::isfinite(d)) {
          char text[32];
          std::snprintf(text, sizeof text, "%.17g", d);
          outOfRange(path, text, first + i, "f32 (Tessel's float dtype)");
        }
        break;
      }
      case ElementType::F32:
        f = std::bit_cast<float>(static_cast<uint32_t>(bits));
        break;
      case ElementType::F16:
        f = halfToFloat(static_cast<uint16_t>(bits));
        break;
      case ElementType::BF16:
        f = std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
        break;
      case ElementType::I64:
        v = static_cast<int64_t>(bits);
        break;
      case ElementType::I32:
        v = static_cast<int32_t>(bits);
        break;
      case ElementType::I16:
        v = static_cast<int16_t>(bits);
        break;
      case ElementType::I8:
        v = static_cast<int8_t>(bits);
        break;
      case ElementType::U64:
        if (bits > uint64_t(std::numeric_limits<int32_t>::max()))
          outOfRange(path, std::to_string(bits), first + i);
        v = static_cast<int64_t>(bits);
        break;
      case ElementType::U32:
      case ElementType::U16:
      case ElementType::U8:
        v = static_cast<int64_t>(bits);
        break;
      case ElementType::Bool:
        v = bits != 0;
        break;
    }
    if (isFloat) {
      std::memcpy(dst + i * 4, &f, 4);
    } else if (t == ElementType::Bool) {
      dst[i] = std::byte(v != 0);
    } else {
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
        outOfRange(path, std::to_string(v), first + i);
      int32_t w = static_cast<int32_t>(v);
      std::memcpy(dst + i * 4, &w, 4);
    }
  }
}

uint64_t checkedBytes(const std::string& path, const std::string& format, const Dims& shape,
                      int bytes, uint64_t available) {
  uint64_t total = static_cast<uint64_t>(bytes);
  bool zero = false;
  for (int64_t s : shape) {
    if (s < 0) badFile(path, format, "a negative size in the shape");
    if (s == 0) zero = true;
  }
  if (zero) return 0;
  for (int64_t s : shape) {
    if (__builtin_mul_overflow(total, static_cast<uint64_t>(s), &total) ||
        total > uint64_t(std::numeric_limits<int64_t>::max()))
      badFile(path, format, "the shape's element count overflows");
  }
  if (total > available)
    badFile(path, format,
            "truncated: the header promises " + std::to_string(total) + " bytes of data, " +
                std::to_string(available) + " are left");
  return total;
}

Tensor readTensor(ByteSource& src, ElementType t, bool bigEndian, const Dims& shape, bool fortran,
                  const std::string& format) {
  Dims physical = shape;
  if (fortran) std::reverse(physical.begin(), physical.end());
  Tensor out = Tensor::empty(physical, tesselDType(t));
  const int inBytes = elementBytes(t), outBytes = shapes::elementSize(tesselDType(t));
  const uint64_t count = static_cast<uint64_t>(out.numel());
  std::byte* dst = out.bytes();
  adviseHugePages(dst, count * outBytes);
  if (isNative(t) && (!bigEndian || inBytes == 1)) {
    readExact(src, dst, count * inBytes, format, "the data");
    if (t == ElementType::Bool) convertElements(dst, t, false, dst, count, 0, src.name());
  } else {
    // Converted in chunks, so the only full-size buffer is the tensor itself.
    constexpr uint64_t kChunk = 1 << 16;
    std::vector<std::byte> buf(std::min(count, kChunk) * inBytes);
    for (uint64_t done = 0; done < count;) {
      uint64_t k = std::min(count - done, kChunk);
      readExact(src, buf.data(), k * inBytes, format, "the data");
      convertElements(buf.data(), t, bigEndian, dst + done * outBytes, k, done, src.name());
      done += k;
    }
  }
  if (!fortran || shape.size() < 2) return out;  // (the reversed shape of 0-1 dims is itself)
  Dims reversed(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) reversed[i] = int64_t(shape.size() - 1 - i);
  return out.permute(reversed);
}

}  // namespace tessel::backends::io
