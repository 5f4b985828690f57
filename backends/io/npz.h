// NumPy's .npz format: a zip archive of .npy files, one per array (np.savez, stored) or
// deflated (np.savez_compressed), read and written through libzip.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "backends/io/file_ref.h"
#include "backends/io/safetensors.h"  // NamedTensor

namespace tessel::backends::io {

/// The arrays of an archive on disk, named by their members less ".npy", in archive order.
/// IOError for a file that cannot be opened; ValueError for a damaged archive (a bad CRC, a
/// member claiming more than its compressed size can hold), a member that is not a valid .npy.
std::vector<NamedTensor> loadNpz(const FileRef& file);
/// The same for an archive in memory (`name` is what errors show).
std::vector<NamedTensor> readNpz(std::span<const std::byte> bytes, const std::string& name);
/// An archive of `tensors` (cpu tensors, distinct names) as bytes: members stored, or
/// deflated with `compress`.
std::string npzBytes(const std::vector<NamedTensor>& tensors, bool compress);
/// Writes the archive to `file` atomically.
void saveNpz(const FileRef& file, const std::vector<NamedTensor>& tensors, bool compress);

}  // namespace tessel::backends::io
