// Reading and writing whole files safely: sources of bytes with a known size (a file, a
// memory-mapped file, a buffer, a zip member), and writes that are atomic (Note [Atomic
// writes]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "backends/io/file_ref.h"
#include "backends/memory_budget.h"

namespace tessel::backends::io {

/// Bytes read in order, with the total a header may be checked against.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Up to `n` bytes into `dst`; fewer only at the end. IOError when reading fails.
  virtual size_t read(void* dst, size_t n) = 0;
  /// The bytes this source holds in all (read or not).
  virtual uint64_t size() const = 0;
  /// What errors name: the file's path (and member).
  virtual const std::string& name() const = 0;
};

/// Reads exactly `n` bytes; a ValueError ("truncated", naming `format` and `what`) if the
/// source ends first.
void readExact(ByteSource& src, void* dst, size_t n, const std::string& format,
               const std::string& what);

/// A regular file opened for reading: IOError when it is missing, a directory, unreadable,
/// or (for a confined reference) reached only by leaving its folder.
class InputFile : public ByteSource {
 public:
  explicit InputFile(const FileRef& file);
  ~InputFile() override;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  size_t read(void* dst, size_t n) override;
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }
  /// Gives up the descriptor (to a library that takes ownership of it).
  int release();
  int fd() const { return fd_; }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

/// A buffer in memory as a source (fuzzing, zip members read whole).
class MemorySource : public ByteSource {
 public:
  MemorySource(std::span<const std::byte> bytes, std::string name)
      : bytes_(bytes), name_(std::move(name)) {}
  size_t read(void* dst, size_t n) override;
  uint64_t size() const override { return bytes_.size(); }
  const std::string& name() const override { return name_; }

 private:
  std::span<const std::byte> bytes_;
  size_t pos_ = 0;
  std::string name_;
};

/// The whole of a file read into memory (text, CSV, small archives).
std::string readWholeFile(const FileRef& file);

/// A read-only private mapping of a whole file; tensors view it through Storage::borrow and
/// keep it alive (shared_ptr). Unmapped when the last owner is gone.
class MappedFile {
 public:
  /// IOError as InputFile's; an empty file maps nothing (data() is null).
  static std::shared_ptr<MappedFile> open(const FileRef& file);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }
  /// Counts `bytes` of views against the running interpreter's memory budget (Note [Memory
  /// budget]) for as long as the mapping lives; LimitError past the limit.
  void charge(size_t bytes) { charge_ = chargeMemory(bytes); }

 private:
  MappedFile() = default;
  std::string path_;
  std::byte* data_ = nullptr;
  size_t size_ = 0;
  MemoryCharge charge_;
};

// Note [Atomic writes]
// A checkpoint is either the old file or the complete new one, never a torn mix: the bytes go
// to a temporary file in the destination's folder (same file system, so the rename is
// atomic), which is flushed to disk (fsync) and then renamed over the destination; the
// folder is synced so that the rename itself survives a crash. Any failure (a full disk, an
// error while serializing) removes the temporary file and leaves the destination as it was.
// The new file gets the mode a plain open() would give it (0666 less the umask). Large writes
// start the disk's writeback as they go (sync_file_range), so the final fsync has little left.
// The folder is opened once (beneath the policy's folder for a confined reference, Note
// [Opening beneath a folder]) and the temporary file is created, renamed and removed
// relative to that descriptor, so a link swapped into the path meanwhile cannot move the
// write elsewhere. A plain path that is a symbolic link to a file replaces the file it names
// (as open() would write through it); a confined one was resolved by the policy already, and
// a link that appears at its last component later is replaced itself, never followed.
class AtomicFile {
 public:
  /// Creates the temporary file beside `file`; IOError when the folder is missing or not
  /// writable, `file` is a directory, or (confined) the folder is reached only by leaving the
  /// policy's folder.
  explicit AtomicFile(const FileRef& file);
  /// Removes the temporary file unless commit() ran.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  /// Appends bytes (IOError when the disk is full or the write fails).
  void write(const void* data, size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }
  /// fsync, rename over the destination, fsync the folder.
  void commit();

 private:
  /// The constructor's work: opens the folder, creates the temporary file.
  void create(const FileRef& file);
  std::string path_;  ///< what errors name
  std::string leaf_;  ///< the destination's name in its folder
  std::string temp_;  ///< the temporary file's name in that folder; "" until created
  int dir_ = -1, fd_ = -1;
  uint64_t written_ = 0;
  bool committed_ = false;
};

/// Writes `bytes` to `file` atomically.
void writeFileAtomically(const FileRef& file, std::string_view bytes);

}  // namespace tessel::backends::io
