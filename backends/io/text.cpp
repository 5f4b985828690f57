// Text, gzip and CSV (text.h).
#include "backends/io/text.h"

#include <zlib.h>

#include <charconv>
#include <cstring>
#include <limits>

#include "backends/io/file_access.h"
#include "backends/io/io_error.h"

namespace tessel::backends::io {

namespace {

constexpr size_t kZChunk = size_t{1} << 30;  // zlib counts in 32 bits

}  // namespace

bool isGzipPath(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

std::string gunzip(std::span<const std::byte> data, const std::string& name) {
  if (data.size() < 2 || data[0] != std::byte{0x1f} || data[1] != std::byte{0x8b})
    badFile(name, "gzip", "it does not start with the gzip magic bytes");
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
  struct End {
    z_stream* zs;
    ~End() { inflateEnd(zs); }
  } end{&zs};
  std::string out;
  size_t in = 0;
  char buf[1 << 16];
  while (true) {
    if (zs.avail_in == 0 && in < data.size()) {
      size_t k = std::min(data.size() - in, kZChunk);
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(data.data() + in));
      zs.avail_in = static_cast<uInt>(k);
      in += k;
    }
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    int rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_STREAM_END) {
      // Another member may follow (gzip files can be concatenated); anything else ends it.
      size_t consumed = in - zs.avail_in;
      if (data.size() - consumed < 2 || data[consumed] != std::byte{0x1f} ||
          data[consumed + 1] != std::byte{0x8b})
        return out;
      inflateReset(&zs);
      continue;
    }
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in == data.size())
      badFile(name, "gzip", "truncated: the compressed data ends early");
    if (rc != Z_OK && rc != Z_BUF_ERROR)
      badFile(name, "gzip", std::string("damaged data (") + (zs.msg ? zs.msg : "zlib error") + ")");
  }
}

std::string gzip(std::string_view text) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    throw std::bad_alloc();
  std::string out;
  size_t in = 0;
  char buf[1 << 16];
  int rc;
  do {
    if (zs.avail_in == 0 && in < text.size()) {
      size_t k = std::min(text.size() - in, kZChunk);
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data() + in));
      zs.avail_in = static_cast<uInt>(k);
      in += k;
    }
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = deflate(&zs, in == text.size() ? Z_FINISH : Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK || rc == Z_BUF_ERROR);
  deflateEnd(&zs);
  return out;
}

std::string readText(const FileRef& file) {
  std::string bytes = readWholeFile(file);
  if (!isGzipPath(file.name())) return bytes;
  return gunzip(std::as_bytes(std::span(bytes.data(), bytes.size())), file.name());
}

void writeText(const FileRef& file, std::string_view text) {
  if (isGzipPath(file.name()))
    writeFileAtomically(file, gzip(text));
  else
    writeFileAtomically(file, text);
}

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    size_t stop = end > start && text[end - 1] == '\r' ? end - 1 : end;
    lines.emplace_back(text.substr(start, stop - start));
    start = end + 1;
  }
  return lines;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

/// The fields of one line; a quoted field ("...") may hold the delimiter.
void splitFields(std::string_view line, char delim, std::vector<std::string_view>& out) {
  out.clear();
  size_t i = 0;
  while (true) {
    size_t start = i;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t') && line[i] != delim) ++i;
    if (i < line.size() && line[i] == '"') {
      size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos) close = line.size();
      out.push_back(line.substr(i + 1, close - i - 1));
      i = line.find(delim, close);
    } else {
      size_t d = line.find(delim, start);
      out.push_back(trim(line.substr(start, d == std::string_view::npos ? line.npos : d - start)));
      i = d;
    }
    if (i == std::string_view::npos) return;
    ++i;  // past the delimiter
  }
}

struct CsvLine {
  std::string_view text;
  size_t number;  // 1-based
};

std::string quoteField(std::string_view f) {
  if (f.size() > 40) return "'" + std::string(f.substr(0, 40)) + "...'";
  return "'" + std::string(f) + "'";
}

}  // namespace

