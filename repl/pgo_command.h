// `tessel pgo show [script...]`: the PGO profiles (compiler.md, "PGO"), rendered as seed 004
// does, with the TESSEL_DYNAMIC_SOURCES line that would reproduce them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tessel::repl {

/// Shows the profile of each script (or of every script when none is named). Returns the exit
/// status: 0, 1 for a script without a profile or a profile that cannot be read.
int showPgo(const std::vector<std::string>& scripts, std::ostream& out, std::ostream& err);

}  // namespace tessel::repl
