// OpKind: the spine of the op table, generated from op_list.def.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tessel::shapes {

enum class OpCategory : uint8_t {
  Unary,
  Binary,
  Ternary,
  Reduce,
  Scan,
  Shape,
  Index,
  DataDependent,
  NN,
  Create,
  Convert,
  Sort
};

enum class OpKind : uint16_t {
#define TESSEL_OP(Enum, name, cat) Enum,
#include "shapes/op_list.def"
};

inline constexpr int kNumOps = 0
#define TESSEL_OP(Enum, name, cat) +1
#include "shapes/op_list.def"
    ;

/// The language-level name of an op ("add", "index_select").
std::string_view opName(OpKind op);
/// The category an op belongs to.
OpCategory opCategory(OpKind op);
/// The comparisons and logical and/or: binary ops that give bool and compute in their operands'
/// promoted dtype (not in the result's).
bool isComparison(OpKind op);
/// Looks an op up by its language-level name.
std::optional<OpKind> opFromName(std::string_view name);

}  // namespace tessel::shapes
