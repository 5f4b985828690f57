// safetensors read and write (safetensors.h), by the format's published layout.
#include "backends/io/safetensors.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "backends/io/file_access.h"
#include "backends/io/io_error.h"
#include "shapes/user_error.h"

namespace tessel::backends::io {

namespace {

using Json = nlohmann::json;
const std::string kFormat = ".safetensors";
constexpr uint64_t kMaxHeader = 100'000'000;  // the reference implementation's limit
constexpr int kMaxDepth = 16;                 // a safetensors header nests 3 levels


uint64_t nonNegative(const Json& j, const std::string& path, const std::string& what) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer() && j.get<int64_t>() >= 0)
    return static_cast<uint64_t>(j.get<int64_t>());
  badFile(path, kFormat, what + " is not a non-negative integer");
}

SafetensorsEntry parseEntry(const std::string& key, const Json& j, uint64_t dataStart,
                            uint64_t fileSize, const std::string& path) {
  const std::string where = "tensor '" + key + "'";
  if (!j.is_object()) badFile(path, kFormat, where + " is not described by an object");
  SafetensorsEntry e;
  e.name = key;
  auto dtype = j.find("dtype");
  auto shape = j.find("shape");
  auto offsets = j.find("data_offsets");
  if (dtype == j.end() || !dtype->is_string() || shape == j.end() || !shape->is_array() ||
      offsets == j.end() || !offsets->is_array() || offsets->size() != 2)
    badFile(path, kFormat, where + " lacks a string 'dtype', a 'shape' list or two 'data_offsets'");
  std::optional<ElementType> t = elementFromSafetensors(dtype->get<std::string>());
  if (!t)
    badValue(path, where + " has the dtype '" + dtype->get<std::string>() +
                       "', which Tessel does not load (F64 F32 F16 BF16 I64 I32 I16 I8 U64 U32 "
                       "U16 U8 BOOL)");
  e.type = *t;
  if (shape->size() > 64) badFile(path, kFormat, where + " has more than 64 dimensions");
  for (const Json& d : *shape) {
    uint64_t s = nonNegative(d, path, "a size of " + where);
    if (s > uint64_t(std::numeric_limits<int64_t>::max()))
      badFile(path, kFormat, "a size of " + where + " overflows");
    e.shape.push_back(static_cast<int64_t>(s));
  }
  uint64_t begin = nonNegative((*offsets)[0], path, "the data offsets of " + where);
  uint64_t end = nonNegative((*offsets)[1], path, "the data offsets of " + where);
  const uint64_t dataSize = fileSize - dataStart;
  if (begin > end || end > dataSize)
    badFile(path, kFormat,
            where + " has data offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
                "] outside the " + std::to_string(dataSize) + " bytes of data");
  uint64_t bytes = checkedBytes(path, kFormat, e.shape, elementBytes(e.type), dataSize);
  if (bytes != end - begin)
    badFile(path, kFormat,
            where + " is " + std::to_string(bytes) + " bytes by its shape and " +
                elementName(e.type) + ", but its data offsets span " + std::to_string(end - begin));
  e.begin = dataStart + begin;
  e.end = dataStart + end;
  return e;
}

}  // namespace

/// The deepest nesting of brackets outside strings, so that a header cannot make the JSON
/// parser (or the destructor of what it builds) recurse without bound.
int jsonNestingDepth(std::string_view s) {
  int depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return deepest;
}

