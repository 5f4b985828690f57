// Built-ins over iterables and characters: any, all, map, filter, reversed, ord, chr; and the
// `math` module of numbers (language.md, "Built-ins").
#pragma once

#include "interp/values/objects.h"

namespace tessel::interp {

/// Defines any, all, map, filter, reversed, ord and chr in the prelude.
void registerIterableBuiltins(ModuleObj& prelude);
/// The `math` module: functions of numbers that return numbers, and its constants.
Value makeMathModule();

}  // namespace tessel::interp
