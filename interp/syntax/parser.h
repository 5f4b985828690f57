// The parser bridge: source text -> AST. The only code that sees ANTLR (style.md rule 1).
#pragma once

#include <memory>
#include <string_view>

#include "interp/syntax/ast.h"
#include "interp/syntax/source.h"

namespace tessel::interp {

/// Deepest bracket nesting (and longest run of prefix operators) accepted. ANTLR's generated
/// parser recurses per level without a limit, so deeper input is refused before parsing.
inline constexpr int kMaxNesting = 200;

/// Parses a registered source file. Throws ScriptError (SyntaxError or LimitError).
std::unique_ptr<Program> parseProgram(const SourceRegistry& sources, uint32_t file);

/// True when `text` stops inside an open bracket or after a line continuation: the REPL then
/// asks for another line instead of reporting a syntax error.
bool needsMoreInput(std::string_view text);

}  // namespace tessel::interp
