// Stable sorting of Values with an optional key function, shared by sorted() and list.sort().
#pragma once

#include <vector>

#include "interp/syntax/source.h"
#include "interp/values/value.h"

namespace tessel::interp {

class Interpreter;
/// Sorts `items` like Python's sorted(); `site` is the call that asked, where errors raised
/// by the key function show their traceback.
void sortValues(Interpreter& interp, std::vector<Value>& items, const Value& key, bool reverse,
                Span site);

}  // namespace tessel::interp
