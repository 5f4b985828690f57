// Graph: value-kind names, node counts and the op classifications passes share.
#include "backends/graph/graph.h"

namespace tessel::graph {

const char* valueKindName(ValueKind k) {
  switch (k) {
#define TESSEL_X(kind, ...) \
  case ValueKind::kind:     \
    return #kind;
    TESSEL_VALUE_KINDS(TESSEL_X)
#undef TESSEL_X
  }
  return "?";
}

size_t Graph::numNodes() const {
  size_t n = 0;
  for (const Value& v : values_) n += v.isNode() ? 1 : 0;
  return n;
}

bool isRandomOp(OpKind op) {
  return op == OpKind::Rand || op == OpKind::Randn || op == OpKind::Randint ||
         op == OpKind::Dropout;
}

bool isElementwise(OpKind op) {
  switch (shapes::opCategory(op)) {
    case shapes::OpCategory::Unary:
    case shapes::OpCategory::Binary:
    case shapes::OpCategory::Ternary:
      return true;
    default:
      return op == OpKind::Cast;
  }
}

}  // namespace tessel::graph
