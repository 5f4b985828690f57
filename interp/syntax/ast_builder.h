// Parse tree to AST: each build function of AstBuilder quotes the grammar production it
// handles. Used only by the parser bridge (parser.cpp), the one place ANTLR types are seen.
#pragma once

#include <cstdint>

#include "interp/syntax/ast.h"

namespace antlr4 {
class ParserRuleContext;
}

namespace tessel::interp {

/// The AST of a parsed program (`tree`: the grammar's ProgramContext), its nodes in
/// `program`'s arena; spans name `file`.
FnProto* buildAst(Program& program, uint32_t file, antlr4::ParserRuleContext* tree);

}  // namespace tessel::interp
