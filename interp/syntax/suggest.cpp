// Edit distance (Levenshtein, with transpositions counted as one edit) over a list of names.
#include "interp/syntax/suggest.h"

#include <algorithm>

namespace tessel::interp {
namespace {

size_t distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string didYouMean(std::string_view name, const std::vector<std::string>& candidates) {
  size_t limit = std::max<size_t>(1, name.size() / 3);
  const std::string* best = nullptr;
  size_t bestDistance = limit + 1;
  for (const std::string& c : candidates) {
    if (c == name || c.empty() || c[0] == '_') continue;
    size_t d = distance(name, c);
    if (d < bestDistance) bestDistance = d, best = &c;
  }
  return best ? " (did you mean '" + *best + "'?)" : "";
}

}  // namespace tessel::interp
