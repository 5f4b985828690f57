// Rendering PGO profile sources for the report (report_pgo.h).
#include "repl/report/pgo.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <regex>

namespace tessel::repl::report {

namespace {

std::optional<int64_t> integer(const std::string& s) {
  int64_t v;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

/// Contiguous strides of `sizes`: the product of the sizes after each dimension, `?` as soon
/// as one of them is not a known integer (the stride then depends on a dynamic size).
std::vector<std::string> contiguousStrides(const std::vector<std::string>& sizes) {
  std::vector<std::string> strides(sizes.size());
  int64_t product = 1;
  bool known = true;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = known ? std::to_string(product) : "?";
    std::optional<int64_t> size = integer(sizes[i]);
    if (!size || __builtin_mul_overflow(product, *size, &product)) known = false;
  }
  return strides;
}

std::string list(const std::vector<std::string>& items) {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
  return s + "]";
}

/// An environment assignment a shell takes as it is: names like params[0]["w"] need quotes
/// (brackets alone do not: assignments are not globbed).
std::string shellWord(const std::string& s) {
  bool plain = std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) ||
           std::string("_.,[]=").find(ch) != std::string::npos;
  });
  if (plain) return s;
  std::string quoted = "'";
  for (char ch : s) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

}  // namespace

bool tensorDim(const std::string& source, std::string& tensor, int64_t& dim) {
  // Two digits: a rank past 99 is no tensor's, and a dimension sizes a vector below.
  static const std::regex shape(R"(^(.+)\.shape\[([0-9]{1,2})\]$)");
  std::smatch m;
  if (!std::regex_match(source, m, shape)) return false;
  tensor = m[1];
  dim = std::stoll(m[2]);
  return true;
}

std::vector<std::string> renderPgoSources(
    const std::vector<std::pair<std::string, std::string>>& sources) {
  std::vector<std::string> order;                                 // tensors and scalars, first seen
  std::map<std::string, std::map<int64_t, std::string>> tensors;  // name -> dim -> size
  std::map<std::string, std::string> scalars;
  for (const auto& [source, value] : sources) {
    std::string name;
    int64_t dim;
    bool isDim = tensorDim(source, name, dim);
    if (!isDim) name = source;
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
    if (isDim)
      tensors[name][dim] = value;
    else
      scalars[name] = value;
  }
  std::vector<std::string> lines;
  for (const std::string& name : order) {
    if (auto t = tensors.find(name); t != tensors.end()) {
      // Dimensions the profile does not name are unknown to it: shown as `?` too.
      std::vector<std::string> sizes(t->second.rbegin()->first + 1, "?");
      for (const auto& [dim, value] : t->second) sizes[dim] = value;
      lines.push_back(name + ": tensor size=" + list(sizes) +
                      " stride=" + list(contiguousStrides(sizes)));
    } else {
      const std::string& v = scalars[name];
      lines.push_back(name + (v == "?" ? ": fully dynamic scalar" : ": scalar " + v));
    }
  }
  return lines;
}

std::vector<std::string> dynamicSourceNames(
    const std::vector<std::pair<std::string, std::string>>& sources) {
  std::vector<std::string> names;
  for (const auto& [source, value] : sources)
    if (value == "?") names.push_back(source);
  return names;
}

std::string dynamicSourcesAssignment(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string joined;
  for (const std::string& n : names) joined += (joined.empty() ? "" : ",") + n;
  return "TESSEL_DYNAMIC_SOURCES=" + shellWord(joined);
}

}  // namespace tessel::repl::report
