// Stable sorting of Values with an optional key function, shared by sorted() and list.sort().
#pragma once

#include <vector>

#include "interp/value.h"

namespace tessel::interp {

class Interpreter;
void sortValues(Interpreter& interp, std::vector<Value>& items, const Value& key, bool reverse);

}  // namespace tessel::interp
