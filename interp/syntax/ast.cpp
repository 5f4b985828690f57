// The spellings of the AST's operators, for diagnostics and printing.
#include "interp/syntax/ast.h"

namespace tessel::interp {

const char* binaryOpSymbol(BinaryOp op) {
  static const char* names[] = {"+", "-", "*", "/", "//", "%", "**", "@"};
  return names[static_cast<int>(op)];
}

const char* compareOpSymbol(CompareOp op) {
  static const char* names[] = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"};
  return names[static_cast<int>(op)];
}

}  // namespace tessel::interp