SafetensorsHeader parseSafetensorsHeader(std::span<const std::byte> file, const std::string& path) {
  if (file.size() < 8) badFile(path, kFormat, "truncated: shorter than the 8-byte header length");
  uint64_t n = 0;
  for (int i = 8; i-- > 0;) n = (n << 8) | std::to_integer<uint64_t>(file[i]);
  if (n > kMaxHeader)
    badFile(path, kFormat, "a header of " + std::to_string(n) + " bytes (the limit is 100 MB)");
  if (n > file.size() - 8)
    badFile(path, kFormat,
            "truncated: the header length " + std::to_string(n) +
                " runs past the end of the file (" + std::to_string(file.size()) + " bytes)");
  std::string_view text(reinterpret_cast<const char*>(file.data()) + 8, n);
  if (jsonNestingDepth(text) > kMaxDepth) badFile(path, kFormat, "the header nests too deeply");
  Json header = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded()) badFile(path, kFormat, "the header is not valid JSON");
  if (!header.is_object()) badFile(path, kFormat, "the header is not a JSON object");
  SafetensorsHeader out;
  for (auto it = header.begin(); it != header.end(); ++it) {
    if (it.key() == "__metadata__") {
      if (!it->is_object()) badFile(path, kFormat, "'__metadata__' is not an object");
      for (auto m = it->begin(); m != it->end(); ++m) {
        if (!m->is_string())
          badFile(path, kFormat, "the metadata '" + m.key() + "' is not a string");
        out.metadata.emplace_back(m.key(), m->get<std::string>());
      }
      continue;
    }
    out.entries.push_back(parseEntry(it.key(), *it, 8 + n, file.size(), path));
  }
  // As the reference reader requires: the tensors' data tile the data section exactly, with
  // no overlap and no hole.
  std::sort(out.entries.begin(), out.entries.end(), [](const auto& a, const auto& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t at = 8 + n;
  for (const SafetensorsEntry& e : out.entries) {
    if (e.begin != at)
      badFile(path, kFormat,
              "the data of tensor '" + e.name + "' " +
                  (e.begin < at ? "overlaps the tensor before it"
                                : "leaves a hole after the tensor before it"));
    at = e.end;
  }
  if (at != file.size())
    badFile(path, kFormat,
            std::to_string(file.size() - at) + " bytes at the end belong to no tensor");
  return out;
}

std::vector<NamedTensor> safetensorsTensors(const SafetensorsHeader& header,
                                            std::span<const std::byte> file,
                                            const std::shared_ptr<const void>& owner,
                                            const std::string& path, size_t* viewBytes) {
  std::vector<NamedTensor> out;
  out.reserve(header.entries.size());
  size_t viewed = 0;
  for (const SafetensorsEntry& e : header.entries) {
    const std::byte* p = file.data() + e.begin;
    const size_t bytes = e.end - e.begin;
    const int size = elementBytes(e.type);
    bool view = isNative(e.type) && reinterpret_cast<uintptr_t>(p) % size == 0 && bytes > 0;
    if (view && e.type == ElementType::Bool)
      view = std::all_of(p, p + bytes, [](std::byte b) { return b <= std::byte{1}; });
    Tensor t;
    if (view) {
      auto storage = Storage::borrow(const_cast<std::byte*>(p), bytes, Device::Cpu, owner);
      t = Tensor::view(std::move(storage), e.shape, contiguousStrides(e.shape), 0,
                       tesselDType(e.type));
      viewed += bytes;
    } else {
      t = Tensor::empty(e.shape, tesselDType(e.type));
      convertElements(p, e.type, false, t.bytes(), static_cast<size_t>(t.numel()), 0, path);
    }
    out.push_back({e.name, std::move(t)});
  }
  if (viewBytes) *viewBytes = viewed;
  return out;
}

SafetensorsFile loadSafetensors(const FileRef& file) {
  std::shared_ptr<MappedFile> mapped = MappedFile::open(file);
  const std::string& path = mapped->path();
  SafetensorsHeader header = parseSafetensorsHeader(mapped->bytes(), path);
  size_t viewable = 0;
  for (const SafetensorsEntry& e : header.entries)
    if (isNative(e.type)) viewable += e.end - e.begin;
  mapped->charge(viewable);  // before any view exists (LimitError past --max-memory)
  SafetensorsFile out;
  out.tensors = safetensorsTensors(header, mapped->bytes(), mapped, path);
  out.metadata = std::move(header.metadata);
  return out;
}

std::string safetensorsHeaderFor(const std::vector<NamedTensor>& tensors, const Metadata& metadata,
                                 std::vector<size_t>& dataOrder) {
  dataOrder.resize(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) dataOrder[i] = i;
  std::stable_sort(dataOrder.begin(), dataOrder.end(), [&](size_t a, size_t b) {
    return shapes::elementSize(tensors[a].tensor.dtype()) >
           shapes::elementSize(tensors[b].tensor.dtype());
  });
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) {
    nlohmann::ordered_json meta = nlohmann::ordered_json::object();
    for (const auto& [k, v] : metadata) meta[k] = v;
    header["__metadata__"] = std::move(meta);
  }
  uint64_t offset = 0;
  for (size_t i : dataOrder) {
    const Tensor& t = tensors[i].tensor;
    uint64_t bytes = static_cast<uint64_t>(t.numel()) * shapes::elementSize(t.dtype());
    header[tensors[i].name] = {{"dtype", elementName(elementOf(t.dtype()))},
                               {"shape", t.shape()},
                               {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  std::string text;
  try {
    text = header.dump();
  } catch (const nlohmann::json::exception&) {
    throwUserError(ErrorKind::ValueError, "a tensor name or metadata string is not valid UTF-8");
  }
  text.append((8 - text.size() % 8) % 8, ' ');  // data starts 8-byte aligned, as the reference pads
  std::string out(8, '\0');
  uint64_t n = text.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  return out + text;
}

void saveSafetensors(const FileRef& file, const std::vector<NamedTensor>& tensors,
                     const Metadata& metadata) {
  std::vector<Tensor> data;
  data.reserve(tensors.size());
  for (const NamedTensor& t : tensors) data.push_back(t.tensor.contiguous());
  std::vector<size_t> order;
  std::string header = safetensorsHeaderFor(tensors, metadata, order);
  AtomicFile f(file);
  f.write(header);
  for (size_t i : order)
    f.write(data[i].bytes(),
            static_cast<size_t>(data[i].numel()) * shapes::elementSize(data[i].dtype()));
  f.commit();
}

}  // namespace tessel::backends::io
