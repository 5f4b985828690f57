// Values to and from files (docs/tensors.md, "Files"): what `load` and `save` do once the path
// has passed the file policy (a FileRef beneath the allowed folder), shared by the prelude
// functions (file_natives.cpp) and the embedding API's tessel::load / tessel::save. The formats
// themselves are in backends/io/.
#pragma once

#include <optional>
#include <string>

#include "backends/device.h"
#include "backends/io/file_ref.h"
#include "backends/io/safetensors.h"
#include "interp/values/value.h"

namespace tessel::interp {

/// What a file holds, by its extension: .npy a tensor, .npz a dict of tensors, .safetensors
/// the tree that was saved (or a flat dict by key for a file written elsewhere). Tensors go
/// to `device` (none: the default device; cpu tensors of a safetensors file view its mapping).
Value loadValue(const backends::io::FileRef& file, std::optional<backends::Device> device);
/// Writes `value` by the extension: a tensor (or number) to .npy, a dict of tensors to .npz
/// (deflated with `compress`), a tree of dicts, lists and tuples of tensors (and numbers,
/// strings, bools, none) to .safetensors (Note [Trees in safetensors]). Atomic.
void saveValue(const backends::io::FileRef& file, const Value& value, bool compress);

/// The value of a safetensors file's tensors and metadata: its saved tree, or a dict by
/// name (`name` is what errors show).
Value safetensorsValue(backends::io::SafetensorsFile file, const std::string& name,
                       backends::Device device);

}  // namespace tessel::interp
