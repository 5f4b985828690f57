// `tessel report DIR [-o report.html]`: one self-contained HTML page from a directory of
// structured compile traces (`tessel --trace-dir DIR`, docs/compile.md "Structured trace").
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tessel::repl {

/// Runs `tessel report` with the words after `report`. Messages go to `out` (where the page
/// was written, --help) and `err` (errors). Returns the exit status: 0 written, 1 for a trace
/// directory that cannot be read or holds no *.jsonl file, or an output that cannot be
/// written, 2 for a usage error.
int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tessel::repl
