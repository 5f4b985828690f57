// "Did you mean ...?": the nearest of some names to a misspelt one (names, attributes,
// keyword arguments).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tessel::interp {

/// ` (did you mean 'count'?)` for the candidate nearest to `name` by edit distance, when it is
/// near enough (at most a third of the name's length, and at least one edit); else "".
std::string didYouMean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace tessel::interp
