// Source files and spans: every AST node and diagnostic points into a registered source text.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::interp {

/// A region of a source file; lines and columns are 1-based, end is inclusive.
struct Span {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t endLine = 0;
  uint32_t endCol = 0;
};

/// Keeps every source text seen (scripts, modules, REPL inputs) so that diagnostics can quote
/// the line of any span, even after the code that produced it is gone.
class SourceRegistry {
 public:
  /// Registers a text under a display name ("demo.dsl", "<repl>") and returns its id.
  uint32_t add(std::string name, std::string text);
  const std::string& name(uint32_t file) const;
  const std::string& text(uint32_t file) const;
  /// The text of a 1-based line, without its newline.
  std::string_view line(uint32_t file, uint32_t line) const;

 private:
  struct File {
    std::string name;
    std::string text;
    std::vector<size_t> lineStarts;
  };
  std::vector<std::unique_ptr<File>> files_;
};

}  // namespace tessel::interp
