// Rendering of ScriptErrors with the source line and a caret.
#include "interp/diagnostics.h"

#include <algorithm>

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
    out += " " + num + " | " + std::string(line) + "\n";
    out += " " + pad + " | " + red + caretLine(line, s.col, end) + reset + "\n";
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
