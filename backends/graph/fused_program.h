// FusedProgram: a chain or DAG of elementwise ops evaluated as one loop over the output,
// written backend neutrally (cpu runs it tile by tile; a GPU backend can generate a kernel).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "shapes/dtype.h"
#include "shapes/op_kind.h"

namespace tessel::graph {

/// One instruction in SSA form: instruction i defines temporary $i.
struct FusedInstr {
  enum class Kind : uint8_t {
    Load,    ///< operand `input` of the fused value, broadcast to the output shape
    Scalar,  ///< an immediate (a one-element constant inlined by fusion)
    Op,      ///< `op` applied to earlier temporaries `args`
  };
  Kind kind = Kind::Op;
  shapes::OpKind op = shapes::OpKind::Add;
  shapes::DType dtype = shapes::DType::F32;  ///< result dtype (the op's shape rule's)
  uint32_t input = 0;                        ///< Load
  double scalar = 0;                         ///< Scalar (exact for f32, i32 and bool values)
  std::array<int32_t, 3> args{-1, -1, -1};   ///< Op: temporaries, -1 when unused
  int numArgs() const { return args[0] < 0 ? 0 : args[1] < 0 ? 1 : args[2] < 0 ? 2 : 3; }
};

/// Every temporary has the fused value's shape (fusion merges only same-shape producers), so
/// an element of the output depends only on the same element of each temporary. The last
/// instruction is the result. Immutable once built.
struct FusedProgram {
  std::vector<FusedInstr> code;
  uint32_t numInputs = 0;  ///< operands of the fused value (Load indices are below this)

  /// Number of Op instructions (the ops this program replaced).
  size_t numOps() const;
  /// "{ $0 = load %3; $1 = 2.0; $2 = mul($0, $1) : f32 }" with `argNames[i]` for input i,
  /// one instruction per line after `indent`.
  std::string toString(const std::vector<std::string>& argNames, const std::string& indent) const;
};

}  // namespace tessel::graph
