// load and save by extension, and trees of values in safetensors files (file_values.h).
#include "interp/natives/file_values.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "backends/io/npy.h"
#include "backends/io/npz.h"
#include "backends/io/safetensors.h"
#include "interp/tensors/device_support.h"
#include "interp/values/objects.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace io = backends::io;

// Note [Trees in safetensors]
// A safetensors file is a flat map from names to tensors. save() flattens a tree (dicts,
// lists and tuples, nested) into dotted names, as PyTorch's state_dict does: {"enc": {"w": x},
// "head": [y]} gives "enc.w" and "head.0". The tree's shape goes into the header's
// "__metadata__" (a map of strings) under "tessel.tree", as JSON: each node is a one-key
// object, {"tensor": "enc.w"}, {"dict": [["enc", node], ...]} (a list of pairs keeps the
// order), {"list": [...]}, {"tuple": [...]}, and the plain values a checkpoint carries beside
// its tensors: {"int": 3}, {"float": "0.1"} (text, so nan and inf survive), {"bool": true},
// {"str": "adam"}, {"none": null}. load() rebuilds the tree from it; a file written elsewhere,
// without it, loads as a dict by name in the order of the data. A bare tensor is saved under
// the name "tensor". Two paths that flatten to one name ({"a.b": x, "a": {"b": y}}) are a
// ValueError, as is nesting deeper than kMaxTreeDepth (a list that contains itself, say).

namespace {

using Json = nlohmann::ordered_json;
constexpr int kMaxTreeDepth = 200;
const char* const kTreeKey = "tessel.tree";

std::string extensionOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext;
}

[[noreturn]] void unknownFormat(const std::string& path, const char* verb) {
  throwUserError(ErrorKind::ValueError,
                 std::string(verb) + "(): cannot tell the format of '" + path +
                     "' from its extension (.npy, .npz or .safetensors; text files: read_text, "
                     "write_text, read_lines; tables: load_csv)");
}

/// A cpu tensor of a tensor value or a number.
backends::Tensor hostOf(const Value& v, const std::string& what) {
  if (!v.is(Type::Tensor) && !v.isNumber() && !v.is(Type::Bool))
    throwUserError(ErrorKind::TypeError,
                   what + " must be a tensor, not " + std::string(typeName(v.type())));
  return hostTensor(toTensor(v, what));
}

struct Flattener {
  std::vector<io::NamedTensor> tensors;
  std::unordered_set<std::string> names;

  Json node(const Value& v, const std::string& name, int depth) {
    if (depth > kMaxTreeDepth)
      throwUserError(ErrorKind::ValueError, "save(): the value nests deeper than " +
                                                std::to_string(kMaxTreeDepth) +
                                                " levels (does a list contain itself?)");
    auto child = [&](const std::string& key) { return name.empty() ? key : name + "." + key; };
    switch (v.type()) {
      case Type::Tensor: {
        std::string key = name.empty() ? "tensor" : name;
        if (!names.insert(key).second)
          throwUserError(ErrorKind::ValueError,
                         "save(): two tensors of the value would both be named '" + key + "'");
        tensors.push_back({key, hostOf(v, "save(): a value")});
        return Json{{"tensor", key}};
      }
      case Type::Dict: {
        Json items = Json::array();
        for (const auto& [k, item] : v.as<DictObj>()->entries)
          items.push_back(Json::array({k, node(item, child(k), depth + 1)}));
        return Json{{"dict", std::move(items)}};
      }
      case Type::List:
      case Type::Tuple: {
        const auto& items = v.is(Type::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
        Json out = Json::array();
        for (size_t i = 0; i < items.size(); ++i)
          out.push_back(node(items[i], child(std::to_string(i)), depth + 1));
        return Json{{v.is(Type::List) ? "list" : "tuple", std::move(out)}};
      }
      case Type::Int:
        return Json{{"int", v.asInt()}};
      case Type::Float: {
        char buf[32];
        auto r = std::to_chars(buf, buf + sizeof buf, v.asFloat());
        return Json{{"float", std::string(buf, r.ptr)}};
      }
      case Type::Bool:
        return Json{{"bool", v.asBool()}};
      case Type::Str:
        return Json{{"str", v.as<StrObj>()->str}};
      case Type::None:
        return Json{{"none", nullptr}};
      default:
        throwUserError(ErrorKind::TypeError,
                       "save(): a " + std::string(typeName(v.type())) + " (at '" + name +
                           "') cannot be saved; a .safetensors file holds tensors in dicts, "
                           "lists and tuples, with numbers, strings, bools and none");
    }
  }
};

struct TreeBuilder {
  const std::string& path;
  std::unordered_map<std::string, Value>& tensors;

  [[noreturn]] void bad(const std::string& what) {
    throwUserError(ErrorKind::ValueError,
                   "'" + path + "' has a damaged '" + kTreeKey + "' metadata entry: " + what);
  }

