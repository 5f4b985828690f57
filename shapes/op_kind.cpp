// Name and category tables for OpKind, generated from op_list.def.
#include "shapes/op_kind.h"

#include <array>

namespace tessel::shapes {
namespace {

constexpr std::array<std::string_view, kNumOps> kNames = {
#define TESSEL_OP(Enum, name, cat) name,
#include "shapes/op_list.def"
};

constexpr std::array<OpCategory, kNumOps> kCategories = {
#define TESSEL_OP(Enum, name, cat) OpCategory::cat,
#include "shapes/op_list.def"
};

}  // namespace

std::string_view opName(OpKind op) { return kNames[static_cast<size_t>(op)]; }

OpCategory opCategory(OpKind op) { return kCategories[static_cast<size_t>(op)]; }

bool isComparison(OpKind op) {
  switch (op) {
    case OpKind::Eq:
    case OpKind::Ne:
    case OpKind::Lt:
    case OpKind::Le:
    case OpKind::Gt:
    case OpKind::Ge:
    case OpKind::LogicalAnd:
    case OpKind::LogicalOr:
      return true;
    default:
      return false;
  }
}

std::optional<OpKind> opFromName(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<OpKind>(i);
  return std::nullopt;
}

}  // namespace tessel::shapes
