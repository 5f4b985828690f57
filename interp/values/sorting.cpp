// sortValues: Python's sorted() semantics (stable, key, reverse).
#include "interp/values/sorting.h"

#include <algorithm>

#include "interp/values/operators.h"

namespace tessel::interp {

void sortValues(std::vector<Value>& items, const SortKey& key, bool reverse) {
  std::vector<Value> keys;
  keys.reserve(items.size());
  for (Value& v : items) keys.push_back(key ? key(v) : v);
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // compareValues throws TypeError for unordered pairs; the exception leaves items untouched.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return reverse ? compareValues(CompareOp::Lt, keys[b], keys[a])
                   : compareValues(CompareOp::Lt, keys[a], keys[b]);
  });
  std::vector<Value> sorted;
  sorted.reserve(items.size());
  for (size_t i : order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

}  // namespace tessel::interp
