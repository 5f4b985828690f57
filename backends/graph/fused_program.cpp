// FusedProgram: counting and printing.
#include "backends/graph/fused_program.h"

#include "backends/graph/graph_print.h"

namespace tessel::graph {

size_t FusedProgram::numOps() const {
  size_t n = 0;
  for (const FusedInstr& i : code) n += i.kind == FusedInstr::Kind::Op ? 1 : 0;
  return n;
}

std::string FusedProgram::toString(const std::vector<std::string>& argNames,
                                   const std::string& indent) const {
  std::string s;
  for (size_t i = 0; i < code.size(); ++i) {
    const FusedInstr& ins = code[i];
    s += indent + "$" + std::to_string(i) + ": " + std::string(shapes::name(ins.dtype)) + " = ";
    switch (ins.kind) {
      case FusedInstr::Kind::Load:
        s += "load " +
             (ins.input < argNames.size() ? argNames[ins.input] : "in" + std::to_string(ins.input));
        break;
      case FusedInstr::Kind::Scalar:
        s += formatScalar(ins.scalar, ins.dtype);
        break;
      case FusedInstr::Kind::Op: {
        s += std::string(shapes::opName(ins.op)) + "(";
        for (int a = 0; a < ins.numArgs(); ++a)
          s += (a ? ", $" : "$") + std::to_string(ins.args[a]);
        s += ")";
        break;
      }
    }
    s += "\n";
  }
  return s;
}

}  // namespace tessel::graph
