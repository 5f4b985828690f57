// The PGO view of `tessel report`: a profile's sources rendered as seed 002 shows them
// (`x: tensor size=[?, 8] stride=[8, 1]`) and the TESSEL_DYNAMIC_SOURCES line they imply.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessel::repl::report {

/// "x.shape[1]" is dimension 1 of tensor "x" (the source names of TESSEL_DYNAMIC_SOURCES).
bool tensorDim(const std::string& source, std::string& tensor, int64_t& dim);

/// One line per tensor or scalar of a profile's sources (each "?" or its one value), in the
/// order they first appear: `x: tensor size=[?, 8] stride=[8, 1]` (contiguous strides, `?`
/// where a `?` size enters them), `n: fully dynamic scalar`, `n: scalar 5`.
std::vector<std::string> renderPgoSources(
    const std::vector<std::pair<std::string, std::string>>& sources);

/// The sources whose value is "?".
std::vector<std::string> dynamicSourceNames(
    const std::vector<std::pair<std::string, std::string>>& sources);

/// "TESSEL_DYNAMIC_SOURCES=x.shape[0],n", or "" for no names.
std::string dynamicSourcesAssignment(const std::vector<std::string>& names);

}  // namespace tessel::repl::report
