// Rendering of ScriptErrors with the source line and a caret.
#include "interp/syntax/diagnostics.h"

#include <algorithm>
#include <vector>

namespace tessel::interp {

void raise(ErrorKind kind, std::string message, Span span) {
  throw ScriptError(kind, std::move(message), span);
}

namespace {

std::string location(const SourceRegistry& sources, Span span) {
  return sources.name(span.file) + ":" + std::to_string(span.line) + ":" + std::to_string(span.col);
}

// Columns count code points (ANTLR decodes UTF-8), so the caret line is built per code point;
// tabs are kept so the caret stays under the right character in a terminal.
std::string caretLine(std::string_view line, uint32_t col, uint32_t endCol) {
  std::string out;
  uint32_t cp = 1;
  for (size_t i = 0; i < line.size() && cp < col; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;
    out += c == '\t' ? '\t' : ' ';
    ++cp;
  }
  while (cp < col) {
    out += ' ';
    ++cp;
  }
  out += '^';
  for (uint32_t c = col + 1; c <= endCol; ++c) out += '~';
  return out;
}

// A source line too long to read in a terminal (generated code, a minified script, 10^5 nested
// brackets) is shown as a window of kWindow code points around the error's column, with "..."
// where it was cut; `col` and `endCol` are moved to the window's columns.
struct ShownLine {
  std::string text;
  uint32_t col, endCol;
};

ShownLine windowAround(std::string_view line, uint32_t col, uint32_t endCol) {
  constexpr uint32_t kWindow = 100, kBefore = 40;
  std::vector<size_t> starts;  // byte offset of each code point
  for (size_t i = 0; i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) starts.push_back(i);
  const uint32_t n = static_cast<uint32_t>(starts.size());
  if (n <= kWindow + kWindow / 5) return {std::string(line), col, endCol};
  const uint32_t first = col > kBefore ? std::min(col - kBefore, n - kWindow + 1) : 1;
  const uint32_t last = first + kWindow - 1;  // inclusive, 1-based
  const size_t from = starts[first - 1], to = last < n ? starts[last] : line.size();
  ShownLine shown{first > 1 ? "..." : "", 0, 0};
  const uint32_t shift = static_cast<uint32_t>(shown.text.size()) + 1 - first;
  shown.text += std::string(line.substr(from, to - from));
  if (last < n) shown.text += "...";
  shown.col = col + shift;
  shown.endCol = std::min(endCol, last) + shift;
  return shown;
}

}  // namespace

std::string formatDiagnostic(const ScriptError& error, const SourceRegistry& sources, bool color) {
  const char* bold = color ? "\033[1m" : "";
  const char* red = color ? "\033[1;31m" : "";
  const char* reset = color ? "\033[0m" : "";
  std::string out;
  Span s = error.span;
  out += std::string(bold) + location(sources, s) + ": " + reset + red +
         std::string(errorKindName(error.kind())) + reset + bold + ": " + error.what() + reset +
         "\n";
  std::string_view line = sources.line(s.file, s.line);
  if (!line.empty()) {
    std::string num = std::to_string(s.line);
    std::string pad(num.size(), ' ');
    uint32_t end = s.endLine == s.line ? std::max(s.endCol, s.col) : s.col;
    // Long multi-line spans get a single caret: the start is what matters.
    ShownLine shown = windowAround(line, s.col, end);
    out += " " + num + " | " + shown.text + "\n";
    out += " " + pad + " | " + red + caretLine(shown.text, shown.col, shown.endCol) + reset + "\n";
  }
  // Deep recursion repeats one frame thousands of times: print each run of identical frames
  // once with a count, and at most kMaxFrames runs.
  constexpr size_t kMaxFrames = 20;
  size_t shown = 0;
  for (size_t i = 0; i < error.trace.size();) {
    const TraceFrame& frame = error.trace[i];
    size_t j = i + 1;
    while (j < error.trace.size() && error.trace[j].function == frame.function &&
           error.trace[j].callSite.file == frame.callSite.file &&
           error.trace[j].callSite.line == frame.callSite.line &&
           error.trace[j].callSite.col == frame.callSite.col)
      ++j;
    if (shown++ == kMaxFrames) {
      out += "  ... (" + std::to_string(error.trace.size() - i) + " more calls)\n";
      break;
    }
    out += "  in " + frame.function;
    if (frame.callSite.line) out += ", called from " + location(sources, frame.callSite);
    if (j - i > 1) out += " (" + std::to_string(j - i) + " times)";
    out += "\n";
    i = j;
  }
  return out;
}

}  // namespace tessel::interp
