// The element types files hold, and how each becomes one of Tessel's dtypes: f32, i32 and bool
// as they are; other floats to f32; other integers to i32, a value that does not fit being a
// ValueError naming it (as Tensor::fromDLPack converts, Note [DLPack exchange] in
// api/tensor.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "backends/io/file_access.h"
#include "backends/tensor.h"

namespace tessel::backends::io {

#define TESSEL_FILE_ELEMENT_TYPES(X)                            \
  /* name, bytes, NumPy kind, safetensors name, Tessel dtype */ \
  X(F64, 8, 'f', "F64", F32)                                    \
  X(F32, 4, 'f', "F32", F32)                                    \
  X(F16, 2, 'f', "F16", F32)                                    \
  X(BF16, 2, '\0', "BF16", F32)                                 \
  X(I64, 8, 'i', "I64", I32)                                    \
  X(I32, 4, 'i', "I32", I32)                                    \
  X(I16, 2, 'i', "I16", I32)                                    \
  X(I8, 1, 'i', "I8", I32)                                      \
  X(U64, 8, 'u', "U64", I32)                                    \
  X(U32, 4, 'u', "U32", I32)                                    \
  X(U16, 2, 'u', "U16", I32)                                    \
  X(U8, 1, 'u', "U8", I32)                                      \
  X(Bool, 1, 'b', "BOOL", Bool)

enum class ElementType : uint8_t {
#define TESSEL_X(e, bytes, kind, st, dt) e,
  TESSEL_FILE_ELEMENT_TYPES(TESSEL_X)
#undef TESSEL_X
};

int elementBytes(ElementType t);
/// "F64", "BOOL", ...: safetensors' names, also used in messages.
const char* elementName(ElementType t);
/// The type of a safetensors dtype name, or nullopt.
std::optional<ElementType> elementFromSafetensors(const std::string& name);
/// The type of a NumPy kind and size ('f', 4), or nullopt (bool is 'b', 1).
std::optional<ElementType> elementFromNumpy(char kind, int bytes);
/// The Tessel dtype a file's element type becomes.
DType tesselDType(ElementType t);
/// True when the bytes are Tessel's own (f32, i32 or bool; little-endian).
bool isNative(ElementType t);
/// The file type of a Tessel dtype.
ElementType elementOf(DType t);

/// Converts `count` elements at `src` (little-endian, or big-endian with `bigEndian`) into
/// `dst`, which holds tesselDType(t). `first` numbers the first element, for the ValueError
/// naming a value that does not fit in i32. Bools become 0 or 1.
void convertElements(const std::byte* src, ElementType t, bool bigEndian, std::byte* dst,
                     size_t count, uint64_t first, const std::string& path);

/// A tensor of `shape` (row-major, or column-major with `fortran`) whose elements are the
/// next bytes of `src`, converted. The element count times the element size must already be
/// checked against the source's size (checkedBytes), so no allocation is larger than the file.
Tensor readTensor(ByteSource& src, ElementType t, bool bigEndian, const Dims& shape, bool fortran,
                  const std::string& format);

/// numel(shape) * bytes, or a ValueError naming `format` when a size is negative or the
/// product overflows or exceeds `available` bytes.
uint64_t checkedBytes(const std::string& path, const std::string& format, const Dims& shape,
                      int bytes, uint64_t available);

}  // namespace tessel::backends::io
