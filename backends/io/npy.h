// NumPy's .npy format (versions 1.0 to 3.0): one array, its dtype, order and shape in a
// header that is a Python dict literal, then the raw elements.
#pragma once

#include <string>

#include "backends/io/element_type.h"
#include "backends/io/file_access.h"
#include "backends/tensor.h"

namespace tessel::backends::io {

/// What an .npy header says.
struct NpyHeader {
  ElementType type = ElementType::F32;
  bool bigEndian = false;
  bool fortran = false;
  Dims shape;
  uint64_t dataBytes = 0;  ///< checked against what the source holds after the header
};

/// Reads and checks the magic, version and header dict; the source is then at the data.
/// ValueError naming the source for anything malformed or lying.
NpyHeader readNpyHeader(ByteSource& src);
/// The array an .npy source holds, converted to a Tessel dtype.
Tensor readNpy(ByteSource& src);
/// An .npy file from disk.
Tensor loadNpy(const FileRef& file);

/// The header (magic to padding) of a little-endian C-order array of `t`'s dtype and shape;
/// the data (t.contiguous()'s bytes) follows it.
std::string npyHeaderFor(const Tensor& t);
/// A whole .npy file in memory (for .npz members).
std::string npyBytes(const Tensor& t);
/// Writes `t` (a cpu tensor) to `file` atomically.
void saveNpy(const FileRef& file, const Tensor& t);

}  // namespace tessel::backends::io
