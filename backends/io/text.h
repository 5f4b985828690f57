// Text files and CSV tables (docs/tensors.md, "Files"); a path ending in .gz is gzip, read and
// written through zlib.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/io/file_ref.h"
#include "backends/tensor.h"

namespace tessel::backends::io {

/// True when `path` ends in ".gz".
bool isGzipPath(const std::string& path);
/// The decompressed bytes of gzip data (one or more members); ValueError naming `name` when
/// they are not gzip or are damaged.
std::string gunzip(std::span<const std::byte> data, const std::string& name);
/// `text` as gzip.
std::string gzip(std::string_view text);

/// The whole text of a file (decompressed when its name ends in .gz).
std::string readText(const FileRef& file);
/// Writes `text` to `file` atomically (compressed when its name ends in .gz).
void writeText(const FileRef& file, std::string_view text);
/// The lines of a text without their line ends ("\n" or "\r\n"); a last line without one
/// counts, an empty text has none.
std::vector<std::string> splitLines(std::string_view text);

struct CsvOptions {
  char delimiter = ',';
  int64_t skipHeader = 0;  ///< lines to skip at the top
  std::optional<std::vector<int64_t>>
      columns;  ///< which columns, in order (negative: from the end)
  DType dtype = DType::F32;
};
/// A 2-D tensor [rows, columns] from CSV text. Blank lines are skipped; fields may be quoted
/// ("1.5") and padded with spaces. A field that is not a number of the dtype, a row with a
/// different number of fields or a column out of range is a ValueError naming `name`, the
/// line and the column.
Tensor parseCsv(std::string_view text, const CsvOptions& options, const std::string& name);
/// parseCsv over a file's text.
Tensor loadCsv(const FileRef& file, const CsvOptions& options);

}  // namespace tessel::backends::io