Tensor parseCsv(std::string_view text, const CsvOptions& options, const std::string& name) {
  if (options.dtype == DType::Bool) badValue(name, "load_csv reads f32 or i32 tables, not bool");
  if (options.delimiter == '"' || options.delimiter == '\n' || options.delimiter == '\r')
    badValue(name, "the delimiter cannot be a quote or a line end");
  // Pass 1: the data lines and the field count, so the tensor is allocated once.
  std::vector<CsvLine> lines;
  size_t number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (static_cast<int64_t>(number) <= options.skipHeader) continue;
    if (trim(line).empty()) continue;
    lines.push_back({line, number});
  }
  std::vector<std::string_view> fields;
  size_t width = 0;
  if (!lines.empty()) {
    splitFields(lines[0].text, options.delimiter, fields);
    width = fields.size();
  }
  std::vector<size_t> columns;
  if (options.columns) {
    for (int64_t c : *options.columns) {
      int64_t k = c < 0 ? c + static_cast<int64_t>(width) : c;
      if (k < 0 || k >= static_cast<int64_t>(width))
        badValue(name, "column " + std::to_string(c) + " is out of range for rows of " +
                           std::to_string(width) + " fields");
      columns.push_back(static_cast<size_t>(k));
    }
  } else {
    for (size_t c = 0; c < width; ++c) columns.push_back(c);
  }
  if (lines.empty() && options.columns) columns.assign(options.columns->size(), 0);
  const int64_t rows = static_cast<int64_t>(lines.size());
  const int64_t cols = static_cast<int64_t>(columns.size());
  Tensor out = Tensor::empty({rows, cols}, options.dtype);
  float* f = options.dtype == DType::F32 ? out.data<float>() : nullptr;
  int32_t* n = options.dtype == DType::I32 ? out.data<int32_t>() : nullptr;
  // Pass 2: the numbers.
  for (int64_t r = 0; r < rows; ++r) {
    const CsvLine& line = lines[static_cast<size_t>(r)];
    splitFields(line.text, options.delimiter, fields);
    auto where = [&](size_t c) {
      return "line " + std::to_string(line.number) + ", column " + std::to_string(c + 1);
    };
    if (fields.size() != width)
      badValue(name, "line " + std::to_string(line.number) + " has " +
                         std::to_string(fields.size()) + " fields, the first row " +
                         std::to_string(width));
    for (int64_t k = 0; k < cols; ++k) {
      size_t c = columns[static_cast<size_t>(k)];
      std::string_view field = fields[c];
      if (!field.empty() && field.front() == '+') field.remove_prefix(1);
      const char* b = field.data();
      const char* e = b + field.size();
      if (field.empty()) badValue(name, where(c) + ": an empty field");
      if (f) {
        float v = 0;
        auto [p, ec] = std::from_chars(b, e, v);
        if (ec == std::errc::result_out_of_range) {  // past f32's range: inf or 0, as NumPy
          double d = 0;
          auto r = std::from_chars(b, e, d);
          p = r.ptr;
          ec = r.ec;
          v = static_cast<float>(d);
        }
        if (ec != std::errc() || p != e)
          badValue(name, where(c) + ": " + quoteField(fields[c]) + " is not a number");
        f[r * cols + k] = v;
      } else {
        int64_t v = 0;
        auto [p, ec] = std::from_chars(b, e, v);
        const bool tooLarge = ec == std::errc::result_out_of_range ||
                              v < std::numeric_limits<int32_t>::min() ||
                              v > std::numeric_limits<int32_t>::max();
        if (tooLarge && p == e)
          overflowingValue(name, where(c) + ": " + quoteField(fields[c]) +
                                     " does not fit in i32 (Tessel's integer dtype)");
        if (ec != std::errc() || p != e)
          badValue(name, where(c) + ": " + quoteField(fields[c]) + " is not an integer");
        n[r * cols + k] = static_cast<int32_t>(v);
      }
    }
  }
  return out;
}

Tensor loadCsv(const FileRef& file, const CsvOptions& options) {
  return parseCsv(readText(file), options, file.name());
}

}  // namespace tessel::backends::io
