// .npy read and write (npy.h), by NumPy's format description (numpy.lib.format).
#include "backends/io/npy.h"

#include <cstring>
#include <limits>
#include <optional>

#include "backends/io/io_error.h"

namespace tessel::backends::io {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr uint32_t kMaxHeader = 1 << 20;  // NumPy's own default cap is 10000 bytes
const std::string kFormat = ".npy";

/// The header dict, a Python literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2,)}.
class DictParser {
 public:
  DictParser(std::string_view text, const std::string& path) : s_(text), path_(path) {}

  NpyHeader parse() {
    NpyHeader h;
    bool seenDescr = false, seenOrder = false, seenShape = false;
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') break;
      std::string key = string();
      expect(':');
      skipSpace();
      if (key == "descr" && !seenDescr) {
        if (peek() == '[') fail("structured dtypes (a list as 'descr') are not supported");
        descr(string(), h);
        seenDescr = true;
      } else if (key == "fortran_order" && !seenOrder) {
        h.fortran = boolean();
        seenOrder = true;
      } else if (key == "shape" && !seenShape) {
        h.shape = tuple();
        seenShape = true;
      } else {
        fail("an unexpected or repeated key '" + key + "'");
      }
      skipSpace();
      if (peek() == ',')
        ++pos_;
      else if (peek() != '}')
        fail("expected ',' or '}' in the header");
    }
    if (!seenDescr || !seenOrder || !seenShape)
      fail("the header lacks 'descr', 'fortran_order' or 'shape'");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) { badFile(path_, kFormat, what); }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n')) ++pos_;
  }
  void expect(char c) {
    skipSpace();
    if (peek() != c) fail(std::string("expected '") + c + "' in the header");
    ++pos_;
  }
  std::string string() {
    skipSpace();
    char q = peek();
    if (q != '\'' && q != '"') fail("expected a string in the header");
    size_t end = s_.find(q, pos_ + 1);
    if (end == std::string_view::npos) fail("an unterminated string in the header");
    std::string out(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return out;
  }
  bool boolean() {
    if (s_.substr(pos_, 4) == "True") return pos_ += 4, true;
    if (s_.substr(pos_, 5) == "False") return pos_ += 5, false;
    fail("'fortran_order' is not True or False");
  }
  Dims tuple() {
    expect('(');
    Dims dims;
    while (true) {
      skipSpace();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') fail("a size in 'shape' is not a non-negative integer");
      uint64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        v = v * 10 + uint64_t(peek() - '0');
        if (v > uint64_t(std::numeric_limits<int64_t>::max())) fail("a size in 'shape' overflows");
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2's long literals
      if (dims.size() >= 64) fail("more than 64 dimensions");
      dims.push_back(static_cast<int64_t>(v));
      skipSpace();
      if (peek() == ',')
        ++pos_;
      else if (peek() != ')')
        fail("expected ',' or ')' in 'shape'");
    }
    ++pos_;
    return dims;
  }
  void descr(const std::string& d, NpyHeader& h) {
    size_t i = 0;
    char order = d.empty() ? '\0' : d[0];
    if (order == '<' || order == '>' || order == '|' || order == '=') ++i;
    h.bigEndian = order == '>';
    if (i >= d.size()) fail("an empty dtype");
    char kind = d[i++];
    int bytes = 0;
    for (; i < d.size() && d[i] >= '0' && d[i] <= '9' && bytes < 1000; ++i)
      bytes = bytes * 10 + (d[i] - '0');
    std::optional<ElementType> t = i == d.size() ? elementFromNumpy(kind, bytes) : std::nullopt;
    if (kind == '?' && i == d.size()) t = ElementType::Bool;
    if (!t)
      badValue(path_, "the dtype '" + d +
                          "' is not supported (Tessel loads floats of 16-64 bits, integers of "
                          "8-64 bits and bools)");
    h.type = *t;
  }

  std::string_view s_;
  size_t pos_ = 0;
  const std::string& path_;
};

}  // namespace

NpyHeader readNpyHeader(ByteSource& src) {
  unsigned char pre[kMagicLen + 2];
  readExact(src, pre, sizeof pre, kFormat, "the magic string");
  if (std::memcmp(pre, kMagic, kMagicLen) != 0)
    badFile(src.name(), kFormat, "it does not start with \\x93NUMPY");
  const int major = pre[kMagicLen];
  if (major < 1 || major > 3)
    badFile(src.name(), kFormat,
            "format version " + std::to_string(major) + "." + std::to_string(pre[kMagicLen + 1]) +
                " (Tessel reads 1.0 to 3.0)");
  uint32_t headerLen = 0;
  unsigned char len[4] = {};
  readExact(src, len, major == 1 ? 2 : 4, kFormat, "the header length");
  headerLen = len[0] | (len[1] << 8) | (uint32_t(len[2]) << 16) | (uint32_t(len[3]) << 24);
  const uint64_t prefix = kMagicLen + 2 + (major == 1 ? 2 : 4);
  if (headerLen > kMaxHeader)
    badFile(src.name(), kFormat,
            "a header of " + std::to_string(headerLen) + " bytes (the limit is " +
                std::to_string(kMaxHeader) + ")");
  if (prefix + headerLen > src.size())
    badFile(src.name(), kFormat,
            "truncated: the header length " + std::to_string(headerLen) + " runs past the end");
  std::string text(headerLen, '\0');
  readExact(src, text.data(), headerLen, kFormat, "the header");
  NpyHeader h = DictParser(text, src.name()).parse();
  h.dataBytes = checkedBytes(src.name(), kFormat, h.shape, elementBytes(h.type),
                             src.size() - prefix - headerLen);
  return h;
}

Tensor readNpy(ByteSource& src) {
  NpyHeader h = readNpyHeader(src);
  return readTensor(src, h.type, h.bigEndian, h.shape, h.fortran, kFormat);
}

Tensor loadNpy(const FileRef& file) {
  InputFile in(file);
  return readNpy(in);
}

std::string npyHeaderFor(const Tensor& t) {
  const char* descr = t.dtype() == DType::F32 ? "<f4" : t.dtype() == DType::I32 ? "<i4" : "|b1";
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < t.shape().size(); ++i)
    dict += (i ? ", " : "") + std::to_string(t.shape()[i]);
  dict += t.shape().size() == 1 ? ",), }" : "), }";  // (5,) is Python's 1-tuple
  // Version 1.0 unless the header needs more than 64 KiB; padded so data starts at 64 bytes.
  bool v2 = dict.size() + 1 + 10 > 65535;
  size_t prefix = v2 ? 12 : 10;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicLen);
  out += char(v2 ? 2 : 1);
  out += char(0);
  uint32_t n = static_cast<uint32_t>(dict.size());
  out += char(n & 0xff);
  out += char((n >> 8) & 0xff);
  if (v2) {
    out += char((n >> 16) & 0xff);
    out += char((n >> 24) & 0xff);
  }
  return out + dict;
}

std::string npyBytes(const Tensor& t) {
  Tensor c = t.contiguous();
  std::string out = npyHeaderFor(c);
  out.append(reinterpret_cast<const char*>(c.bytes()),
             static_cast<size_t>(c.numel()) * shapes::elementSize(c.dtype()));
  return out;
}

void saveNpy(const FileRef& file, const Tensor& t) {
  Tensor c = t.contiguous();
  AtomicFile f(file);
  f.write(npyHeaderFor(c));
  f.write(c.bytes(), static_cast<size_t>(c.numel()) * shapes::elementSize(c.dtype()));
  f.commit();
}

}  // namespace tessel::backends::io
