// Hugging Face's safetensors format: an 8-byte little-endian header length, a JSON header
// naming each tensor's dtype, shape and data offsets (plus an optional "__metadata__" map of
// strings), then the data. Loading maps the file and cpu tensors view it (Note [Mapped
// safetensors]).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/io/element_type.h"
#include "backends/io/file_ref.h"
#include "backends/tensor.h"

namespace tessel::backends::io {

// Note [Mapped safetensors]
// load() maps the file read-only (MAP_PRIVATE) and each tensor whose bytes Tessel can use as
// they are (f32, i32, or bool holding only 0 and 1, at an offset aligned to its element size)
// becomes a view of the mapping through Storage::borrow, as a DLPack import does: nothing is
// read until an element is used, and the mapping lives as long as any view of it (the storage
// owns a reference). Others (f64, bf16, i64, ...) are converted into new tensors. The views'
// bytes are charged to the interpreter's memory budget for as long as the mapping lives, so
// --max-memory counts what a load brings in whichever way it comes. Writing over a file while
// it is mapped is safe: save() renames a new file over the old one (Note [Atomic writes]) and
// the mapping keeps the old one's pages. What no mapping survives is another program
// truncating the file in place: touching the lost pages then ends the process (SIGBUS), as it
// does for NumPy's mmap_mode and the safetensors package.

struct NamedTensor {
  std::string name;
  Tensor tensor;
};
using Metadata = std::vector<std::pair<std::string, std::string>>;

/// One tensor as the header describes it; offsets are from the start of the file.
struct SafetensorsEntry {
  std::string name;
  ElementType type = ElementType::F32;
  Dims shape;
  uint64_t begin = 0, end = 0;
};
struct SafetensorsHeader {
  std::vector<SafetensorsEntry> entries;  ///< in the order of their data
  Metadata metadata;                      ///< "__metadata__", sorted by key
};

/// Reads and checks the header of a whole file in memory: a length past the end or over
/// 100 MB, malformed JSON, an unknown dtype, a shape whose size does not match its offsets,
/// offsets that overlap, leave holes or run past the end are ValueErrors naming `name`.
SafetensorsHeader parseSafetensorsHeader(std::span<const std::byte> file, const std::string& name);
/// The tensors of a checked header: views of `file` (kept alive by `owner`) where the bytes
/// can be used as they are, converted copies otherwise. `viewBytes`, if given, receives the
/// bytes viewed.
std::vector<NamedTensor> safetensorsTensors(const SafetensorsHeader& header,
                                            std::span<const std::byte> file,
                                            const std::shared_ptr<const void>& owner,
                                            const std::string& name, size_t* viewBytes = nullptr);

struct SafetensorsFile {
  std::vector<NamedTensor> tensors;
  Metadata metadata;
};
/// A file from disk, mapped (Note [Mapped safetensors]).
SafetensorsFile loadSafetensors(const FileRef& file);
/// The whole file for `tensors` (cpu tensors, distinct names) and `metadata`.
std::string safetensorsHeaderFor(const std::vector<NamedTensor>& tensors, const Metadata& metadata,
                                 std::vector<size_t>& dataOrder);
/// Writes tensors and metadata to `file` atomically. Data is laid out 4-byte types first, so
/// every tensor of the file is aligned and loads as a view.
void saveSafetensors(const FileRef& file, const std::vector<NamedTensor>& tensors,
                     const Metadata& metadata);

/// The deepest nesting of brackets outside strings in JSON text, checked before parsing so
/// that a header cannot make the parser (or what it builds) recurse without bound.
int jsonNestingDepth(std::string_view text);

}  // namespace tessel::backends::io
