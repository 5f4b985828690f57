// Stable sorting of Values with an optional key function, shared by sorted() and list.sort().
#pragma once

#include <functional>
#include <vector>

#include "interp/values/value.h"

namespace tessel::interp {

/// The key an item sorts by (`sorted(xs, key = f)`); an empty function sorts by the items
/// themselves. A callback because calling a Tessel function is the engine's work, a layer
/// above this one: the natives that sort make it from the interpreter.
using SortKey = std::function<Value(const Value&)>;

/// Sorts `items` like Python's sorted(): stable, by `key`, descending with `reverse`. Errors of
/// the key function and of comparing keys leave `items` untouched.
void sortValues(std::vector<Value>& items, const SortKey& key, bool reverse);

}  // namespace tessel::interp