  Value build(const Json& j, int depth) {
    if (depth > kMaxTreeDepth) bad("it nests too deeply");
    if (!j.is_object() || j.size() != 1) bad("a node is not an object with one key");
    const std::string& kind = j.begin().key();
    const Json& body = j.begin().value();
    if (kind == "tensor") {
      if (!body.is_string()) bad("a tensor's name is not a string");
      auto it = tensors.find(body.get<std::string>());
      if (it == tensors.end())
        bad("it names a tensor '" + body.get<std::string>() + "' the file lacks");
      return it->second;
    }
    if (kind == "dict") {
      if (!body.is_array()) bad("a dict's entries are not a list");
      auto* d = new DictObj;
      Value out = Value::object(d);
      for (const Json& e : body) {
        if (!e.is_array() || e.size() != 2 || !e[0].is_string()) bad("a dict entry is not a pair");
        d->set(e[0].get<std::string>(), build(e[1], depth + 1));
      }
      return out;
    }
    if (kind == "list" || kind == "tuple") {
      if (!body.is_array()) bad("a " + kind + "'s items are not a list");
      std::vector<Value> items;
      for (const Json& e : body) items.push_back(build(e, depth + 1));
      return kind == "list" ? makeList(std::move(items)) : makeTuple(std::move(items));
    }
    if (kind == "int" && body.is_number_integer()) return Value::integer(body.get<int64_t>());
    if (kind == "float" && body.is_string()) {
      const std::string& s = body.get_ref<const std::string&>();
      double d = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), d);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size()) bad("a float is not a number");
      return Value::real(d);
    }
    if (kind == "bool" && body.is_boolean()) return Value::boolean(body.get<bool>());
    if (kind == "str" && body.is_string()) return makeStr(body.get<std::string>());
    if (kind == "none" && body.is_null()) return Value::none();
    bad("an unknown node '" + kind + "'");
  }
};


Value placed(backends::Tensor t, backends::Device device) {
  if (device == backends::Device::Cpu) return makeTensor(std::move(t));
  return makeTensor(onDevice(t, device));
}

}  // namespace

Value safetensorsValue(io::SafetensorsFile file, const std::string& path, backends::Device device) {
  std::unordered_map<std::string, Value> byName;
  auto* flat = new DictObj;
  Value flatValue = Value::object(flat);
  for (io::NamedTensor& t : file.tensors) {
    Value v = placed(std::move(t.tensor), device);
    byName.emplace(t.name, v);
    flat->set(t.name, std::move(v));
  }
  for (const auto& [key, text] : file.metadata) {
    if (key != kTreeKey) continue;
    TreeBuilder builder{path, byName};
    // The tree nests at most three JSON levels per value level ({"dict": [["k", node]]}).
    if (io::jsonNestingDepth(text) > 3 * (kMaxTreeDepth + 1)) builder.bad("it nests too deeply");
    Json tree = Json::parse(text.begin(), text.end(), nullptr, false);
    if (tree.is_discarded()) builder.bad("it is not valid JSON");
    return builder.build(tree, 0);
  }
  return flatValue;
}

Value loadValue(const io::FileRef& file, std::optional<backends::Device> device) {
  const backends::Device where = device.value_or(defaultDevice());
  if (where != backends::Device::Cpu) ensureDevice(where);
  const std::string& path = file.name();
  const std::string ext = extensionOf(path);
  if (ext == ".npy") return placed(io::loadNpy(file), where);
  if (ext == ".npz") {
    auto* d = new DictObj;
    Value out = Value::object(d);
    for (io::NamedTensor& t : io::loadNpz(file)) d->set(t.name, placed(std::move(t.tensor), where));
    return out;
  }
  if (ext == ".safetensors") return safetensorsValue(io::loadSafetensors(file), path, where);
  unknownFormat(path, "load");
}

void saveValue(const io::FileRef& file, const Value& value, bool compress) {
  const std::string ext = extensionOf(file.name());
  if (compress && ext != ".npz")
    throwUserError(ErrorKind::ValueError, "save(): compress = true applies to .npz files only");
  if (ext == ".npy") {
    io::saveNpy(file, hostOf(value, "save(): a value saved to .npy"));
  } else if (ext == ".npz") {
    if (!value.is(Type::Dict))
      throwUserError(ErrorKind::TypeError,
                     "save(): a value saved to .npz must be a dict of "
                     "tensors, not " +
                         std::string(typeName(value.type())));
    std::vector<io::NamedTensor> tensors;
    for (const auto& [k, v] : value.as<DictObj>()->entries)
      tensors.push_back({k, hostOf(v, "save(): the entry '" + k + "' of a .npz dict")});
    io::saveNpz(file, tensors, compress);
  } else if (ext == ".safetensors") {
    Flattener f;
    Json tree = f.node(value, "", 0);
    io::saveSafetensors(file, f.tensors,
                        {{kTreeKey, tree.dump(-1, ' ', false, Json::error_handler_t::replace)}});
  } else {
    unknownFormat(file.name(), "save");
  }
}

}  // namespace tessel::interp
