// eagerSignature: the input signatures for the op's shape rule, and the rule's answer.
#include "backends/eager_signature.h"

#include <vector>

#include "shapes/user_error.h"

namespace tessel::backends {

std::optional<shapes::OpSignature> eagerSignature(shapes::OpKind op,
                                                  std::span<const Tensor> inputs,
                                                  const shapes::OpAttrs& attrs) {
  std::vector<shapes::OpSignature> sigs;
  sigs.reserve(inputs.size());
  for (const Tensor& t : inputs) {
    TESSEL_ASSERT(t.defined(), "undefined tensor passed to an op");
    sigs.push_back({shapes::SymShape(t.shape().begin(), t.shape().end()), t.dtype()});
  }
  if (shapes::opCategory(op) == shapes::OpCategory::DataDependent) {
    shapes::OpAttrs probe = attrs;
    probe.outputSize = attrs.outputSize.value_or(0);
    shapes::inferShape(op, sigs, probe);
    return std::nullopt;
  }
  return shapes::inferShape(op, sigs, attrs).at(0);
}

}  // namespace tessel::backends
