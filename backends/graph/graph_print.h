// The readable text form of graphs, used by TESSEL_LOGS=graph_code, explain() and tests:
//   %2: f32[s0, 8] = add(%0, %1)
#pragma once

#include <string>

#include "backends/graph/graph.h"

namespace tessel::graph {

/// Every value on its own line, then the runtime asserts and `return %a, %b`.
/// Inputs:    `%0: f32[s0, 8] = input x`
/// Constants: `%1: f32[] = constant 2.0` (up to 8 elements printed, else the shape only)
/// Ops:       `%3: f32[s0] = sum(%2, dims=[1])` (only the attributes the op reads)
/// Fused:     `%4: f32[s0, 8] = fused(%0, %1)` followed by its instructions, indented.
std::string toString(const Graph& g);
/// The attributes `op` reads, as ", dims=[1], keepdim=true" (empty when none).
std::string formatAttrs(OpKind op, const OpAttrs& attrs);
/// "2.0", "-3", "true": a scalar of the given dtype.
std::string formatScalar(double v, DType dtype);
/// "f32[s0, 8]".
std::string formatType(const SymShape& shape, DType dtype);

}  // namespace tessel::graph
