// The page of `tessel report`: one self-contained HTML file (inline CSS, SVG and a few lines
// of script; nothing fetched, readable with scripts off). Each section has its own file.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <tessel/tessel.h>

#include "repl/report/frames.h"
#include "repl/report/trace.h"

namespace tessel::repl::report {

// Every string that comes from a trace goes through tessel::escapeHtml (graphs and reasons
// hold `<` and `&`).
using tessel::escapeHtml;
/// "12.3", "0.042": milliseconds with the digits that matter at that size.
std::string formatMs(double ms);
/// The fragment id of a compile's table row, unique across processes: "c-0-0-1".
std::string compileAnchor(size_t process, const CompileRecord& c);
/// "0/1", or "0/1 (pid 42)" when the trace holds several processes.
std::string compileName(const Trace& trace, size_t process, const CompileRecord& c);
/// How a compile ended: "ok", "break" (the trace broke), "error", or "unfinished" (no
/// compile_end). Also the CSS class of its row and the colour of its timeline span.
const char* compileState(const CompileRecord& c);
/// "pid 42", or "rank 1 (pid 42)" in a trace of several ranks (every process says rank 0
/// when it is not one of several).
std::string processName(const Trace& trace, size_t process);

/// The whole page.
void writePage(const Trace& trace, std::ostream& out);

// Sections, in page order.
void writeCompileTable(const Trace& trace, std::ostream& out);  // report_table.cpp
void writeFrames(const Trace& trace, const std::vector<FrameView>& frames,
                 std::ostream& out);                   // report_sections.cpp
void writePgo(const Trace& trace, std::ostream& out);  // report_sections.cpp
void writeTimeline(const Trace& trace, const std::vector<FrameView>& frames,
                   std::ostream& out);  // report_svg.cpp

}  // namespace tessel::repl::report
